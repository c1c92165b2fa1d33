// softmax_s8 / softmax_f32: hand-checked rows, probabilities that sum to ~1, and refusals.
#include <gtest/gtest.h>

#include <cmath>

#include "dense_harness.h"

namespace grt::test::dense {
namespace {

// Input scale 1/16 with beta 1: beta * scale * 2^26 = 2^22 = 0.5 * 2^23, so TFLM's
// PreprocessSoftmaxScaling gives multiplier 2^30, left shift 23, and CalculateInputRadius
// gives floor(31 * 2^26 / 2^23) = 248.
constexpr int64_t kMultiplier = int64_t{1} << 30;
constexpr int64_t kLeftShift = 23;
constexpr int64_t kDiffMin = -248;

Outcome softmax_s8(const std::vector<int8_t>& input, std::vector<int64_t> shape, int64_t multiplier = kMultiplier,
                   int64_t left_shift = kLeftShift, int64_t diff_min = kDiffMin, std::vector<int64_t> out_shape = {}) {
  OneNode m;
  const uint32_t x = m.input("x", DType::Int8, shape);
  const uint32_t y = m.output("y", DType::Int8, out_shape.empty() ? shape : out_shape);
  m.node("softmax_s8", {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(multiplier), ArgDef::integer(left_shift),
                        ArgDef::integer(diff_min)});
  return plan_and_run(m.model, {bytes_of(input)});
}

std::vector<int8_t> run_s8(const std::vector<int8_t>& input, std::vector<int64_t> shape) {
  const Outcome o = softmax_s8(input, std::move(shape));
  EXPECT_EQ(o.run, GRT_OK) << o.message;
  return o.outputs.empty() ? std::vector<int8_t>{} : values_of<int8_t>(o.outputs[0]);
}

TEST(SoftmaxS8, EqualInputsShareTheProbability) {
  // Output scale 1/256, zero point -128: p = (q + 128) / 256.
  EXPECT_EQ(run_s8({5, 5}, {1, 2}), (std::vector<int8_t>{0, 0}));             // 0.5
  EXPECT_EQ(run_s8({-7, -7, -7, -7}, {1, 4}), (std::vector<int8_t>{-64, -64, -64, -64}));  // 0.25
}

TEST(SoftmaxS8, SingleClassSaturatesAtOne) { EXPECT_EQ(run_s8({-100}, {1, 1}), (std::vector<int8_t>{127})); }

TEST(SoftmaxS8, DifferencesBelowDiffMinGiveZero) {
  // -128 - 127 = -255 < -248: exactly the output's zero, and the max takes everything.
  EXPECT_EQ(run_s8({127, -128}, {1, 2}), (std::vector<int8_t>{127, -128}));
}

TEST(SoftmaxS8, RowsAreIndependentAndSumToOne) {
  const std::vector<int8_t> input = {0, 16, 32, -16, 10, 10, 10, 10, -50, 0, 20, 40};
  const std::vector<int8_t> out = run_s8(input, {3, 4});
  ASSERT_EQ(out.size(), input.size());
  for (int row = 0; row < 3; ++row) {
    double exps[4], sum = 0.0;
    for (int c = 0; c < 4; ++c) sum += exps[c] = std::exp(input[row * 4 + c] / 16.0);
    double total = 0.0;
    for (int c = 0; c < 4; ++c) {
      const double p = (out[row * 4 + c] + 128) / 256.0;
      EXPECT_NEAR(p, exps[c] / sum, 1.5 / 256) << "row " << row << " class " << c;
      total += p;
    }
    EXPECT_NEAR(total, 1.0, 4.0 / 256) << "row " << row;
  }
  // Row 1 is uniform; ordering is kept within rows.
  EXPECT_EQ(out[4], -64);
  EXPECT_LT(out[3], out[0]);
  EXPECT_LT(out[0], out[1]);
  EXPECT_LT(out[1], out[2]);
}

TEST(SoftmaxS8, RefusesBadArguments) {
  Outcome o = softmax_s8({1, 2}, {1, 2}, kMultiplier, kLeftShift, kDiffMin, {2, 1});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("shape"), std::string::npos) << o.message;
  o = softmax_s8({1, 2}, {1, 2}, kMultiplier, 32);
  EXPECT_NE(o.message.find("argument 3 is out of range"), std::string::npos) << o.message;
  o = softmax_s8({1, 2}, {1, 2}, -1);
  EXPECT_NE(o.message.find("argument 2 is out of range"), std::string::npos) << o.message;
  o = softmax_s8({1, 2}, {1, 2}, kMultiplier, kLeftShift, 1);
  EXPECT_NE(o.message.find("argument 4 is out of range"), std::string::npos) << o.message;

