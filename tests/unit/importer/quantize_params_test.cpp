// The fixed-point parameters must equal TFLite's bit for bit (kernels match TFLM's outputs
// byte for byte), including its rounding corner cases.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "graphrt/tools/quantize_params.h"

namespace grt::tools {
namespace {

void expect_multiplier(double real, int32_t multiplier, int shift) {
  const FixedPointMultiplier m = quantize_multiplier(real);
  EXPECT_EQ(m.multiplier, multiplier) << real;
  EXPECT_EQ(m.shift, shift) << real;
}

TEST(QuantizeMultiplier, ExactPowersAndFractions) {
  expect_multiplier(0.0, 0, 0);
  expect_multiplier(0.5, 1 << 30, 0);
  expect_multiplier(1.0, 1 << 30, 1);
  expect_multiplier(0.75, 0x60000000, 0);
  expect_multiplier(3.0, 0x60000000, 2);
  expect_multiplier(-0.5, -(1 << 30), 0);
  expect_multiplier(std::ldexp(1.0, -20), 1 << 30, -19);
}

TEST(QuantizeMultiplier, RoundsHalfAwayFromZero) {
  // 0.5 + 2^-32 is 2^30 + 0.5 in Q31: half-to-even would give 2^30.
  expect_multiplier(0.5 + std::ldexp(1.0, -32), (1 << 30) + 1, 0);
  expect_multiplier(-(0.5 + std::ldexp(1.0, -32)), -((1 << 30) + 1), 0);
}

TEST(QuantizeMultiplier, FractionRoundingUpToOneMovesToTheNextExponent) {
  expect_multiplier(1.0 - std::ldexp(1.0, -34), 1 << 30, 1);
}

TEST(QuantizeMultiplier, ShiftsBeyondThirtyOneFlushToZero) {
  expect_multiplier(std::ldexp(1.0, -32), 1 << 30, -31);  // the last representable shift
  expect_multiplier(std::ldexp(1.0, -33), 0, 0);
  expect_multiplier(1e-20, 0, 0);
}

TEST(QuantizedActivationRange, ReluFamilyRoundsAndClamps) {
  int32_t lo = 0;
  int32_t hi = 0;
  quantized_activation_range(0, 0.5f, -10, -128, 127, &lo, &hi);
  EXPECT_EQ(lo, -128);
  EXPECT_EQ(hi, 127);
  quantized_activation_range(1, 0.5f, -10, -128, 127, &lo, &hi);
  EXPECT_EQ(lo, -10);
  EXPECT_EQ(hi, 127);
  quantized_activation_range(3, 0.5f, -10, -128, 127, &lo, &hi);
  EXPECT_EQ(lo, -10);
  EXPECT_EQ(hi, 2);
  quantized_activation_range(2, 0.5f, -10, -128, 127, &lo, &hi);
  EXPECT_EQ(lo, -12);
  EXPECT_EQ(hi, -8);
  // +-0.5 rounds away from zero: half-to-even would give [zp, zp].
  quantized_activation_range(2, 2.0f, 5, -128, 127, &lo, &hi);
  EXPECT_EQ(lo, 4);
  EXPECT_EQ(hi, 6);
  // Clamped to the type range.
  quantized_activation_range(3, 0.01f, 0, -128, 127, &lo, &hi);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 127);
  quantized_activation_range(1, 0.1f, -200, -128, 127, &lo, &hi);
  EXPECT_EQ(lo, -128);
  // TANH / SIGN_BIT are not clamps.
  quantized_activation_range(4, 0.5f, 0, -32768, 32767, &lo, &hi);
  EXPECT_EQ(lo, -32768);
  EXPECT_EQ(hi, 32767);
}

TEST(QuantizedActivationRange, TinyScaleSaturatesInsteadOfOverflowing) {
  int32_t lo = 0;
  int32_t hi = 0;
  quantized_activation_range(3, 1e-30f, 0, -128, 127, &lo, &hi);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 127);
}

TEST(FloatActivationRange, Ranges) {
  float lo = 0;
  float hi = 0;
  float_activation_range(0, &lo, &hi);
  EXPECT_EQ(lo, std::numeric_limits<float>::lowest());
  EXPECT_EQ(hi, std::numeric_limits<float>::max());
  float_activation_range(1, &lo, &hi);
  EXPECT_EQ(lo, 0.0f);
  EXPECT_EQ(hi, std::numeric_limits<float>::max());
  float_activation_range(2, &lo, &hi);
  EXPECT_EQ(lo, -1.0f);
  EXPECT_EQ(hi, 1.0f);
  float_activation_range(3, &lo, &hi);
  EXPECT_EQ(lo, 0.0f);
  EXPECT_EQ(hi, 6.0f);
}

}  // namespace
}  // namespace grt::tools
