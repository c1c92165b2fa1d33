// Delay, Framer, Stacker and OverlapAdd: imported from one-operator .tflite models, run several
// times in a row (their samples carry over in State tensors) and reset with grt_reset_state.
// Irfft, their stateless companion in synthesis pipelines, is imported the same way.
// Expected values follow TFLM's signal library semantics, worked by hand in the comments.
#include <gtest/gtest.h>

#include <flatbuffers/flexbuffers.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dft.h"
#include "graphrt/tools/importer.h"
#include "one_node.h"
#include "tflite_op_model.h"

namespace grt::test {
namespace {

using tflite::TensorType;
using FlexOptions = std::function<void(flexbuffers::Builder&)>;

std::vector<uint8_t> flex_map(const FlexOptions& entries) {
  flexbuffers::Builder flex;
  const size_t map = flex.StartMap();
  entries(flex);
  flex.EndMap(map);
  flex.Finish();
  return flex.GetBuffer();
}

// One custom signal operator: tensor 0 is the model input, the operator's outputs follow.
struct StreamOp {
  std::string name;
  std::vector<std::pair<TensorType, std::vector<int32_t>>> tensors;  // input, then outputs
  FlexOptions options;

  std::vector<uint8_t> tflite() const {
    TfliteModelSpec spec;
    std::vector<int32_t> outputs;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const int32_t t = spec.add_tensor({.name = "t" + std::to_string(i), .type = tensors[i].first, .shape = tensors[i].second});
      if (i > 0) outputs.push_back(t);
    }
    TfliteOpSpec op;
    op.op = tflite::BuiltinOperator::CUSTOM;
    op.custom_code = name;
    op.inputs = {0};
    op.outputs = outputs;
    op.custom_options = flex_map(options);
    spec.ops.push_back(std::move(op));
    spec.inputs = {0};
    spec.outputs = outputs;
    return build_tflite(spec);
  }

  // The importer's refusal, or "" when it converts.
  std::string refusal() const {
    const std::vector<uint8_t> bytes = tflite();
    tools::ModelDef def;
    return tools::import_tflite(bytes.data(), bytes.size(), &def).error;
  }

