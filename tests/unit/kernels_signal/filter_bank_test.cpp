// FilterBank, FilterBankSquareRoot, FilterBankSpectralSubtraction, PCAN and FilterBankLog:
// the front end from the power spectrum to log-mel features.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

// Three bands over six bins: band 0 only feeds the discarded channel -1.
OneNode filter_bank_model(std::vector<int16_t> frequency_starts) {
  OneNode m;
  const uint32_t x = m.input(DType::Int32, {6});
  const uint32_t weights = m.constant<int16_t>(DType::Int16, {5}, {10, 20, 30, 40, 50});
  const uint32_t unweights = m.constant<int16_t>(DType::Int16, {5}, {1, 2, 3, 4, 5});
  const uint32_t starts = m.constant<int16_t>(DType::Int16, {3}, frequency_starts);
  const uint32_t weight_starts = m.constant<int16_t>(DType::Int16, {3}, {0, 1, 3});
  const uint32_t widths = m.constant<int16_t>(DType::Int16, {3}, {1, 2, 2});
  const uint32_t y = m.output(DType::Int64, {2});
  m.node("signal_filter_bank", {ArgDef::input(x), ArgDef::input(weights), ArgDef::input(unweights), ArgDef::input(starts),
                                ArgDef::input(weight_starts), ArgDef::input(widths), ArgDef::output(y)});
  return m;
}

TEST(SignalFilterBank, AddsWeightedBinsToOneChannelAndUnweightedToTheNext) {
  Loaded loaded(filter_bank_model({0, 1, 3}).def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<uint32_t>{1, 2, 4000000000u, 4, 5, 6});
  ASSERT_EQ(loaded.run(), GRT_OK);
  // channel 0: unweighted band 0 (1 * 1) + weighted band 1 (20 * 2 + 30 * 4e9), in 64 bits;
  // channel 1: unweighted band 1 (2 * 2 + 3 * 4e9) + weighted band 2 (40 * 4 + 50 * 5).
  EXPECT_EQ(loaded.output<uint64_t>(0), (std::vector<uint64_t>{120000000041u, 12000000414u}));
}

TEST(SignalFilterBank, RefusesAtRunTimeABandPastTheSpectrum) {
  Loaded loaded(filter_bank_model({0, 1, 5}).def);  // band 2 would read bins 5 and 6 of 6
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<uint32_t>(6, 1));
  EXPECT_NE(loaded.run(), GRT_OK);
  EXPECT_NE(loaded.run_message().find("past the spectrum"), std::string::npos) << loaded.run_message();
}

TEST(SignalFilterBankSquareRoot, IsTheRoundedRootShiftedDown) {
  OneNode m;
  const uint32_t x = m.input(DType::Int64, {3});
  const uint32_t bits = m.input(DType::Int32, {});
  const uint32_t y = m.output(DType::Int32, {3});
  m.node("signal_filter_bank_square_root", {ArgDef::input(x), ArgDef::input(bits), ArgDef::output(y)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  // Scale bits 7: sqrt(55815334) = 7470.96 -> 7471, >> 7 = 58; 0 -> 0; sqrt(15) -> 4, >> 7 = 0.
  loaded.set_input(0, std::vector<uint64_t>{55815334u, 0, 15});
  loaded.set_input(1, std::vector<int32_t>{7});
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<uint32_t>(0), (std::vector<uint32_t>{58, 0, 0}));
  // Unshifted, 15's root 3.87 rounds up to 4 (the remainder 6 exceeds the root 3).
  loaded.set_input(1, std::vector<int32_t>{0});
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<uint32_t>(0)[2], 4u);
  EXPECT_EQ(loaded.output<uint32_t>(0)[0], 7471u);  // 7470.9...
}

struct Subtraction {
  std::vector<uint32_t> y;
  std::vector<uint32_t> estimate;
};

// smoothing 0.04 (0.08 on odd channels), at least 0.1 of the signal left, 10 smoothing bits;
// the estimate kept across runs in a State tensor of 4 channels (zeros at init).
std::unique_ptr<Loaded> subtraction(int clamping) {
  OneNode m;
  const uint32_t in = m.input(DType::Int32, {4});
  const uint32_t y = m.output(DType::Int32, {4});
  const uint32_t estimate = m.output(DType::Int32, {4});
  const uint32_t state = m.def.add_state("noise estimate", DType::Int32, {4}, {});
  m.node("signal_filter_bank_spectral_subtraction",
         {ArgDef::input(in), ArgDef::output(y), ArgDef::output(estimate), ArgDef::integer(655), ArgDef::integer(15729),
          ArgDef::integer(1310), ArgDef::integer(15074), ArgDef::integer(1638), ArgDef::integer(10), ArgDef::integer(14),
          ArgDef::integer(clamping), ArgDef::output(state)});
  auto loaded = std::make_unique<Loaded>(m.def);
  EXPECT_EQ(loaded->status(), GRT_OK) << loaded->message();
  return loaded;
}

Subtraction subtract(Loaded& loaded, const std::vector<uint32_t>& x) {
  loaded.set_input(0, x);
  EXPECT_EQ(loaded.run(), GRT_OK);
  return {loaded.output<uint32_t>(0), loaded.output<uint32_t>(1)};
}

