// ADD_N (float32, int8 with TFLM's rescaling and its extra offset term) and the logical
// kernels (AND, OR with broadcasting, NOT), with refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "node_call.h"

namespace grt::test {
namespace {

using tools::DType;

TEST(AddNF32, SumsFromZeroInOrder) {
  NodeCall call;
  call.out(DType::Float32, {3});
  call.in<float>(DType::Float32, {3}, {1.0f, -0.0f, 1e8f}).in<float>(DType::Float32, {3}, {2.0f, -0.0f, 1.0f});
  call.in<float>(DType::Float32, {3}, {0.5f, -0.0f, -1e8f});
  const std::vector<float> y = call.run<float>("add_n_f32");
  ASSERT_EQ(y.size(), 3u);
  EXPECT_EQ(y[0], 3.5f);
  EXPECT_EQ(y[1], 0.0f);
  EXPECT_FALSE(std::signbit(y[1]));  // 0.0f + -0.0f is +0.0f
  EXPECT_EQ(y[2], 0.0f);             // (1e8 + 1) rounds back to 1e8 in float before -1e8
}

NodeCall add_n_s8(int64_t input_offset, int64_t out_offset, const std::vector<std::vector<int8_t>>& inputs) {
  const auto n = static_cast<int64_t>(inputs[0].size());
  NodeCall call;
  call.out(DType::Int8, {n});
  // Left shift 20, input multiplier 0.5, output multiplier 2s / (2^20 s) = 2^-19.
  call.integer(20).integer(input_offset).integer(int64_t{1} << 30).integer(0);
  call.integer(out_offset).integer(int64_t{1} << 30).integer(-18);
  for (const auto& values : inputs) call.in(DType::Int8, {n}, values);
  return call;
}

TEST(AddNS8, AddsTheScaledInputsAndTflmsOffsetTerm) {
  // Zero point 0: a plain sum, saturated.
  EXPECT_EQ(add_n_s8(0, 0, {{1, 100, -100}, {2, 100, -100}}).run<int8_t>("add_n_s8"), (std::vector<int8_t>{3, 127, -128}));
  // Input zero point -3 (offset 3), output zero point 5: TFLM starts its sum from the scaled
  // offset itself, so (3) + (10 + 3) + (20 + 3) + 5 = 44.
  EXPECT_EQ(add_n_s8(3, 5, {{10}, {20}}).run<int8_t>("add_n_s8"), (std::vector<int8_t>{44}));
}

TEST(AddNCheck, RefusesBadArguments) {
  NodeCall one_input;
  one_input.out(DType::Float32, {2}).in<float>(DType::Float32, {2}, {});
  EXPECT_NE(one_input.refusal("add_n_f32").find("two inputs"), std::string::npos);

  NodeCall shapes;
  shapes.out(DType::Float32, {2}).in<float>(DType::Float32, {2}, {}).in<float>(DType::Float32, {1}, {});
  EXPECT_NE(shapes.refusal("add_n_f32").find("shapes differ"), std::string::npos);

  EXPECT_EQ(add_n_s8(3, 5, {{1}, {2}}).refusal("add_n_s8"), "");
  EXPECT_NE(add_n_s8(129, 5, {{1}, {2}}).refusal("add_n_s8"), "");
  EXPECT_NE(add_n_s8(3, 128, {{1}, {2}}).refusal("add_n_s8"), "");
}

TEST(Logical, AndOrBroadcastAndReadAnyNonZeroByteAsTrue) {
  // A [2, 2] against B [2].
  NodeCall call;
  call.in<uint8_t>(DType::Bool, {2, 2}, {0, 1, 2, 0}).in<uint8_t>(DType::Bool, {2}, {1, 3}).out(DType::Bool, {2, 2});
  EXPECT_EQ(call.run<uint8_t>("logical_and_bool"), (std::vector<uint8_t>{0, 1, 1, 0}));
  NodeCall falses;
  falses.in<uint8_t>(DType::Bool, {2, 2}, {0, 1, 2, 0}).in<uint8_t>(DType::Bool, {2}, {0, 0}).out(DType::Bool, {2, 2});
  EXPECT_EQ(falses.run<uint8_t>("logical_or_bool"), (std::vector<uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(falses.run<uint8_t>("logical_and_bool"), (std::vector<uint8_t>{0, 0, 0, 0}));
}

TEST(Logical, NotInvertsEveryByte) {
  NodeCall call;
  call.in<uint8_t>(DType::Bool, {2, 2}, {0, 1, 255, 0}).out(DType::Bool, {4});
  EXPECT_EQ(call.run<uint8_t>("logical_not_bool"), (std::vector<uint8_t>{1, 0, 0, 1}));
}

TEST(LogicalCheck, RefusesNonBoolOperands) {
  NodeCall ints;
  ints.in<int8_t>(DType::Int8, {2}, {}).in<int8_t>(DType::Int8, {2}, {}).out(DType::Bool, {2});
  EXPECT_NE(ints.refusal("logical_or_bool").find("dtype"), std::string::npos);
  NodeCall sizes;
  sizes.in<uint8_t>(DType::Bool, {3}, {}).out(DType::Bool, {2});
  EXPECT_NE(sizes.refusal("logical_not_bool").find("sizes differ"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
