// PAD, TRANSPOSE and STRIDED_SLICE: element-size generic copies, their edge cases, and
// refusals of arguments that would read or write out of bounds.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <numeric>
#include <vector>

#include "one_node.h"
#include "run_one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

template <typename T>
std::vector<T> iota_values(size_t n, T start) {
  std::vector<T> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

// Runs a one-input, one-output node whose other arguments `extra` builds on the model.
template <typename T, typename Extra>
std::vector<T> run_unary(const char* kernel, DType dtype, std::vector<int64_t> in_shape, const std::vector<T>& in,
                         std::vector<int64_t> out_shape, Extra extra) {
  OneNode m;
  const uint32_t x = m.input(dtype, std::move(in_shape));
  const uint32_t y = m.output(dtype, std::move(out_shape));
  std::vector<ArgDef> args = {ArgDef::input(x), ArgDef::output(y)};
  extra(m, args);
  m.node(kernel, args);
  return run_one_input<T>(m, in);
}

template <typename Extra>
std::string refused(const char* kernel, DType in_dtype, std::vector<int64_t> in_shape, DType out_dtype,
                    std::vector<int64_t> out_shape, Extra extra) {
  OneNode m;
  const uint32_t x = m.input(in_dtype, std::move(in_shape));
  const uint32_t y = m.output(out_dtype, std::move(out_shape));
  std::vector<ArgDef> args = {ArgDef::input(x), ArgDef::output(y)};
  extra(m, args);
  m.node(kernel, args);
  return refusal(m);
}

// ---- pad ----

auto pad_args(std::vector<int32_t> before, int64_t value) {
  return [before, value](OneNode& m, std::vector<ArgDef>& args) {
    args.push_back(ArgDef::int_array(m.ints(before)));
    args.push_back(ArgDef::integer(value));
  };
}

TEST(Pad, PadsEveryDimensionOfAnInt8Tensor) {
  // [2, 2] -> [3, 5]: one row in front, one column in front and two after.
  EXPECT_EQ(run_unary<int8_t>("pad", DType::Int8, {2, 2}, {1, 2, 3, 4}, {3, 5}, pad_args({1, 1}, -7)),
            (std::vector<int8_t>{-7, -7, -7, -7, -7, -7, 1, 2, -7, -7, -7, 3, 4, -7, -7}));
}

TEST(Pad, PadsInt16AsSeanetDoes) {
  // [1, 1, 2, 2] -> [1, 1, 5, 2]: three rows in front (TFLM pads int16 with 0 by default).
  EXPECT_EQ(run_unary<int16_t>("pad", DType::Int16, {1, 1, 2, 2}, {-32768, 32767, 5, 6}, {1, 1, 5, 2},
                               pad_args({0, 0, 3, 0}, 0)),
            (std::vector<int16_t>{0, 0, 0, 0, 0, 0, -32768, 32767, 5, 6}));
}

TEST(Pad, PadsFloatWithItsBitPattern) {
  const int64_t bits = std::bit_cast<int32_t>(-1.5f);
  EXPECT_EQ(run_unary<float>("pad", DType::Float32, {1}, {2.0f}, {3}, pad_args({1}, bits)),
            (std::vector<float>{-1.5f, 2.0f, -1.5f}));
}

TEST(Pad, FillsWhenTheInputIsEmptyAndCopiesScalars) {
  EXPECT_EQ(run_unary<int8_t>("pad", DType::Int8, {0, 2}, {}, {2, 2}, pad_args({1, 0}, 9)), (std::vector<int8_t>{9, 9, 9, 9}));
  EXPECT_EQ(run_unary<int8_t>("pad", DType::Int8, {}, {5}, {}, pad_args({}, 9)), (std::vector<int8_t>{5}));
}

TEST(PadCheck, RefusesPaddingThatDoesNotFit) {
  EXPECT_NE(refused("pad", DType::Int8, {2, 2}, DType::Int8, {3, 3}, pad_args({1, 2}, 0)).find("fit"), std::string::npos);
  EXPECT_NE(refused("pad", DType::Int8, {2, 2}, DType::Int8, {3, 3}, pad_args({-1, 0}, 0)).find("negative"),
            std::string::npos);
  EXPECT_NE(refused("pad", DType::Int8, {2, 2}, DType::Int8, {3, 3}, pad_args({1}, 0)).find("per dimension"),
            std::string::npos);
  EXPECT_NE(refused("pad", DType::Int8, {2, 2}, DType::Int8, {3, 3, 1}, pad_args({1, 1}, 0)).find("rank"),
            std::string::npos);
  EXPECT_NE(refused("pad", DType::Int8, {2, 2}, DType::Int16, {3, 3}, pad_args({1, 1}, 0)).find("dtype"),
            std::string::npos);
  EXPECT_NE(refused("pad", DType::Int8, {2, 2}, DType::Int8, {3, 3}, pad_args({1, 1}, 128)).find("range"),
            std::string::npos);
  EXPECT_EQ(refused("pad", DType::Int8, {2, 2}, DType::Int8, {3, 3}, pad_args({1, 1}, -128)), "");
}

// ---- transpose ----

auto permutation(std::vector<int32_t> perm) {
  return [perm](OneNode& m, std::vector<ArgDef>& args) { args.push_back(ArgDef::int_array(m.ints(perm))); };
}

TEST(Transpose, SwapsTwoDimensions) {
  EXPECT_EQ(run_unary<int8_t>("transpose", DType::Int8, {2, 3}, {1, 2, 3, 4, 5, 6}, {3, 2}, permutation({1, 0})),
            (std::vector<int8_t>{1, 4, 2, 5, 3, 6}));
}

TEST(Transpose, MovesChannelsLastAsMobilenetDoes) {
  // NCHW [1, 2, 2, 2] -> NHWC [1, 2, 2, 2] with permutation {0, 2, 3, 1}.
  EXPECT_EQ(run_unary<int8_t>("transpose", DType::Int8, {1, 2, 2, 2}, iota_values<int8_t>(8, 0), {1, 2, 2, 2},
                              permutation({0, 2, 3, 1})),
            (std::vector<int8_t>{0, 4, 1, 5, 2, 6, 3, 7}));
}

TEST(Transpose, HandlesEveryElementSize) {
  EXPECT_EQ(run_unary<int16_t>("transpose", DType::Int16, {3, 1, 2}, {1, 2, 3, 4, 5, 6}, {2, 3, 1}, permutation({2, 0, 1})),
            (std::vector<int16_t>{1, 3, 5, 2, 4, 6}));
  EXPECT_EQ(run_unary<float>("transpose", DType::Float32, {2, 2}, {1.0f, 2.0f, 3.0f, 4.0f}, {2, 2}, permutation({1, 0})),
            (std::vector<float>{1.0f, 3.0f, 2.0f, 4.0f}));
  EXPECT_EQ(run_unary<int64_t>("transpose", DType::Int64, {1, 2}, {-1, INT64_MAX}, {2, 1}, permutation({1, 0})),
            (std::vector<int64_t>{-1, INT64_MAX}));
}

TEST(Transpose, IdentityAndEmpty) {
  EXPECT_EQ(run_unary<int8_t>("transpose", DType::Int8, {2, 2}, {1, 2, 3, 4}, {2, 2}, permutation({0, 1})),
            (std::vector<int8_t>{1, 2, 3, 4}));
  EXPECT_TRUE(run_unary<int8_t>("transpose", DType::Int8, {0, 3}, {}, {3, 0}, permutation({1, 0})).empty());
}

TEST(TransposeCheck, RefusesWhatIsNotAPermutation) {
  EXPECT_NE(refused("transpose", DType::Int8, {2, 3}, DType::Int8, {3, 2}, permutation({1, 1})).find("not a permutation"),
            std::string::npos);
  EXPECT_NE(refused("transpose", DType::Int8, {2, 3}, DType::Int8, {3, 2}, permutation({1, 2})).find("not a permutation"),
            std::string::npos);
  EXPECT_NE(refused("transpose", DType::Int8, {2, 3}, DType::Int8, {3, 2}, permutation({-1, 0})).find("not a permutation"),
            std::string::npos);
  EXPECT_NE(refused("transpose", DType::Int8, {2, 3}, DType::Int8, {3, 2}, permutation({1})).find("per dimension"),
            std::string::npos);
  EXPECT_NE(refused("transpose", DType::Int8, {2, 3}, DType::Int8, {2, 3}, permutation({1, 0})).find("permuted"),
            std::string::npos);
  EXPECT_NE(refused("transpose", DType::Int8, {2, 3}, DType::UInt8, {3, 2}, permutation({1, 0})).find("dtype"),
            std::string::npos);
}

// ---- strided_slice ----

auto walk(std::vector<int32_t> begin, std::vector<int32_t> stride, std::vector<int32_t> count) {
  return [begin, stride, count](OneNode& m, std::vector<ArgDef>& args) {
    args.push_back(ArgDef::int_array(m.ints(begin)));
    args.push_back(ArgDef::int_array(m.ints(stride)));
    args.push_back(ArgDef::int_array(m.ints(count)));
  };
}

TEST(StridedSlice, TakesAContiguousBlock) {
  // [3, 4][1:3, 1:3]
  EXPECT_EQ(run_unary<int16_t>("strided_slice", DType::Int16, {3, 4}, iota_values<int16_t>(12, 0), {2, 2},
                               walk({1, 1}, {1, 1}, {2, 2})),
            (std::vector<int16_t>{5, 6, 9, 10}));
}

TEST(StridedSlice, WalksBackwardsAndWithSteps) {
  // [2, 5][::-1, 4:0:-2] reads columns 4 and 2 of rows 1 then 0.
  EXPECT_EQ(run_unary<int8_t>("strided_slice", DType::Int8, {2, 5}, iota_values<int8_t>(10, 0), {2, 2},
                              walk({1, 4}, {-1, -2}, {2, 2})),
            (std::vector<int8_t>{9, 7, 4, 2}));
}

TEST(StridedSlice, ShrunkAxesVanishFromTheOutput) {
  // [2, 3, 2][1, :, 0] -> [3]
  EXPECT_EQ(run_unary<int16_t>("strided_slice", DType::Int16, {2, 3, 2}, iota_values<int16_t>(12, 0), {3},
                               walk({1, 0, 0}, {1, 1, 1}, {1, 3, 1})),
            (std::vector<int16_t>{6, 8, 10}));
}

TEST(StridedSlice, EmptyWalkWritesNothing) {
  EXPECT_TRUE(run_unary<int16_t>("strided_slice", DType::Int16, {2, 3}, iota_values<int16_t>(6, 0), {0, 3},
                                 walk({5, 0}, {1, 1}, {0, 3}))
                  .empty());
}

TEST(StridedSliceCheck, RefusesReadsPastTheInput) {
  const auto message = [](std::vector<int32_t> begin, std::vector<int32_t> stride, std::vector<int32_t> count,
                          std::vector<int64_t> out_shape) {
    return refused("strided_slice", DType::Int16, {3, 4}, DType::Int16, std::move(out_shape), walk(begin, stride, count));
  };
  EXPECT_NE(message({0, 3}, {1, 1}, {3, 2}, {3, 2}).find("past the input"), std::string::npos);
  EXPECT_NE(message({0, 4}, {1, 1}, {3, 1}, {3, 1}).find("past the input"), std::string::npos);
  EXPECT_NE(message({0, 1}, {1, -1}, {3, 3}, {3, 3}).find("past the input"), std::string::npos);
  EXPECT_NE(message({-1, 0}, {1, 1}, {1, 4}, {1, 4}).find("past the input"), std::string::npos);
  EXPECT_EQ(message({0, 0}, {2, 1}, {2, 4}, {2, 4}), "");  // rows 0 and 2: inside
  EXPECT_NE(message({0, 0}, {0, 1}, {1, 4}, {1, 4}).find("stride is zero"), std::string::npos);
  EXPECT_NE(message({0, 0}, {1, 1}, {-1, 4}, {1, 4}).find("negative"), std::string::npos);
  EXPECT_NE(message({0, 0}, {1, 1}, {2, 4}, {3, 4}).find("output size"), std::string::npos);
  EXPECT_NE(message({0, 0}, {1, 1}, {2}, {2, 4}).find("entry per input dimension"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
