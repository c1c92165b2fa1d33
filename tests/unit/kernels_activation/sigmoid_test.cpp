// LOGISTIC and TANH: int8 through the importer's tables (gemmlowp's fixed point, saturation
// beyond the input radius), int16 kernels' table interpolation (power-of-two and general input
// scales; the importer refuses int16), float32 with TFLM's cutoffs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "activation_harness.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tools::ArgDef;
using tools::DType;

// Input scale 1/16: the Q4.27 rescale is exact and the radius is 15 * 2^27 / 2^24 = 120.
TEST(LogisticS8, RoundsSigmoidToSteps_Of_1_256_AroundMinus128) {
  // sigmoid(1) * 256 = 187.15 -> 187 - 128; sigmoid(-1) * 256 = 68.85 -> 69; sigmoid(3) * 256 = 243.86 -> 244.
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::LOGISTIC, int8(1.0f / 16, 0), int8(1.0f / 256, -128), {0, 16, -16, 48}),
            (std::vector<int8_t>{0, 59, -59, 116}));
}

TEST(LogisticS8, SaturatesAtTheRadiusAndRoundsIntoTheLimits) {
  // +-120 is the radius; 119 (7.44) rounds to 256 -> clamped to 127; -119 rounds to 0 -> -128.
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::LOGISTIC, int8(1.0f / 16, 0), int8(1.0f / 256, -128), {120, -120, 119, -119, 127, -128}),
            (std::vector<int8_t>{127, -128, 127, -128, 127, -128}));
}

TEST(LogisticS8, SubtractsTheInputZeroPoint) {
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::LOGISTIC, int8(1.0f / 16, 10), int8(1.0f / 256, -128), {10, 26, -6}),
            (std::vector<int8_t>{0, 59, -59}));
}

TEST(TanhS8, RoundsTanhToSteps_Of_1_128_AndIgnoresTheOutputQuantization) {
  // tanh(1) * 128 = 97.48 -> 97; tanh(0.5) * 128 = 59.15 -> 59; tanh(2.5) * 128 = 126.29 -> 126;
  // tanh(5) * 128 = 127.99 -> 128 -> 127. The output's scale and zero point play no part, as in TFLM.
  const std::vector<int8_t> in{0, 16, -16, 8, 40, 80, 120, -120};
  const std::vector<int8_t> expected{0, 97, -97, 59, 126, 127, 127, -128};
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::TANH, int8(1.0f / 16, 0), int8(1.0f / 128, 0), in), expected);
  EXPECT_EQ(run_unary<int8_t>(BuiltinOperator::TANH, int8(1.0f / 16, 0), int8(0.5f, 3), in), expected);
}

// The int16 kernels interpolate a 256-entry sigmoid table they are given. TFLM's own table is
// not shipped (the importer refuses int16 LOGISTIC and TANH), so these tests hand the kernels
// round(65536 * sigmoid(i / 24)), which agrees with every entry the expectations below touch.
std::vector<int16_t> sigmoid_table() {
  std::vector<int16_t> table(256);
  for (int i = 0; i < 256; ++i) {
    const double value = std::min(65535.0, std::round(65536.0 / (1.0 + std::exp(-i / 24.0))));
    table[static_cast<size_t>(i)] = static_cast<int16_t>(static_cast<uint16_t>(value));  // Q0.16 bits
  }
  return table;
}

