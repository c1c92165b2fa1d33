// PRELU: alpha broadcast against x; int8 and int16 (int8 alpha) with TFLM's two rescalings,
// zero points and saturation; float32.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "activation_harness.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;

// x [2, 2] with a per-channel alpha [2].
OneOperator prelu_model(Operand in, Operand alpha, Operand out, std::vector<uint8_t> alpha_values) {
  OneOperator m;
  m.op = BuiltinOperator::PRELU;
  m.shape = {2, 2};
  m.in = in;
  m.out = out;
  m.constant_operand = alpha;
  m.constant_shape = {2};
  m.constant = std::move(alpha_values);
  return m;
}

TEST(PreluS8, ScalesNegativesByTheirChannelsAlpha) {
  // Scales: x 0.5, alpha 0.25 (values 1, 4: 0.25 and 1.0), y 0.5. -8 (-4.0) * 0.25 -> -2;
  // -4 (-2.0) * 1.0 -> -4; -3 (-1.5) * 0.25 = -0.375 -> -0.75 units: TFLM's rounding gives -1.
  const OneOperator m = prelu_model(int8(0.5f, 0), int8(0.25f, 0), int8(0.5f, 0), bytes_of<int8_t>({1, 4}));
  EXPECT_EQ(run_operator<int8_t>(m, {-8, -4, 6, 7}), (std::vector<int8_t>{-2, -4, 6, 7}));
  EXPECT_EQ(run_operator<int8_t>(m, {-3, 0, 0, -128}), (std::vector<int8_t>{-1, 0, 0, -128}));
}

TEST(PreluS8, AppliesZeroPointsAndSaturates) {
  // alpha zero point 2 (values 6, -2: 1.0 and -1.0); x zero point 10; y zero point -5, scale 0.25.
  // x = 0 -> -10 units * 1.0 -> -20 - 5; x = 0 in channel 1 -> +20 - 5; 127 -> 117 * 2 saturates.
  const OneOperator m = prelu_model(int8(0.5f, 10), int8(0.25f, 2), int8(0.25f, -5), bytes_of<int8_t>({6, -2}));
  EXPECT_EQ(run_operator<int8_t>(m, {0, 0, 127, 10}), (std::vector<int8_t>{-25, 15, 127, -5}));
}

TEST(PreluS16, TakesAnInt8Alpha) {
  // x, y 2^-10; alpha 0.25 (values 1, -2: 0.25, -0.5).
  const OneOperator m = prelu_model(int16(1.0f / 1024), int8(0.25f, 0), int16(1.0f / 1024), bytes_of<int8_t>({1, -2}));
  EXPECT_EQ(run_operator<int16_t>(m, {-100, -100, 50, -32768}), (std::vector<int16_t>{-25, 50, 50, 16384}));
}

TEST(PreluF32, MultipliesNegativesByAlpha) {
  const OneOperator m = prelu_model(float32(), float32(), float32(), bytes_of<float>({0.5f, -1.0f}));
  EXPECT_EQ(run_operator<float>(m, {-2.0f, -2.0f, 3.0f, 0.0f}), (std::vector<float>{-1.0f, 2.0f, 3.0f, 0.0f}));
}

}  // namespace
}  // namespace grt::test
