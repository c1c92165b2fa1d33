// Rfft in int32 and float32, imported from .tflite models: the 31-bit fixed-point transform
// (bit-exact values worked by hand from kiss_fft's arithmetic in the comments), the float
// transform against a direct DFT, a round trip through Irfft of the same dtype, and what
// the converter refuses.
#include <gtest/gtest.h>

#include <flatbuffers/flexbuffers.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dft.h"
#include "graphrt/tools/importer.h"
#include "one_node.h"
#include "tflite_op_model.h"

namespace grt::test {
namespace {

using tflite::TensorType;

std::vector<uint8_t> fft_options(TensorType type, int fft_length) {
  flexbuffers::Builder flex;
  const size_t map = flex.StartMap();
  flex.Int("T", static_cast<int64_t>(type));
  flex.Int("fft_length", fft_length);
  flex.EndMap(map);
  flex.Finish();
  return flex.GetBuffer();
}

// x [frames, frame] -> SignalRfft -> [frames, fft_length + 2], optionally -> SignalIrfft ->
// [frames, fft_length].
std::vector<uint8_t> fft_model(TensorType type, int fft_length, int frame, bool round_trip, TensorType output_type, int frames = 1) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .type = type, .shape = {frames, frame}});
  const int32_t spectrum = spec.add_tensor({.name = "spectrum", .type = output_type, .shape = {frames, fft_length + 2}});
  auto custom = [&](const char* name, int32_t in, int32_t out) {
    TfliteOpSpec op;
    op.op = tflite::BuiltinOperator::CUSTOM;
    op.custom_code = name;
    op.inputs = {in};
    op.outputs = {out};
    op.custom_options = fft_options(type, fft_length);
    spec.ops.push_back(std::move(op));
  };
  custom("SignalRfft", x, spectrum);
  int32_t y = spectrum;
  if (round_trip) {
    y = spec.add_tensor({.name = "y", .type = type, .shape = {frames, fft_length}});
    custom("SignalIrfft", spectrum, y);
  }
  spec.inputs = {x};
  spec.outputs = {y};
  return build_tflite(spec);
}

std::string refusal(TensorType type, int fft_length, int frame, TensorType output_type) {
  const std::vector<uint8_t> bytes = fft_model(type, fft_length, frame, false, output_type);
  tools::ModelDef def;
  return tools::import_tflite(bytes.data(), bytes.size(), &def).error;
}

template <typename T>
std::vector<T> run_fft(TensorType type, int fft_length, const std::vector<T>& x, bool round_trip = false, int frames = 1) {
  const std::vector<uint8_t> bytes = fft_model(type, fft_length, static_cast<int>(x.size()) / frames, round_trip, type, frames);
  tools::ModelDef def;
  const tools::ImportResult result = tools::import_tflite(bytes.data(), bytes.size(), &def);
  EXPECT_TRUE(result.ok) << result.error;
  if (!result.ok) return {};
  Loaded loaded(def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return {};
  loaded.set_input(0, x);
  EXPECT_EQ(loaded.run(), GRT_OK) << loaded.run_message();
  return loaded.output<T>(0);
}

// A deterministic test signal of `n` samples in [-amplitude, amplitude).
std::vector<double> signal_of(int n, double amplitude) {
  std::vector<double> x;
  uint32_t seed = 2024;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    x.push_back(amplitude * (static_cast<double>(seed >> 8) / static_cast<double>(1u << 23) - 1.0));
  }
  return x;
}

TEST(SignalRfftInt32, ImpulseGivesAFlatSpectrumOfItsSixteenth) {
  // fft_length 16: an inner FFT of 8 in stages 4, 2. The radix-2 stage halves 2^30 exactly
  // ((2^30 (2^30 - 1) + 2^30) >> 31 = 2^29), the radix-4 stage quarters it (2^29 (2^29 - 1)
  // + 2^30 = 2^58 + 2^29, >> 31 = 2^27), and the split halves once more: 2^26 in every bin,
  // imaginary parts 0.
  std::vector<int32_t> x(16, 0);
  x[0] = 1 << 30;
  const std::vector<int32_t> y = run_fft<int32_t>(TensorType::INT32, 16, x);
  ASSERT_EQ(y.size(), 18u);
  for (int k = 0; k <= 8; ++k) {
    EXPECT_EQ(y[2 * k], 1 << 26) << "bin " << k;
    EXPECT_EQ(y[2 * k + 1], 0) << "bin " << k;
  }
}