// Runs logistic_s16 or tanh_s16 with the input rescaling TFLM's Prepare gives (multiplier, shift).
std::vector<int16_t> run_sigmoid_s16(const char* kernel, int64_t multiplier, int64_t shift, const std::vector<int16_t>& in) {
  OneNode m;
  const auto n = static_cast<int64_t>(in.size());
  const uint32_t x = m.input(DType::Int16, {n});
  const uint32_t y = m.output(DType::Int16, {n});
  const uint32_t t = m.constant<int16_t>(DType::Int16, {256}, sigmoid_table());
  m.node(kernel, {ArgDef::input(x), ArgDef::output(y), ArgDef::input(t), ArgDef::integer(multiplier), ArgDef::integer(shift)});
  Loaded loaded(m.def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return {};
  loaded.set_input(0, in);
  EXPECT_EQ(loaded.run(), GRT_OK);
  return loaded.output<int16_t>(0);
}

TEST(LogisticS16, InterpolatesTheSigmoidTableAtThePowerOfTwoScale) {
  // Scale 2^-12 (multiplier 3, shift 0): x * 3 in 1/(3 * 4096) steps, 2^9 of them per table
  // entry. x = 4096 (1.0) lands on entry 24 = 47911: (47911 * 2^9 + 2^9) >> 10 = 23956; -1.0
  // mirrors it to 32768 - 23956. -8.0 is entry 192 (65514): (2^25 - 65514 * 2^9 + 2^9 - 1) >> 10
  // = 11. 100 interpolates between entries 0 and 1: 16584 (sigmoid(100/4096) * 32768 = 16583.99).
  EXPECT_EQ(run_sigmoid_s16("logistic_s16", 3, 0, {0, 4096, -4096, -32768, 100}), (std::vector<int16_t>{16384, 23956, 8812, 11, 16584}));
}

TEST(LogisticS16, RescalesOtherScalesAndSaturatesPastTheTable) {
  // Scale 2^-11 is not the power of two LOGISTIC takes exactly: multiplier 6 * 2^12, shift 12.
  // 1.0 gives what it gives at 2^-12; the extremes pass the table's end: 32767 and (2^25 - 0x7FFF * 2^10 + 511) >> 10 = 1.
  EXPECT_EQ(run_sigmoid_s16("logistic_s16", 6 << 12, 12, {2048, 32767, -32768}), (std::vector<int16_t>{23956, 32767, 1}));
}

TEST(TanhS16, InterpolatesTwiceTheSigmoidMinusOne) {
  // x = 4096 (1.0): sigmoid(2) is entry 48 = 57724: (57724 * 2^8 - 2^23 + 2^7) >> 8 = 24956; the
  // negative side floors to -24956. 100: 800 (tanh(100/4096) * 32768 = 799.84).
  EXPECT_EQ(run_sigmoid_s16("tanh_s16", 3, 0, {0, 4096, -4096, 100, 32767, -32768}),
            (std::vector<int16_t>{0, 24956, -24956, 800, 32767, -32767}));
  // 2^-11 is a power of two TANH takes exactly (multiplier 6).
  EXPECT_EQ(run_sigmoid_s16("tanh_s16", 6, 0, {2048}), (std::vector<int16_t>{24956}));
}

// The importer's int16 LOGISTIC and TANH, through the table it builds from its definition:
// every int16 input lands within one Q0.15 step of the true function (the table errs by under
// one Q0.16 unit and the interpolation by under one more); byte-exactness with TFLM is the
// operator zoo's logistic_int16 and tanh_int16.
TEST(SigmoidS16, ImportedLogisticAndTanhStayWithinOneStepOfTheFunctions) {
  std::vector<int16_t> every;
  for (int v = INT16_MIN; v <= INT16_MAX; v += 7) every.push_back(static_cast<int16_t>(v));
  const std::vector<int16_t> logistic = run_unary<int16_t>(BuiltinOperator::LOGISTIC, int16(1.0f / 4096), int16(1.0f / 32768), every);
  const std::vector<int16_t> tanh = run_unary<int16_t>(BuiltinOperator::TANH, int16(1.0f / 4096), int16(1.0f / 32768), every);
  ASSERT_EQ(logistic.size(), every.size());
  ASSERT_EQ(tanh.size(), every.size());
  for (size_t i = 0; i < every.size(); ++i) {
    const double x = every[i] / 4096.0;
    EXPECT_NEAR(logistic[i], std::min(32767.0, 32768.0 / (1.0 + std::exp(-x))), 1.0) << every[i];
    EXPECT_NEAR(tanh[i], std::clamp(32768.0 * std::tanh(x), -32768.0, 32767.0), 1.5) << every[i];
  }
}

TEST(SigmoidS16, ImportedLogisticRescalesAnInputScaleThatIsNoPowerOfTwo) {
  // Scale 1/1000: multiplier 3 * 4096 / 1000 doubled up into [2^14, 2^15).
  const std::vector<int16_t> in{0, 1000, -1000, 3000, -8000};
  const std::vector<int16_t> out = run_unary<int16_t>(BuiltinOperator::LOGISTIC, int16(1.0f / 1000), int16(1.0f / 32768), in);
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) EXPECT_NEAR(out[i], 32768.0 / (1.0 + std::exp(-in[i] / 1000.0)), 1.0) << in[i];
}

TEST(LogisticF32, UsesTflmsCutoffs) {
  const std::vector<float> out =
      run_unary<float>(BuiltinOperator::LOGISTIC, float32(), float32(), {0.0f, 20.0f, -10.0f, 2.0f, 16.6f});
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0], 0.5f);
  EXPECT_EQ(out[1], 1.0f);               // above 16.619: exactly 1
  EXPECT_EQ(out[2], std::exp(-10.0f));   // below -9: exp(x)
  EXPECT_EQ(out[3], 1.0f / (1.0f + std::exp(-2.0f)));
  EXPECT_EQ(out[4], 1.0f / (1.0f + std::exp(-16.6f)));
}

TEST(TanhF32, IsTanh) {
  const std::vector<float> in{-3.0f, -0.5f, 0.0f, 0.25f, 9.0f};
  const std::vector<float> out = run_unary<float>(BuiltinOperator::TANH, float32(), float32(), in);
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], std::tanh(in[i])) << in[i];
}

}  // namespace
}  // namespace grt::test