  OneNode m;  // float tensors where int8 is expected
  const uint32_t x = m.input("x", DType::Float32, {1, 2});
  const uint32_t y = m.output("y", DType::Float32, {1, 2});
  m.node("softmax_s8", {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(kMultiplier), ArgDef::integer(kLeftShift),
                        ArgDef::integer(kDiffMin)});
  o = plan_and_run(m.model, {});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("argument 0 has the wrong dtype"), std::string::npos) << o.message;
}

Outcome softmax_f32(const std::vector<float>& input, std::vector<int64_t> shape, double beta) {
  OneNode m;
  const uint32_t x = m.input("x", DType::Float32, shape);
  const uint32_t y = m.output("y", DType::Float32, shape);
  m.node("softmax_f32", {ArgDef::input(x), ArgDef::output(y), ArgDef::real(beta)});
  return plan_and_run(m.model, {bytes_of(input)});
}

TEST(SoftmaxF32, ComputesProbabilitiesPerRow) {
  const std::vector<float> input = {1.0f, 1.0f, 0.0f, 2.0f, -1.0f, 3.0f};
  const Outcome o = softmax_f32(input, {3, 2}, 0.5);
  ASSERT_EQ(o.run, GRT_OK) << o.message;
  const std::vector<float> out = values_of<float>(o.outputs[0]);
  for (int row = 0; row < 3; ++row) {
    const double a = std::exp(0.5 * input[row * 2]), b = std::exp(0.5 * input[row * 2 + 1]);
    EXPECT_NEAR(out[row * 2], a / (a + b), 1e-6);
    EXPECT_NEAR(out[row * 2 + 1], b / (a + b), 1e-6);
    EXPECT_NEAR(out[row * 2] + out[row * 2 + 1], 1.0, 1e-6);
  }
  EXPECT_EQ(out[0], 0.5f);
}

TEST(SoftmaxF32, LargeInputsDoNotOverflow) {
  const Outcome o = softmax_f32({1000.0f, 1000.0f, -1000.0f}, {1, 3}, 1.0);
  ASSERT_EQ(o.run, GRT_OK) << o.message;
  EXPECT_EQ(values_of<float>(o.outputs[0]), (std::vector<float>{0.5f, 0.5f, 0.0f}));
}

TEST(SoftmaxF32, RefusesBadArguments) {
  OneNode m;
  const uint32_t x = m.input("x", DType::Float32, {1, 2});
  const uint32_t y = m.output("y", DType::Float32, {1, 3});
  m.node("softmax_f32", {ArgDef::input(x), ArgDef::output(y), ArgDef::real(1.0)});
  Outcome o = plan_and_run(m.model, {});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("shape"), std::string::npos) << o.message;
  m.model.outputs.clear();
  m.model.tensors[y].shape = {1, 2};
  m.model.outputs.push_back(y);
  m.model.nodes[0].args[2] = ArgDef::integer(1);
  o = plan_and_run(m.model, {});
  EXPECT_NE(o.message.find("argument 2 is not a float"), std::string::npos) << o.message;
}

}  // namespace
}  // namespace grt::test::dense