TEST(SignalRfftInt32, ConstantAndAlternatingFramesLandInTheirBinOnly) {
  // fft_length 8: one radix-4 stage over the pairs (x0, x1) ... (x6, x7). A constant 2^28
  // quarters to 2^26 and adds up four times to 2^28 in the inner DC bin (2^28, 2^28); the
  // split halves it to (2^27, 2^27) and bin 0 is their sum 2^28 = 8 * 2^28 / 8; every other
  // bin cancels to 0. Alternating +-2^28 gives (2^28, -2^28) in the inner DC bin: bin 0 is 0
  // and bin 4 (Nyquist) 2^28.
  const std::vector<int32_t> dc = run_fft<int32_t>(TensorType::INT32, 8, std::vector<int32_t>(8, 1 << 28));
  EXPECT_EQ(dc, (std::vector<int32_t>{1 << 28, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  std::vector<int32_t> alternating;
  for (int t = 0; t < 8; ++t) alternating.push_back(t % 2 == 0 ? 1 << 28 : -(1 << 28));
  const std::vector<int32_t> nyquist = run_fft<int32_t>(TensorType::INT32, 8, alternating);
  EXPECT_EQ(nyquist, (std::vector<int32_t>{0, 0, 0, 0, 0, 0, 0, 0, 1 << 28, 0}));
  // Both as two frames of one tensor: each frame is transformed on its own.
  std::vector<int32_t> both(8, 1 << 28);
  both.insert(both.end(), alternating.begin(), alternating.end());
  std::vector<int32_t> expected = dc;
  expected.insert(expected.end(), nyquist.begin(), nyquist.end());
  EXPECT_EQ(run_fft<int32_t>(TensorType::INT32, 8, both, false, 2), expected);
}

TEST(SignalRfftInt32, ShiftedImpulseRoundsLikeKissFft) {
  // fft_length 8, x[1] = 2^30: the inner FFT's input is (0, 2^30) then zeros, and its one
  // radix-4 stage gives (0, 2^28) in all four bins. The split: bin 0 = 2^27 and bin 4 =
  // -2^27 (DC halved to (0, 2^27)); bin 2 = (0, -2^27) (super twiddle (-(2^31 - 1), 0)).
  // Bin 1 and 3: f1 = 0, f2 = (0, 2^28) times the super twiddle floor(0.5 + (2^31 - 1)
  // cos/sin(-3 pi / 4)) = (-1518500249, -1518500249) gives (189812531, -189812531) after
  // rounding by 31 bits; halving with an arithmetic shift floors: (94906265, -94906266)
  // and (-94906266, -94906266), 2^27 e^(-2 pi i k / 8) to within one.
  std::vector<int32_t> x(8, 0);
  x[1] = 1 << 30;
  EXPECT_EQ(run_fft<int32_t>(TensorType::INT32, 8, x),
            (std::vector<int32_t>{1 << 27, 0, 94906265, -94906266, 0, -(1 << 27), -94906266, -94906266, -(1 << 27), 0}));
}

TEST(SignalRfftInt32, IsTheSpectrumDividedByTheLengthWithinFixedPointRounding) {
  // 64 points (inner stages 4, 4, 2) from 50 samples, zero-padded.
  std::vector<int32_t> x;
  for (const double v : signal_of(50, 1 << 30)) x.push_back(static_cast<int32_t>(v));
  const std::vector<int32_t> y = run_fft<int32_t>(TensorType::INT32, 64, x);
  const std::vector<double> expected = dft(x, 64);
  ASSERT_EQ(y.size(), expected.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i] / 64, 4.0) << "value " << i;
}

TEST(SignalRfftFloat32, IsTheUnscaledSpectrum) {
  std::vector<float> x;
  for (const double v : signal_of(50, 1.0)) x.push_back(static_cast<float>(v));
  const std::vector<float> y = run_fft<float>(TensorType::FLOAT32, 64, x);
  const std::vector<double> expected = dft(x, 64);
  ASSERT_EQ(y.size(), expected.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], expected[i], 2e-5) << "value " << i;
  // An impulse: 1 in every bin, exactly (no multiplication but by twiddle 1 or 0 touches it).
  std::vector<float> impulse(16, 0.0f);
  impulse[0] = 1.0f;
  const std::vector<float> flat = run_fft<float>(TensorType::FLOAT32, 16, impulse);
  for (int k = 0; k <= 8; ++k) EXPECT_FLOAT_EQ(flat[2 * k], 1.0f) << "bin " << k;
}

TEST(SignalRfft, RoundTripsThroughIrfftOfTheSameType) {
  // float32: neither direction divides, so Irfft(Rfft(x)) is fft_length times x.
  std::vector<float> xf;
  for (const double v : signal_of(32, 1.0)) xf.push_back(static_cast<float>(v));
  const std::vector<float> yf = run_fft<float>(TensorType::FLOAT32, 32, xf, true);
  ASSERT_EQ(yf.size(), 32u);
  for (size_t t = 0; t < 32; ++t) EXPECT_NEAR(yf[t], 32 * xf[t], 1e-4) << "sample " << t;
  // int32: Rfft divides the spectrum by fft_length, and Irfft gives the inverse transform's
  // sum (fft_length times the signal) divided by fft_length once more: x / 32.
  std::vector<int32_t> xi;
  for (const double v : signal_of(32, 1 << 30)) xi.push_back(static_cast<int32_t>(v));
  const std::vector<int32_t> yi = run_fft<int32_t>(TensorType::INT32, 32, xi, true);
  ASSERT_EQ(yi.size(), 32u);
  for (size_t t = 0; t < 32; ++t) EXPECT_NEAR(yi[t], xi[t] / 32.0, 4.0) << "sample " << t;
}

TEST(SignalRfft, RefusesWhatItDoesNotConvert) {
  EXPECT_NE(refusal(TensorType::INT8, 16, 16, TensorType::INT8).find("T is 9; TFLM's RFFT takes int16, int32 and float32"), std::string::npos);
  EXPECT_NE(refusal(TensorType::INT32, 16, 16, TensorType::FLOAT32).find("output must be INT32"), std::string::npos);
  EXPECT_NE(refusal(TensorType::FLOAT32, 24, 24, TensorType::FLOAT32).find("needs a radix-3 stage"), std::string::npos);
  EXPECT_NE(refusal(TensorType::INT32, 16, 20, TensorType::INT32).find("frames of 20 samples are longer than fft_length"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