TEST(SignalFilterBankSpectralSubtraction, SubtractsTheSmoothedNoiseEstimateKeptAcrossRuns) {
  auto loaded = subtraction(0);
  const Subtraction first = subtract(*loaded, {322, 308, 210, 5});
  EXPECT_EQ(first.y, (std::vector<uint32_t>{309, 283, 201, 4}));
  EXPECT_EQ(first.estimate, (std::vector<uint32_t>{13181, 25217, 8596, 409}));
  // The next frame starts from that estimate; channel 2's signal (2 << 10) is below it, so
  // nothing is left but the floor (0), and with clamping the estimate drops to the signal.
  const Subtraction second = subtract(*loaded, {100, 308, 2, 5});
  EXPECT_EQ(second.y, (std::vector<uint32_t>{83, 260, 0, 4}));
  EXPECT_EQ(second.estimate, (std::vector<uint32_t>{16747, 48418, 8334, 785}));
  auto clamped = subtraction(1);
  subtract(*clamped, {322, 308, 210, 5});
  EXPECT_EQ(subtract(*clamped, {100, 308, 2, 5}).estimate, (std::vector<uint32_t>{16747, 48418, 2048, 785}));
}

TEST(SignalFilterBankSpectralSubtraction, ResetStartsTheEstimateFromZero) {
  auto loaded = subtraction(0);
  subtract(*loaded, {322, 308, 210, 5});
  subtract(*loaded, {100, 308, 2, 5});
  ASSERT_EQ(grt_reset_state(loaded->executor()), GRT_OK);
  const Subtraction fresh = subtract(*loaded, {322, 308, 210, 5});
  EXPECT_EQ(fresh.y, (std::vector<uint32_t>{309, 283, 201, 4}));
  EXPECT_EQ(fresh.estimate, (std::vector<uint32_t>{13181, 25217, 8596, 409}));
}

TEST(SignalPcan, GainsFromTheNoiseEstimateThenShrinks) {
  OneNode m;
  const uint32_t x = m.input(DType::Int32, {4});
  const uint32_t noise = m.input(DType::Int32, {4});
  std::vector<int16_t> lut(125, 0);
  lut[0] = 4096;
  lut[1] = 2048;
  lut[2] = 1024;
  // Noise 1000 is in interval 10: coefficients at 4 * 10 - 6 = 34.
  lut[34] = 100;
  lut[35] = 1;
  lut[36] = 64;
  const uint32_t table = m.constant<int16_t>(DType::Int16, {125}, lut);
  const uint32_t y = m.output(DType::Int32, {4});
  m.node("signal_pcan", {ArgDef::input(x), ArgDef::input(noise), ArgDef::input(table), ArgDef::output(y), ArgDef::integer(6)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<uint32_t>{100, 5000, 64, 1000});
  loaded.set_input(1, std::vector<uint32_t>{0, 1, 2, 1000});
  ASSERT_EQ(loaded.run(), GRT_OK);
  // snr = x * gain >> 6: 6400 (below 2.0: 6400^2 >> 20 = 39), 160000 (above: 2500 - 64),
  // 1024 (1); noise 1000: frac 976, gain 100 + ((64 * 976 >> 5) + 32) * 976 / 2^15 = 159.
  EXPECT_EQ(loaded.output<uint32_t>(0), (std::vector<uint32_t>{39, 2436, 1, 5}));
}

TEST(SignalPcan, RefusesAShortGainTable) {
  OneNode m;
  const uint32_t x = m.input(DType::Int32, {2});
  const uint32_t noise = m.input(DType::Int32, {2});
  const uint32_t table = m.constant<int16_t>(DType::Int16, {124}, std::vector<int16_t>(124, 0));
  const uint32_t y = m.output(DType::Int32, {2});
  m.node("signal_pcan", {ArgDef::input(x), ArgDef::input(noise), ArgDef::input(table), ArgDef::output(y), ArgDef::integer(6)});
  EXPECT_NE(refusal(m).find("125"), std::string::npos);
}

std::vector<int16_t> filter_bank_log(const std::vector<uint32_t>& x, int correction_bits, int output_scale) {
  OneNode m;
  const int64_t n = static_cast<int64_t>(x.size());
  const uint32_t in = m.input(DType::Int32, {n});
  const uint32_t y = m.output(DType::Int16, {n});
  m.node("signal_filter_bank_log", {ArgDef::input(in), ArgDef::output(y), ArgDef::integer(correction_bits), ArgDef::integer(output_scale)});
  Loaded loaded(m.def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, x);
  EXPECT_EQ(loaded.run(), GRT_OK);
  return loaded.output<int16_t>(0);
}

// Bit-exactness with TFLM is proven by the audio_preprocessor models' golden cases (the zoo
// conformance); here, what follows from the definition alone.
TEST(SignalFilterBankLog, HasNoLogarithmForZeroAndOne) {
  // 0 and 1 (after the shift) have no logarithm: 0.
  EXPECT_EQ(filter_bank_log({0, 1}, 0, 1600), (std::vector<int16_t>{0, 0}));
}

}  // namespace
}  // namespace grt::test
