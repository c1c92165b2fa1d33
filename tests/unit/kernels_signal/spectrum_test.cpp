// Window, FftAutoScale, Rfft and Energy: the front end up to the power spectrum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "dft.h"
#include "one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

TEST(SignalWindow, MultipliesShiftsAndSaturatesEachFrame) {
  OneNode m;
  const uint32_t x = m.input(DType::Int16, {2, 3});
  const uint32_t w = m.constant<int16_t>(DType::Int16, {3}, {16384, -16384, 32767});
  const uint32_t y = m.output(DType::Int16, {2, 3});
  m.node("signal_window", {ArgDef::input(x), ArgDef::input(w), ArgDef::output(y), ArgDef::integer(14)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<int16_t>{100, 100, 32767, -7, -32768, -32768});
  ASSERT_EQ(loaded.run(), GRT_OK);
  // 32767 * 32767 >> 14 saturates; -32768 * -16384 >> 14 = 32768 saturates; -7 * 16384 >> 14
  // rounds toward -inf.
  EXPECT_EQ(loaded.output<int16_t>(0), (std::vector<int16_t>{100, -100, 32767, -7, 32767, -32768}));
}

TEST(SignalWindow, RefusesAnInputThatIsNotWholeFrames) {
  OneNode m;
  const uint32_t x = m.input(DType::Int16, {5});
  const uint32_t w = m.constant<int16_t>(DType::Int16, {3}, {1, 1, 1});
  const uint32_t y = m.output(DType::Int16, {5});
  m.node("signal_window", {ArgDef::input(x), ArgDef::input(w), ArgDef::output(y), ArgDef::integer(0)});
  EXPECT_NE(refusal(m).find("multiple"), std::string::npos);
}

std::pair<std::vector<int16_t>, int32_t> auto_scale(const std::vector<int16_t>& in) {
  OneNode m;
  const int64_t n = static_cast<int64_t>(in.size());
  const uint32_t x = m.input(DType::Int16, {n});
  const uint32_t y = m.output(DType::Int16, {n});
  const uint32_t bits = m.output(DType::Int32, {});
  m.node("signal_fft_auto_scale", {ArgDef::input(x), ArgDef::output(y), ArgDef::output(bits)});
  Loaded loaded(m.def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, in);
  EXPECT_EQ(loaded.run(), GRT_OK);
  return {loaded.output<int16_t>(0), loaded.output<int32_t>(1)[0]};
}

TEST(SignalFftAutoScale, ShiftsUpToTheLargestMagnitude) {
  // max |x| = 1000 takes 10 bits: 5 bits of headroom.
  EXPECT_EQ(auto_scale({3, -1000, 999}), (std::make_pair(std::vector<int16_t>{96, -32000, 31968}, 5)));
  EXPECT_EQ(auto_scale({0, 0}), (std::make_pair(std::vector<int16_t>{0, 0}, 0)));
  EXPECT_EQ(auto_scale({1, -1}), (std::make_pair(std::vector<int16_t>{16384, -16384}, 14)));
  // TFLM keeps the running maximum in an int16: -32768's magnitude stays -32768, which,
  // read as 32 bits, leaves no room to shift ...
  EXPECT_EQ(auto_scale({5, -32768}), (std::make_pair(std::vector<int16_t>{5, -32768}, 0)));
  // ... unless a later positive value replaces it (5 > -32768): graphrt does the same.
  EXPECT_EQ(auto_scale({-32768, 5}), (std::make_pair(std::vector<int16_t>{0, 20480}, 12)));
}

// kiss_fft's 16-bit twiddles as the importer writes them: inner FFT, then the split's.
std::vector<int16_t> twiddles(int64_t fft_length) {
  const int64_t n = fft_length / 2;
  const double pi = 3.141592653589793238462643383279502884;
  std::vector<int16_t> t;
  auto push = [&](double phase) {
    t.push_back(static_cast<int16_t>(std::floor(0.5 + 32767 * std::cos(phase))));
    t.push_back(static_cast<int16_t>(std::floor(0.5 + 32767 * std::sin(phase))));
  };
  for (int64_t i = 0; i < n; ++i) push(-2 * pi * static_cast<double>(i) / static_cast<double>(n));
  for (int64_t i = 0; i < n / 2; ++i) push(-pi * (static_cast<double>(i + 1) / static_cast<double>(n) + .5));
  return t;
}

std::vector<int16_t> rfft(const std::vector<int16_t>& in, int64_t fft_length, const std::vector<int32_t>& stages) {
  OneNode m;
  const int64_t n = fft_length / 2;
  const uint32_t x = m.input(DType::Int16, {static_cast<int64_t>(in.size())});
  const std::vector<int16_t> tw = twiddles(fft_length);
  const uint32_t t = m.constant<int16_t>(DType::Int16, {static_cast<int64_t>(tw.size())}, tw);
  const uint32_t s = m.ints(stages);
  const uint32_t y = m.output(DType::Int16, {2 * (n + 1)});
  m.node("signal_rfft_s16", {ArgDef::input(x), ArgDef::input(t), ArgDef::int_array(s), ArgDef::output(y), ArgDef::integer(fft_length)});
  Loaded loaded(m.def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, in);
  EXPECT_EQ(loaded.run(), GRT_OK);
  return loaded.output<int16_t>(0);
}

TEST(SignalRfft, IsTheSpectrumDividedByTheLengthWithinFixedPointRounding) {
  // 64-point real FFT: a 32-point inner FFT of stages 4, 4, 2, zero-padded from 50 samples.
  std::vector<int16_t> x(50);
  uint32_t seed = 12345;
  for (int16_t& v : x) {
    seed = seed * 1664525u + 1013904223u;
    v = static_cast<int16_t>(static_cast<int32_t>(seed >> 16) - 32768);
  }
  const std::vector<int16_t> y = rfft(x, 64, {4, 8, 4, 2, 2, 1});
  ASSERT_EQ(y.size(), 66u);
  const std::vector<double> expected = dft(x, 64);
  for (int k = 0; k <= 32; ++k) {
    EXPECT_NEAR(y[2 * k], expected[2 * k] / 64, 4) << "bin " << k;
    EXPECT_NEAR(y[2 * k + 1], expected[2 * k + 1] / 64, 4) << "bin " << k;
  }
}

TEST(SignalRfft, ImpulseGivesAFlatSpectrum) {
  std::vector<int16_t> x(16, 0);
  x[0] = 16384;
  // 16384 / 16 = 1024 in every bin, imaginary parts 0 (radix-4 then radix-2 inner stages).
  const std::vector<int16_t> y = rfft(x, 16, {4, 2, 2, 1});
  for (int k = 0; k <= 8; ++k) {
    EXPECT_EQ(y[2 * k], 1024) << "bin " << k;
    EXPECT_EQ(y[2 * k + 1], 0) << "bin " << k;
  }
}

TEST(SignalRfft, RefusesStagesThatDoNotFactorTheLength) {
  OneNode m;
  const uint32_t x = m.input(DType::Int16, {16});
  const std::vector<int16_t> tw = twiddles(16);
  const uint32_t t = m.constant<int16_t>(DType::Int16, {static_cast<int64_t>(tw.size())}, tw);
  const uint32_t s = m.ints({4, 2, 4, 1});  // 8 is not 4 * 4
  const uint32_t y = m.output(DType::Int16, {18});
  m.node("signal_rfft_s16", {ArgDef::input(x), ArgDef::input(t), ArgDef::int_array(s), ArgDef::output(y), ArgDef::integer(16)});
  EXPECT_NE(refusal(m).find("stages"), std::string::npos);
}

TEST(SignalEnergy, SquaresMagnitudesInsideTheRangeAndZeroesTheRest) {
  OneNode m;
  const uint32_t x = m.input(DType::Int16, {8});
  const uint32_t y = m.output(DType::Int32, {4});
  m.node("signal_energy", {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(1), ArgDef::integer(3)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<int16_t>{5, 5, 3, -4, -32768, -32768, 9, 9});
  ASSERT_EQ(loaded.run(), GRT_OK);
  // 2 * 2^30 = 2^31 fits the unsigned word.
  EXPECT_EQ(loaded.output<uint32_t>(0), (std::vector<uint32_t>{0, 25, 2147483648u, 0}));
}

TEST(SignalEnergy, RefusesARangePastTheOutput) {
  OneNode m;
  const uint32_t x = m.input(DType::Int16, {8});
  const uint32_t y = m.output(DType::Int32, {4});
  m.node("signal_energy", {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(1), ArgDef::integer(5)});
  EXPECT_NE(refusal(m).find("indices"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