  std::unique_ptr<Loaded> load() const {
    const std::vector<uint8_t> bytes = tflite();
    tools::ModelDef def;
    const tools::ImportResult result = tools::import_tflite(bytes.data(), bytes.size(), &def);
    EXPECT_TRUE(result.ok) << result.error;
    auto loaded = std::make_unique<Loaded>(def);
    EXPECT_EQ(loaded->status(), GRT_OK) << loaded->message();
    return loaded;
  }
};

template <typename T>
std::vector<T> run(Loaded& loaded, const std::vector<T>& x) {
  loaded.set_input(0, x);
  EXPECT_EQ(loaded.run(), GRT_OK) << loaded.run_message();
  return loaded.output<T>(0);
}

bool valid_flag(const Loaded& loaded) { return loaded.output<uint8_t>(1).at(0) != 0; }

using S16 = std::vector<int16_t>;

StreamOp delay(std::vector<int32_t> shape, int delay_length) {
  return {"SignalDelay", {{TensorType::INT16, shape}, {TensorType::INT16, shape}},
          [delay_length](flexbuffers::Builder& f) { f.Int("delay_length", delay_length); }};
}

TEST(SignalDelay, EachRowComesOutDelayLengthSamplesLaterAcrossRuns) {
  auto loaded = delay({2, 3}, 2).load();
  // Row 0: zeros ++ [1 2 3] -> [0 0 1], keeps [2 3]; then [2 3] ++ [4 5 6] -> [2 3 4], and so on.
  EXPECT_EQ(run<int16_t>(*loaded, {1, 2, 3, 10, 20, 30}), (S16{0, 0, 1, 0, 0, 10}));
  EXPECT_EQ(run<int16_t>(*loaded, {4, 5, 6, 40, 50, 60}), (S16{2, 3, 4, 20, 30, 40}));
  EXPECT_EQ(run<int16_t>(*loaded, {7, 8, 9, 70, 80, 90}), (S16{5, 6, 7, 50, 60, 70}));
  ASSERT_EQ(grt_reset_state(loaded->executor()), GRT_OK);
  EXPECT_EQ(run<int16_t>(*loaded, {1, 2, 3, 10, 20, 30}), (S16{0, 0, 1, 0, 0, 10}));
}

TEST(SignalDelay, DelaysLongerThanAFrameSpanSeveralRuns) {
  auto loaded = delay({2}, 5).load();
  // Five zeros are pending first: [1 2] comes out two runs and a half later.
  EXPECT_EQ(run<int16_t>(*loaded, {1, 2}), (S16{0, 0}));
  EXPECT_EQ(run<int16_t>(*loaded, {3, 4}), (S16{0, 0}));
  EXPECT_EQ(run<int16_t>(*loaded, {5, 6}), (S16{0, 1}));
  EXPECT_EQ(run<int16_t>(*loaded, {7, 8}), (S16{2, 3}));
  EXPECT_EQ(run<int16_t>(*loaded, {9, 10}), (S16{4, 5}));
}

TEST(SignalDelay, ZeroDelayCopiesAndBadOperandsAreRefused) {
  auto loaded = delay({3}, 0).load();
  EXPECT_EQ(run<int16_t>(*loaded, {1, -2, 3}), (S16{1, -2, 3}));
  StreamOp wrong_type = delay({3}, 1);
  wrong_type.tensors[0].first = TensorType::INT8;
  EXPECT_NE(wrong_type.refusal().find("input must be INT16"), std::string::npos) << wrong_type.refusal();
  EXPECT_NE(delay({3}, -1).refusal().find("'delay_length' is -1"), std::string::npos);
  StreamOp reshaped = delay({3}, 1);
  reshaped.tensors[1].second = {1, 3};
  EXPECT_NE(reshaped.refusal().find("shape differs"), std::string::npos);
}

StreamOp framer(std::vector<int32_t> in, std::vector<int32_t> out, int size, int step, bool prefill) {
  return {"SignalFramer", {{TensorType::INT16, in}, {TensorType::INT16, out}, {TensorType::BOOL, {}}},
          [=](flexbuffers::Builder& f) {
            f.Int("frame_size", size);
            f.Int("frame_step", step);
            f.Bool("prefill", prefill);
          }};
}

TEST(SignalFramer, WithoutPrefillTheFirstFramesAreInvalidUntilFrameSizeSamplesArrived) {
  auto loaded = framer({4}, {2, 3}, 3, 2, false).load();
  // Frame 0 has only [1 2]: invalid (zeros). Frame 1 has [1 2 3 4]: emits [1 2 3], keeps [3 4].
  EXPECT_EQ(run<int16_t>(*loaded, {1, 2, 3, 4}), (S16{0, 0, 0, 1, 2, 3}));
  EXPECT_FALSE(valid_flag(*loaded));
  EXPECT_EQ(run<int16_t>(*loaded, {5, 6, 7, 8}), (S16{3, 4, 5, 5, 6, 7}));
  EXPECT_TRUE(valid_flag(*loaded));
  EXPECT_EQ(run<int16_t>(*loaded, {9, 10, 11, 12}), (S16{7, 8, 9, 9, 10, 11}));
  EXPECT_TRUE(valid_flag(*loaded));
  ASSERT_EQ(grt_reset_state(loaded->executor()), GRT_OK);
  EXPECT_EQ(run<int16_t>(*loaded, {1, 2, 3, 4}), (S16{0, 0, 0, 1, 2, 3}));
  EXPECT_FALSE(valid_flag(*loaded));
}

TEST(SignalFramer, PrefillStartsWithFrameSizeMinusStepZerosInEveryRow) {
  auto loaded = framer({2, 4}, {2, 2, 3}, 3, 2, true).load();
  // One zero pending: [0 1 2], keeps [2]; [2 3 4], keeps [4]; then [4 5 6], [6 7 8].
  EXPECT_EQ(run<int16_t>(*loaded, {1, 2, 3, 4, 10, 20, 30, 40}), (S16{0, 1, 2, 2, 3, 4, 0, 10, 20, 20, 30, 40}));
  EXPECT_TRUE(valid_flag(*loaded));
  EXPECT_EQ(run<int16_t>(*loaded, {5, 6, 7, 8, 50, 60, 70, 80}), (S16{4, 5, 6, 6, 7, 8, 40, 50, 60, 60, 70, 80}));
  ASSERT_EQ(grt_reset_state(loaded->executor()), GRT_OK);
  EXPECT_EQ(run<int16_t>(*loaded, {1, 2, 3, 4, 10, 20, 30, 40}), (S16{0, 1, 2, 2, 3, 4, 0, 10, 20, 20, 30, 40}));
}

// The importer's State tensors: what the plan keeps apart and grt_reset_state restores.
TEST(SignalFramer, KeepsItsSamplesAndTheirCountInStateTensors) {
  const std::vector<uint8_t> bytes = framer({2, 4}, {2, 2, 5}, 5, 2, true).tflite();
  tools::ModelDef def;
  const tools::ImportResult result = tools::import_tflite(bytes.data(), bytes.size(), &def);
  ASSERT_TRUE(result.ok) << result.error;
  std::vector<const tools::TensorDef*> state;
  for (const tools::TensorDef& t : def.tensors) {
    if (t.kind == tools::TensorKind::State) state.push_back(&t);
  }
  ASSERT_EQ(state.size(), 2u);
  // Two rows of frame_size 5 rounded up to a multiple of frame_step 2; zeros at init.
  EXPECT_EQ(state[0]->dtype, tools::DType::Int16);
  EXPECT_EQ(state[0]->shape, (std::vector<int64_t>{12}));
  for (const uint8_t b : def.buffers[state[0]->buffer]) EXPECT_EQ(b, 0);
  // Prefill: frame_size - frame_step = 3 samples pending from the start.
  EXPECT_EQ(state[1]->dtype, tools::DType::Int32);
  EXPECT_EQ(def.buffers[state[1]->buffer], (std::vector<uint8_t>{3, 0, 0, 0}));
}

TEST(SignalFramer, StepsLongerThanFramesSkipSamples) {
  auto loaded = framer({3}, {1, 2}, 2, 3, false).load();
  EXPECT_EQ(run<int16_t>(*loaded, {1, 2, 3}), (S16{1, 2}));
  EXPECT_EQ(run<int16_t>(*loaded, {4, 5, 6}), (S16{4, 5}));
  EXPECT_TRUE(valid_flag(*loaded));
}

TEST(SignalFramer, RefusesShapesAndOptionsTflmRefuses) {
  EXPECT_NE(framer({5}, {2, 3}, 3, 2, false).refusal().find("not a whole number of frame_step 2"), std::string::npos);
  EXPECT_NE(framer({4}, {2, 4}, 3, 2, false).refusal().find("not [2, 3]"), std::string::npos);
  EXPECT_NE(framer({3}, {1, 2}, 2, 3, true).refusal().find("prefill needs frame_step 3 <= frame_size 2"), std::string::npos);
  StreamOp flag = framer({4}, {2, 3}, 3, 2, false);
  flag.tensors[2].second = {1};
  EXPECT_NE(flag.refusal().find("output_valid must be a scalar"), std::string::npos);
}

StreamOp stacker(int channels, int left, int right, int step, int out) {
  return {"SignalStacker", {{TensorType::INT16, {channels}}, {TensorType::INT16, {out}}, {TensorType::BOOL, {}}},
          [=](flexbuffers::Builder& f) {
            f.Int("num_channels", channels);
            f.Int("stacker_left_context", left);
            f.Int("stacker_right_context", right);
            f.Int("stacker_step", step);
          }};
}

TEST(SignalStacker, PadsWithTheFirstVectorAndSlidesOneVectorPerRun) {
  auto loaded = stacker(2, 1, 1, 1, 6).load();
  // [1 2] twice (left context 1): 2 of 3 vectors, invalid. Then windows of 3 vectors.
  EXPECT_EQ(run<int16_t>(*loaded, {1, 2}), (S16{0, 0, 0, 0, 0, 0}));
  EXPECT_FALSE(valid_flag(*loaded));
  EXPECT_EQ(run<int16_t>(*loaded, {3, 4}), (S16{1, 2, 1, 2, 3, 4}));
  EXPECT_TRUE(valid_flag(*loaded));
  EXPECT_EQ(run<int16_t>(*loaded, {5, 6}), (S16{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(run<int16_t>(*loaded, {7, 8}), (S16{3, 4, 5, 6, 7, 8}));
  ASSERT_EQ(grt_reset_state(loaded->executor()), GRT_OK);
  EXPECT_EQ(run<int16_t>(*loaded, {9, 9}), (S16{0, 0, 0, 0, 0, 0}));
  EXPECT_FALSE(valid_flag(*loaded));
  EXPECT_EQ(run<int16_t>(*loaded, {1, 1}), (S16{9, 9, 9, 9, 1, 1}));
  EXPECT_TRUE(valid_flag(*loaded));
}

TEST(SignalStacker, AStepOfTwoEmitsEveryOtherRun) {
  auto loaded = stacker(1, 0, 2, 2, 3).load();
  std::vector<bool> valid;
  std::vector<S16> outputs;
  for (int16_t x = 1; x <= 5; ++x) {
    outputs.push_back(run<int16_t>(*loaded, {x}));
    valid.push_back(valid_flag(*loaded));
  }
  EXPECT_EQ(valid, (std::vector<bool>{false, false, true, false, true}));
  EXPECT_EQ(outputs[2], (S16{1, 2, 3}));
  EXPECT_EQ(outputs[4], (S16{3, 4, 5}));
}

TEST(SignalStacker, RefusesWindowsThatDoNotMatchTheOptions) {
  EXPECT_NE(stacker(2, 1, 1, 1, 5).refusal().find("output has 5 values, num_channels x (left + 1 + right) is 6"), std::string::npos);
  EXPECT_NE(stacker(2, 0, 0, 2, 2).refusal().find("stacker_step 2 is more than the window's 1 vectors"), std::string::npos);
  StreamOp channels = stacker(2, 1, 1, 1, 6);
  channels.tensors[0].second = {3};
  EXPECT_NE(channels.refusal().find("input has 3 values, num_channels is 2"), std::string::npos);
}

StreamOp overlap_add(TensorType type, std::vector<int32_t> in, std::vector<int32_t> out, int step) {
  return {"SignalOverlapAdd", {{type, in}, {type, out}}, [=](flexbuffers::Builder& f) {
            f.Int("T", static_cast<int64_t>(type));
            f.Int("frame_step", step);
          }};
}

TEST(SignalOverlapAdd, Int16FramesOverlapAcrossFramesAndRuns) {
  auto loaded = overlap_add(TensorType::INT16, {2, 4}, {4}, 2).load();
  // Buffer [1 1 1 1] -> emits [1 1], keeps [1 1 0 0]; + [2 2 2 2] -> emits [3 3], keeps [2 2 0 0].
  EXPECT_EQ(run<int16_t>(*loaded, {1, 1, 1, 1, 2, 2, 2, 2}), (S16{1, 1, 3, 3}));
  EXPECT_EQ(run<int16_t>(*loaded, {10, 10, 10, 10, 0, 0, 0, 0}), (S16{12, 12, 10, 10}));
  EXPECT_EQ(run<int16_t>(*loaded, {0, 0, 0, 0, 0, 0, 0, 0}), (S16{0, 0, 0, 0}));
}

TEST(SignalOverlapAdd, Int16SumsSaturateAndResetEmptiesTheBuffer) {
  auto loaded = overlap_add(TensorType::INT16, {1, 4}, {2}, 2).load();
  EXPECT_EQ(run<int16_t>(*loaded, {30000, 30000, -30000, -30000}), (S16{30000, 30000}));
  EXPECT_EQ(run<int16_t>(*loaded, {30000, 30000, 5, 5}), (S16{0, 0}));
  EXPECT_EQ(run<int16_t>(*loaded, {30000, -30000, 0, 0}), (S16{30005, -29995}));
  EXPECT_EQ(run<int16_t>(*loaded, {30000, 30000, 30000, 30000}), (S16{30000, 30000}));
  EXPECT_EQ(run<int16_t>(*loaded, {30000, 30000, 0, 0}), (S16{32767, 32767}));
  EXPECT_EQ(run<int16_t>(*loaded, {1, 1, 30000, 30000}), (S16{1, 1}));
  // [30000 30000] is pending; the reset drops it.
  ASSERT_EQ(grt_reset_state(loaded->executor()), GRT_OK);
  EXPECT_EQ(run<int16_t>(*loaded, {-30000, 1, 0, 0}), (S16{-30000, 1}));
  // Both halves of a frame add to what is pending: 32767 caps the sum.
  auto saturating = overlap_add(TensorType::INT16, {1, 2}, {1}, 1).load();
  EXPECT_EQ(run<int16_t>(*saturating, {100, 30000}), (S16{100}));
  EXPECT_EQ(run<int16_t>(*saturating, {30000, -32768}), (S16{32767}));
  EXPECT_EQ(run<int16_t>(*saturating, {-32768, 0}), (S16{-32768}));
}

TEST(SignalOverlapAdd, Float32AddsWithoutSaturation) {
  auto loaded = overlap_add(TensorType::FLOAT32, {1, 4}, {1}, 1).load();
  EXPECT_EQ(run<float>(*loaded, {0.5f, 0.25f, 0.125f, 1.0f}), (std::vector<float>{0.5f}));
  EXPECT_EQ(run<float>(*loaded, {0.5f, 0.25f, 0.125f, 1.0f}), (std::vector<float>{0.75f}));
  EXPECT_EQ(run<float>(*loaded, {40000.0f, 0, 0, 0}), (std::vector<float>{40000.375f}));
  // [1.125 1] is pending; the reset drops it.
  ASSERT_EQ(grt_reset_state(loaded->executor()), GRT_OK);
  EXPECT_EQ(run<float>(*loaded, {2.0f, 0, 0, 0}), (std::vector<float>{2.0f}));
}

TEST(SignalOverlapAdd, RefusesTypesAndStepsTflmDoesNotTake) {
  EXPECT_NE(overlap_add(TensorType::INT8, {1, 4}, {2}, 2).refusal().find("T is 9"), std::string::npos);
  EXPECT_NE(overlap_add(TensorType::INT16, {1, 4}, {5}, 5).refusal().find("frame_step 5 is larger than frames of 4"), std::string::npos);
  EXPECT_NE(overlap_add(TensorType::INT16, {2, 4}, {2}, 2).refusal().find("frames x frame_step = 4"), std::string::npos);
}

// FilterBankSpectralSubtraction's noise estimate, kept by the importer in a State tensor.
// Models cannot take or give uint32, so the estimate sits inside int16 -> Energy ->
// SpectralSubtraction -> FilterBankLog -> int16 (the kernel's values are worked by hand in
// filter_bank_test.cpp): the same input twice gives another output, and after a reset the
// first one again.
TEST(SignalFilterBankSpectralSubtraction, ImportedKeepsItsNoiseEstimateAcrossRunsUntilReset) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .type = TensorType::INT16, .shape = {4}});
  const int32_t energy = spec.add_tensor({.name = "energy", .type = TensorType::UINT32, .shape = {2}});
  const int32_t cleaned = spec.add_tensor({.name = "cleaned", .type = TensorType::UINT32, .shape = {2}});
  const int32_t noise = spec.add_tensor({.name = "noise", .type = TensorType::UINT32, .shape = {2}});
  const int32_t y = spec.add_tensor({.name = "y", .type = TensorType::INT16, .shape = {2}});
  auto custom = [&](const char* name, std::vector<int32_t> in, std::vector<int32_t> out, const FlexOptions& options) {
    TfliteOpSpec op;
    op.op = tflite::BuiltinOperator::CUSTOM;
    op.custom_code = name;
    op.inputs = std::move(in);
    op.outputs = std::move(out);
    op.custom_options = flex_map(options);
    spec.ops.push_back(std::move(op));
  };
  custom("SignalEnergy", {x}, {energy}, [](flexbuffers::Builder& f) {
    f.Int("start_index", 0);
    f.Int("end_index", 2);
  });
  custom("SignalFilterBankSpectralSubtraction", {energy}, {cleaned, noise}, [](flexbuffers::Builder& f) {
    f.Int("smoothing", 655);
    f.Int("one_minus_smoothing", 15729);
    f.Int("alternate_smoothing", 1310);
    f.Int("alternate_one_minus_smoothing", 15074);
    f.Int("min_signal_remaining", 1638);
    f.Int("smoothing_bits", 10);
    f.Int("spectral_subtraction_bits", 14);
    f.Int("clamping", 0);
  });
  custom("SignalFilterBankLog", {cleaned}, {y}, [](flexbuffers::Builder& f) {
    f.Int("input_correction_bits", 0);
    f.Int("output_scale", 1600);
  });
  spec.inputs = {x};
  spec.outputs = {y};
  const std::vector<uint8_t> bytes = build_tflite(spec);
  tools::ModelDef def;
  const tools::ImportResult result = tools::import_tflite(bytes.data(), bytes.size(), &def);
  ASSERT_TRUE(result.ok) << result.error;
  size_t states = 0;
  for (const tools::TensorDef& t : def.tensors) states += t.kind == tools::TensorKind::State ? 1 : 0;
  EXPECT_EQ(states, 1u);
  Loaded loaded(def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  const S16 frame = {300, 0, 0, 200};  // energies 90000 and 40000: no overflow at << 10
  const S16 first = run<int16_t>(loaded, frame);
  const S16 second = run<int16_t>(loaded, frame);
  // The estimate grew: less of the same signal is left.
  EXPECT_LT(second[0], first[0]);
  EXPECT_LT(second[1], first[1]);
  ASSERT_EQ(grt_reset_state(loaded.executor()), GRT_OK);
  EXPECT_EQ(run<int16_t>(loaded, frame), first);
}

StreamOp irfft(int fft_length, TensorType type = TensorType::INT16) {
  return {"SignalIrfft", {{type, {fft_length + 2}}, {type, {fft_length}}}, [=](flexbuffers::Builder& f) {
            f.Int("T", static_cast<int64_t>(type));
            f.Int("fft_length", fft_length);
          }};
}

TEST(SignalIrfft, DcAndNyquistBinsGiveFlatAndAlternatingSignals) {
  auto loaded = irfft(8).load();
  // DC 16384: the fold halves it into (8192, 8192) (16384 * 16383 rounds to 8192 exactly),
  // the one radix-4 stage divides by 4 (8192 * 8191 rounds to 2048): 2048 everywhere.
  EXPECT_EQ(run<int16_t>(*loaded, {16384, 0, 0, 0, 0, 0, 0, 0, 0, 0}), (S16{2048, 2048, 2048, 2048, 2048, 2048, 2048, 2048}));
  // Nyquist 16384: the fold gives (8192, -8191), the stage (2048, -2048).
  EXPECT_EQ(run<int16_t>(*loaded, {0, 0, 0, 0, 0, 0, 0, 0, 16384, 0}), (S16{2048, -2048, 2048, -2048, 2048, -2048, 2048, -2048}));
}

// DC, bin 1 real, bin 3 imaginary, bin 5 both, times `scale`.
template <typename T>
std::vector<T> test_spectrum(int length, T scale) {
  std::vector<T> spectrum(static_cast<size_t>(length + 2), T{0});
  spectrum[0] = static_cast<T>(2000 * scale);
  spectrum[2] = static_cast<T>(8000 * scale);
  spectrum[7] = static_cast<T>(-6000 * scale);
  spectrum[10] = static_cast<T>(3000 * scale);
  spectrum[11] = static_cast<T>(1000 * scale);
  return spectrum;
}

TEST(SignalIrfft, IsTheTimeSignalDividedByTheLengthWithinFixedPointRounding) {
  constexpr int kLength = 32;
  auto loaded = irfft(kLength).load();
  const std::vector<int16_t> spectrum = test_spectrum<int16_t>(kLength, 1);
  const std::vector<int16_t> y = run<int16_t>(*loaded, spectrum);
  const std::vector<double> expected = inverse_dft(spectrum, kLength);
  for (int t = 0; t < kLength; ++t) EXPECT_NEAR(y[t], expected[t] / kLength, 3.0) << "sample " << t;
}

TEST(SignalIrfft, Int32DividesByTheLengthIn31BitFixedPoint) {
  auto dc = irfft(8, TensorType::INT32).load();
  // 2^30 halves exactly to 2^29 ((2^30 (2^30 - 1) + 2^30) >> 31), then quarters to 2^27.
  EXPECT_EQ(run<int32_t>(*dc, {1 << 30, 0, 0, 0, 0, 0, 0, 0, 0, 0}), (std::vector<int32_t>(8, 1 << 27)));
  constexpr int kLength = 32;
  auto loaded = irfft(kLength, TensorType::INT32).load();
  const std::vector<int32_t> spectrum = test_spectrum<int32_t>(kLength, 65536);
  const std::vector<int32_t> y = run<int32_t>(*loaded, spectrum);
  const std::vector<double> expected = inverse_dft(spectrum, kLength);
  for (int t = 0; t < kLength; ++t) EXPECT_NEAR(y[t], expected[t] / kLength, 4.0) << "sample " << t;
}

TEST(SignalIrfft, Float32IsTheUnscaledInverseTransform) {
  auto dc = irfft(8, TensorType::FLOAT32).load();
  EXPECT_EQ(run<float>(*dc, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0}), (std::vector<float>(8, 1.0f)));
  constexpr int kLength = 32;
  auto loaded = irfft(kLength, TensorType::FLOAT32).load();
  const std::vector<float> spectrum = test_spectrum<float>(kLength, 0.001f);
  const std::vector<float> y = run<float>(*loaded, spectrum);
  const std::vector<double> expected = inverse_dft(spectrum, kLength);
  for (int t = 0; t < kLength; ++t) EXPECT_NEAR(y[t], expected[t], 1e-4) << "sample " << t;
}

TEST(SignalIrfft, RefusesWhatItDoesNotConvert) {
  EXPECT_NE(irfft(8, TensorType::INT8).refusal().find("T is 9; TFLM's IRFFT takes int16, int32 and float32"), std::string::npos);
  EXPECT_NE(irfft(24).refusal().find("needs a radix-3 stage"), std::string::npos);
  StreamOp short_input = irfft(8);
  short_input.tensors[0].second = {8};
  EXPECT_NE(short_input.refusal().find("input's last dimension 8 is not fft_length + 2"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
