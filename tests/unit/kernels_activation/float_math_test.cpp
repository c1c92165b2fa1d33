// The float32 elementwise math: each kernel against the <math.h> expression TFLM's reference
// evaluates, ROUND's half-to-even, HARD_SWISH and ELU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "activation_harness.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;

std::vector<float> run_float(BuiltinOperator op, const std::vector<float>& in) { return run_unary<float>(op, float32(), float32(), in); }

// Each output equals f(input) exactly (same float function, same order of operations).
template <typename F>
void expect_elementwise(BuiltinOperator op, const std::vector<float>& in, F f) {
  const std::vector<float> out = run_float(op, in);
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], f(in[i])) << "input " << in[i];
}

TEST(FloatMath, ExpLogSqrtRsqrt) {
  expect_elementwise(BuiltinOperator::EXP, {-3.0f, 0.0f, 0.5f, 2.9f}, [](float x) { return std::exp(x); });
  expect_elementwise(BuiltinOperator::LOG, {0.01f, 1.0f, 2.5f, 10.0f}, [](float x) { return std::log(x); });
  expect_elementwise(BuiltinOperator::SQRT, {0.0f, 2.0f, 9.0f}, [](float x) { return std::sqrt(x); });
  expect_elementwise(BuiltinOperator::RSQRT, {0.01f, 4.0f, 7.0f}, [](float x) { return 1.0f / std::sqrt(x); });
}

TEST(FloatMath, NegAbsSquareSinCos) {
  expect_elementwise(BuiltinOperator::NEG, {-1.5f, 0.0f, 3.0f}, [](float x) { return -x; });
  expect_elementwise(BuiltinOperator::ABS, {-1.5f, -0.0f, 3.0f}, [](float x) { return std::fabs(x); });
  expect_elementwise(BuiltinOperator::SQUARE, {-1.5f, 0.0f, 3.0f}, [](float x) { return x * x; });
  expect_elementwise(BuiltinOperator::SIN, {-1.5f, 0.0f, 3.0f}, [](float x) { return std::sin(x); });
  expect_elementwise(BuiltinOperator::COS, {-1.5f, 0.0f, 3.0f}, [](float x) { return std::cos(x); });
}

TEST(FloatMath, FloorCeilAndRoundHalfToEven) {
  EXPECT_EQ(run_float(BuiltinOperator::FLOOR, {-1.5f, 1.5f, 2.0f}), (std::vector<float>{-2.0f, 1.0f, 2.0f}));
  EXPECT_EQ(run_float(BuiltinOperator::CEIL, {-1.5f, 1.5f, 2.0f}), (std::vector<float>{-1.0f, 2.0f, 2.0f}));
  EXPECT_EQ(run_float(BuiltinOperator::ROUND, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4f, -2.6f, 1e9f}),
            (std::vector<float>{0.0f, 2.0f, 2.0f, -0.0f, -2.0f, -2.0f, 2.0f, -3.0f, 1e9f}));
}

TEST(FloatMath, HardSwishAndElu) {
  EXPECT_EQ(run_float(BuiltinOperator::HARD_SWISH, {-4.0f, -3.0f, 0.0f, 1.5f, 3.0f, 5.0f}),
            (std::vector<float>{-0.0f, -0.0f, 0.0f, 1.5f * 4.5f / 6.0f, 3.0f, 5.0f}));
  expect_elementwise(BuiltinOperator::ELU, {-2.0f, -0.1f, 0.0f, 1.25f}, [](float x) { return x < 0.0f ? std::expm1(x) : x; });
}

}  // namespace
}  // namespace grt::test
