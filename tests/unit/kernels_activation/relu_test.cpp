// RELU, RELU6 and RELU_N1_TO_1: int8 tables and relu_s16 requantize with TFLM's double
// rounding and clamp to the activation's range in output units; TFLM's RELU6 clamps in the
// input's quantization instead; float32 clamps and lets NaN through.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "activation_harness.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;

TEST(ReluS8, RescalesToTheOutputAndClampsAtItsZeroPoint) {
  // in 0.5 -> out 0.25 (x 2), output zero point -10: -3 -> -6 - 10 -> clamped to -10; 127 saturates.
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::RELU, int8(0.5f, 0), int8(0.25f, -10), {-3, 3, 0, 127}),
            (std::vector<int8_t>{-10, -4, -10, 127}));
}

TEST(ReluS8, RoundsTwiceAsTflmDoes) {
  // x 0.25 is multiplier 2^30 with a right shift of 1: 2 -> 0.5 -> 1 and 6 -> 1.5 -> 2 (half away
  // from zero), but 5 -> 1.25 gives 2 (the doubling high multiply rounds 2.5 to 3 first) and
  // 1 -> 0.25 gives 1 (0.5 after the first step).
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::RELU, int8(1.0f, 0), int8(4.0f, 0), {2, 6, 5, 1, -8}),
            (std::vector<int8_t>{1, 2, 2, 1, 0}));
}

TEST(ReluN1To1S8, ClampsToMinusOneAndOneInOutputUnits) {
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::RELU_N1_TO_1, int8(0.1f, 0), int8(0.1f, 0), {20, -20, 5, -3}),
            (std::vector<int8_t>{10, -10, 5, -3}));
  // Output zero point 3: the range is [3 - 10, 3 + 10].
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::RELU_N1_TO_1, int8(0.1f, 0), int8(0.1f, 3), {20, -20, 5}),
            (std::vector<int8_t>{13, -7, 8}));
}

TEST(Relu6S8, ClampsInTheInputQuantizationAndIgnoresTheOutputs) {
  // Input scale 0.1, zero point 5: six is round(6 / 0.1) + 5 = 65, zero is 5.
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::RELU6, int8(0.1f, 5), int8(0.3f, -100), {100, 0, 30, 4, 65, -128}),
            (std::vector<int8_t>{65, 5, 30, 5, 65, 5}));
}

TEST(ReluS16, RescalesAndSaturates) {
  EXPECT_EQ(run_unary<int16_t>(BuiltinOperator::RELU, int16(1.0f / 1024), int16(1.0f / 2048), {100, -5, 20000, 0}),
            (std::vector<int16_t>{200, 0, 32767, 0}));
}

TEST(Relu6S16, ClampsToSixInInputUnits) {
  // six = 6 * 1024.
  EXPECT_EQ(run_unary<int16_t>(BuiltinOperator::RELU6, int16(1.0f / 1024), int16(1.0f / 4096), {7000, -3, 6000, 32767}),
            (std::vector<int16_t>{6144, 0, 6000, 6144}));
}

TEST(ReluN1To1S16, ClampsToOneInOutputUnits) {
  EXPECT_EQ(run_unary<int16_t>(BuiltinOperator::RELU_N1_TO_1, int16(1.0f / 1024), int16(1.0f / 1024), {2000, -2000, 7}),
            (std::vector<int16_t>{1024, -1024, 7}));
}

TEST(ReluF32, ClampsEachVariantAndPassesNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(run_unary<float>(BuiltinOperator::RELU, float32(), float32(), {-1.0f, 0.5f, inf, -inf}),
            (std::vector<float>{0.0f, 0.5f, inf, 0.0f}));
  EXPECT_EQ(run_unary<float>(BuiltinOperator::RELU6, float32(), float32(), {-1.0f, 3.0f, 7.0f}), (std::vector<float>{0.0f, 3.0f, 6.0f}));
  EXPECT_EQ(run_unary<float>(BuiltinOperator::RELU_N1_TO_1, float32(), float32(), {-2.0f, 0.5f, 2.0f}),
            (std::vector<float>{-1.0f, 0.5f, 1.0f}));
  const std::vector<float> nan = run_unary<float>(BuiltinOperator::RELU6, float32(), float32(), {std::nanf("")});
  ASSERT_EQ(nan.size(), 1u);
  EXPECT_TRUE(std::isnan(nan[0]));
}

}  // namespace
}  // namespace grt::test
