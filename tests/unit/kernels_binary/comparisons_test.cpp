// Comparison kernels: int8 inputs of different scales and zero points compared by value
// through TFLM's fixed-point rescaling, plain int32 / int64 / float / bool comparisons
// (NaN included), broadcasting to bool outputs, and refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "node_call.h"

namespace grt::test {
namespace {

using tools::DType;

// A: scale 0.05, zero point -5; B: scale 0.1, zero point 10 (Q31 multipliers of the scales).
// A's values are 1.0, 1.05, 0.95, -6.15, 6.6, 0.5; B's 1.0, 1.0, 1.0, -13.8, -1.0, 0.0.
const std::vector<int8_t> kA{15, 16, 14, -128, 127, 5};
const std::vector<int8_t> kB{20, 20, 20, -128, 0, 10};

std::vector<uint8_t> compare_s8(const char* kernel) {
  NodeCall call;
  call.in(DType::Int8, {6}, kA).in(DType::Int8, {6}, kB).out(DType::Bool, {6});
  call.integer(8).integer(5).integer(1717986944).integer(-4).integer(-10).integer(1717986944).integer(-3);
  return call.run<uint8_t>(kernel);
}

TEST(ComparisonS8, ComparesRealValuesAcrossScales) {
  EXPECT_EQ(compare_s8("equal_s8"), (std::vector<uint8_t>{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(compare_s8("not_equal_s8"), (std::vector<uint8_t>{0, 1, 1, 1, 1, 1}));
  EXPECT_EQ(compare_s8("greater_s8"), (std::vector<uint8_t>{0, 1, 0, 1, 1, 1}));
  EXPECT_EQ(compare_s8("greater_equal_s8"), (std::vector<uint8_t>{1, 1, 0, 1, 1, 1}));
  EXPECT_EQ(compare_s8("less_s8"), (std::vector<uint8_t>{0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(compare_s8("less_equal_s8"), (std::vector<uint8_t>{1, 0, 1, 0, 0, 0}));
}

TEST(ComparisonPlain, IntegersBroadcastToBool) {
  // A [2, 1] against B [3]: out[i][j] = a[i] op b[j].
  NodeCall call;
  call.in<int32_t>(DType::Int32, {2, 1}, {0, 5}).in<int32_t>(DType::Int32, {3}, {-1, 0, 5}).out(DType::Bool, {2, 3});
  EXPECT_EQ(call.run<uint8_t>("greater_s32"), (std::vector<uint8_t>{1, 0, 0, 1, 1, 0}));
  EXPECT_EQ(call.run<uint8_t>("less_equal_s32"), (std::vector<uint8_t>{0, 1, 1, 0, 0, 1}));

  const int64_t big = int64_t{1} << 40;
  NodeCall wide;
  wide.in<int64_t>(DType::Int64, {2}, {big, big}).in<int64_t>(DType::Int64, {2}, {big, big + 1}).out(DType::Bool, {2});
  EXPECT_EQ(wide.run<uint8_t>("equal_i64"), (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(wide.run<uint8_t>("less_i64"), (std::vector<uint8_t>{0, 1}));
}

TEST(ComparisonPlain, FloatNanComparesUnequalToEverything) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  NodeCall call;
  call.in<float>(DType::Float32, {3}, {nan, 1.0f, -0.0f}).in<float>(DType::Float32, {3}, {nan, nan, 0.0f}).out(DType::Bool, {3});
  EXPECT_EQ(call.run<uint8_t>("equal_f32"), (std::vector<uint8_t>{0, 0, 1}));  // -0 == +0
  EXPECT_EQ(call.run<uint8_t>("not_equal_f32"), (std::vector<uint8_t>{1, 1, 0}));
  EXPECT_EQ(call.run<uint8_t>("greater_equal_f32"), (std::vector<uint8_t>{0, 0, 1}));
}

TEST(ComparisonPlain, BoolsCompareAsTruthValues) {
  NodeCall call;
  call.in<uint8_t>(DType::Bool, {4}, {0, 1, 2, 0}).in<uint8_t>(DType::Bool, {4}, {0, 1, 1, 1}).out(DType::Bool, {4});
  EXPECT_EQ(call.run<uint8_t>("equal_bool"), (std::vector<uint8_t>{1, 1, 1, 0}));
  EXPECT_EQ(call.run<uint8_t>("not_equal_bool"), (std::vector<uint8_t>{0, 0, 0, 1}));
}

TEST(ComparisonCheck, RefusesBadArguments) {
  const auto s8 = [](DType out, int64_t left_shift, int64_t a_shift, int64_t a_multiplier) {
    NodeCall call;
    call.in<int8_t>(DType::Int8, {2}, {}).in<int8_t>(DType::Int8, {2}, {}).out(out, {2});
    call.integer(left_shift).integer(0).integer(a_multiplier).integer(a_shift).integer(0).integer(1 << 30).integer(0);
    return call.refusal("less_s8");
  };
  EXPECT_EQ(s8(DType::Bool, 8, -4, 1 << 30), "");
  EXPECT_NE(s8(DType::Int8, 8, -4, 1 << 30).find("dtype"), std::string::npos);  // outputs are bool
  EXPECT_NE(s8(DType::Bool, 24, -4, 1 << 30), "");
  EXPECT_NE(s8(DType::Bool, 8, 1, 1 << 30), "");  // the scale multipliers are below one
  EXPECT_NE(s8(DType::Bool, 8, -4, -1), "");

  NodeCall plain_with_params;
  plain_with_params.in<float>(DType::Float32, {2}, {}).in<float>(DType::Float32, {2}, {}).out(DType::Bool, {2}).integer(8);
  EXPECT_NE(plain_with_params.refusal("equal_f32").find("number of arguments"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
