// HARD_SWISH, ELU, ABS and RSQRT on int8 (tables computed with TFLM's arithmetic), ABS on
// int16 (abs_s16), and the lookup_s8 kernel itself.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "activation_harness.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tools::ArgDef;
using tools::DType;

TEST(LookupS8, IndexesTheTableByValuePlus128) {
  OneNode m;
  const uint32_t x = m.input(DType::Int8, {4});
  const uint32_t y = m.output(DType::Int8, {2, 2});
  std::vector<int8_t> table(256);
  for (int i = 0; i < 256; ++i) table[static_cast<size_t>(i)] = static_cast<int8_t>(127 - i);  // -1 - v
  const uint32_t t = m.constant<int8_t>(DType::Int8, {256}, table);
  m.node("lookup_s8", {ArgDef::input(x), ArgDef::output(y), ArgDef::input(t)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input<int8_t>(0, {-128, 0, 127, 5});
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<int8_t>(0), (std::vector<int8_t>{127, -1, -128, -6}));
}

TEST(HardSwishS8, ApproximatesXTimesRelu6OfXPlus3Over6) {
  // Scale 0.05 both sides: 1.0 -> 0.667 (13.3 -> 13), -1.0 -> -0.333 (-6.7 -> -7), 2.0 -> 1.667
  // (33.3 -> 33), -4.0 -> 0, 4.0 -> 4.0, 0 -> 0, 6.35 -> 6.35.
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::HARD_SWISH, int8(0.05f, 0), int8(0.05f, 0), {20, -20, 40, -80, 80, 0, 127}),
            (std::vector<int8_t>{13, -7, 33, 0, 80, 0, 127}));
}

TEST(HardSwishS8, AddsTheOutputZeroPointAndSaturates) {
  // Output scale 0.025, zero point 100: 4.0 -> 160 + 100 saturates; -4.0 -> 100; 1.0 -> 26.7 -> 27 + 100;
  // -1.0 -> -13.3 -> -13 + 100.
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::HARD_SWISH, int8(0.05f, 0), int8(0.025f, 100), {80, -80, 20, -20}),
            (std::vector<int8_t>{127, 100, 127, 87}));
}

TEST(EluS8, IsExpMinusOneBelowZeroRoundedInFloat) {
  // Scale 0.1: -1.0 -> -0.632 (-6.3 -> -6), -0.1 -> -0.095 (-0.95 -> -1), -12.8 -> -1.0 (-10).
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::ELU, int8(0.1f, 0), int8(0.1f, 0), {-10, -1, -128, 10, 0}),
            (std::vector<int8_t>{-6, -1, -10, 10, 0}));
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::ELU, int8(0.1f, 0), int8(0.1f, 30), {127, -10}), (std::vector<int8_t>{127, 24}));
}

TEST(AbsS8, RescalesOnlyWhenTheScalesDiffer) {
  // in 0.5 / zero point -5 -> out 0.25 / -128: |-25 + 5| = 20 -> 40 - 128; 127 -> 132 -> 264 - 128 saturates.
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::ABS, int8(0.5f, -5), int8(0.25f, -128), {-25, 127, -5}),
            (std::vector<int8_t>{-88, 127, -128}));
  // Same quantization: |x + 5| - 5.
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::ABS, int8(0.5f, -5), int8(0.5f, -5), {-128, 10, -20}),
            (std::vector<int8_t>{118, 10, 10}));
}

TEST(AbsS16, RescalesAndSaturates) {
  EXPECT_EQ(run_unary<int16_t>(BuiltinOperator::ABS, int16(1.0f / 1024), int16(1.0f / 2048), {-100, 100, -32768}),
            (std::vector<int16_t>{200, 200, 32767}));
  EXPECT_EQ(run_unary<int16_t>(BuiltinOperator::ABS, int16(1.0f / 1024), int16(1.0f / 1024), {-7, -32768}),
            (std::vector<int16_t>{7, 32767}));
}

TEST(RsqrtS8, IsOneOverSqrtInOutputUnits) {
  // in 0.25, out 1/64: 1.0 -> 64, 4.0 -> 32, 16.0 -> 16, 0.25 -> 2 (128, saturated), and the
  // zero point itself gives 127.
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::RSQRT, int8(0.25f, 0), int8(1.0f / 64, 0), {4, 16, 64, 1, 0}),
            (std::vector<int8_t>{64, 32, 16, 127, 127}));
  // Zero points: x - (-128) and + (-128).
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::RSQRT, int8(0.25f, -128), int8(1.0f / 64, -128), {-124, -112}),
            (std::vector<int8_t>{-64, -96}));
}

}  // namespace
}  // namespace grt::test
