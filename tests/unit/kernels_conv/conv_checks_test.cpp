// The conv kernels' init checks refuse arguments that would make run() read or write out
// of bounds, or compute nonsense: wrong dtypes, ranks, counts, inconsistent shapes, bad
// window parameters and requantization arrays.
#include <gtest/gtest.h>

#include <functional>

#include "conv_models.h"

namespace grt::test {
namespace {

using S8 = ConvSpec<int8_t, int8_t, int32_t>;
using S16 = ConvSpec<int16_t, int8_t, int64_t>;
using F32 = ConvSpec<float, float, float>;

S8 valid_s8() {
  S8 s;
  s.input_shape = {1, 4, 4, 2};
  s.filter_shape = {3, 3, 3, 2};
  s.output_shape = {1, 2, 2, 3};
  s.filter.assign(54, 1);
  s.bias = {1, 2, 3};
  s.multipliers = {kHalf, kHalf, kHalf};
  s.shifts = {1, 1, 1};
  return s;
}

// Init fails with a message containing `what`.
void expect_refused(const tools::ModelDef& model, const std::string& what) {
  const std::string error = init_error(model);
  EXPECT_NE(error.find(what), std::string::npos) << "error was: '" << error << "'";
}

TEST(ConvChecks, AcceptTheValidModels) {
  EXPECT_EQ(init_error(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, valid_s8())), "");
  S8 depthwise = valid_s8();
  depthwise.filter_shape = {1, 3, 3, 4};
  depthwise.filter.assign(36, 1);
  depthwise.output_shape = {1, 2, 2, 4};
  depthwise.bias = {1, 2, 3, 4};
  depthwise.multipliers.assign(4, kHalf);
  depthwise.shifts.assign(4, 1);
  EXPECT_EQ(init_error(conv_model("depthwise_conv2d_s8", Layout::kQuantizedWithOffsets, depthwise)), "");
}

TEST(ConvChecks, RefuseWrongDtypes) {
  // An int8 kernel given int16 activations.
  const S8 s8 = valid_s8();
  S16 s16;
  s16.input_shape = s8.input_shape;
  s16.filter_shape = s8.filter_shape;
  s16.output_shape = s8.output_shape;
  s16.filter = s8.filter;
  s16.multipliers = s8.multipliers;
  s16.shifts = s8.shifts;
  s16.activation_min = -128;
  s16.activation_max = 127;
  expect_refused(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, ConvSpec<int16_t, int8_t, int32_t>{
                                                                          s16.input_shape, s16.filter_shape,
                                                                          s16.output_shape, {}, s16.filter, {},
                                                                          s16.multipliers, s16.shifts}),
                 "wrong dtype");
  // An int16 kernel given an int32 bias.
  ConvSpec<int16_t, int8_t, int32_t> narrow_bias{s16.input_shape, s16.filter_shape, s16.output_shape, {}, s16.filter,
                                                 {1, 2, 3}, s16.multipliers, s16.shifts};
  expect_refused(conv_model("conv2d_s16", Layout::kQuantized, narrow_bias), "wrong dtype");
  // A float kernel given int8 data.
  expect_refused(conv_model("conv2d_f32", Layout::kFloat, s8), "wrong dtype");
}

TEST(ConvChecks, RefuseInconsistentShapes) {
  const std::vector<std::pair<std::function<void(S8&)>, std::string>> breaks = {
      {[](S8& s) { s.output_shape = {2, 2, 2, 3}; }, "batches"},
      {[](S8& s) { s.output_shape = {1, 2, 2, 4}; s.multipliers.push_back(kHalf); s.shifts.push_back(1); s.bias.push_back(0); },
       "filter count"},
      {[](S8& s) { s.input_shape = {1, 4, 4, 3}; }, "filter depth"},
      {[](S8& s) { s.bias = {1, 2}; }, "bias length"},
      {[](S8& s) { s.multipliers = {kHalf, kHalf}; }, "one entry per output channel"},
      {[](S8& s) { s.input_shape = {1, 16, 2}; }, "wrong rank"},
  };
  for (const auto& [mutate, what] : breaks) {
    S8 s = valid_s8();
    mutate(s);
    expect_refused(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), what);
  }
}

TEST(ConvChecks, RefuseBadWindowsOffsetsAndRanges) {
  const std::vector<std::pair<std::function<void(S8&)>, std::string>> breaks = {
      {[](S8& s) { s.window.stride_h = 0; }, "argument 6 is out of range"},
      {[](S8& s) { s.window.dilation_w = -1; }, "argument 9 is out of range"},
      {[](S8& s) { s.window.pad_left = -1; }, "argument 11 is out of range"},
      {[](S8& s) { s.window.pad_top = 1 << 20; }, "argument 10 is out of range"},
      {[](S8& s) { s.input_offset = 129; }, "argument 12 is out of range"},
      {[](S8& s) { s.activation_min = 10; s.activation_max = 9; }, "min exceeds max"},
      {[](S8& s) { s.activation_max = 128; }, "argument 15 is out of range"},
      {[](S8& s) { s.shifts = {1, 32, 1}; }, "shift is out of range"},
      {[](S8& s) { s.multipliers = {kHalf, -1, kHalf}; }, "multiplier is negative"},
  };
  for (const auto& [mutate, what] : breaks) {
    S8 s = valid_s8();
    mutate(s);
    expect_refused(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), what);
  }
}

TEST(ConvChecks, RefuseWrongArgumentCounts) {
  tools::ModelDef model = conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, valid_s8());
  model.nodes[0].args.pop_back();
  expect_refused(model, "wrong number of arguments");
}

TEST(ConvChecks, RefuseRequantizationThatIsNotConstant) {
  // The shifts as a model input: their values cannot be checked at init.
  tools::ModelDef model = conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, valid_s8());
  const uint32_t runtime_shifts = model.add_activation("shifts", tools::DType::Int32, {3});
  model.inputs.push_back(runtime_shifts);
  model.nodes[0].args[5] = tools::ArgDef::input(runtime_shifts);
  expect_refused(model, "must be constants");
}

TEST(ConvChecks, SixteenBitShiftsStayInTflmRange) {
  S16 s;
  s.input_shape = {1, 1, 1, 1};
  s.filter_shape = {1, 1, 1, 1};
  s.output_shape = {1, 1, 1, 1};
  s.filter = {1};
  s.multipliers = {kHalf};
  s.shifts = {8};
  expect_refused(conv_model("conv2d_s16", Layout::kQuantized, s), "shift is out of range");
  expect_refused(conv_model("transpose_conv_s16", Layout::kTransposed, s), "shift is out of range");
  s.shifts = {7};
  EXPECT_EQ(init_error(conv_model("transpose_conv_s16", Layout::kTransposed, s)), "");
}

TEST(ConvChecks, DepthwiseNeedsAMultipleOfTheInputChannels) {
  S8 s = valid_s8();
  s.filter_shape = {1, 3, 3, 3};
  s.filter.assign(27, 1);
  expect_refused(conv_model("depthwise_conv2d_s8", Layout::kQuantizedWithOffsets, s), "not a multiple");
  s.filter_shape = {2, 3, 3, 3};
  s.filter.assign(54, 1);
  expect_refused(conv_model("depthwise_conv2d_s8", Layout::kQuantizedWithOffsets, s), "first dimension");
}

TEST(ConvChecks, TransposeConvFilterMatchesInputChannels) {
  S16 s;
  s.input_shape = {1, 2, 2, 3};
  s.filter_shape = {2, 3, 3, 2};
  s.output_shape = {1, 4, 4, 2};
  s.filter.assign(36, 1);
  s.multipliers = {kHalf, kHalf};
  s.shifts = {1, 1};
  expect_refused(conv_model("transpose_conv_s16", Layout::kTransposed, s), "filter depth");
}

TEST(ConvChecks, FloatActivationBoundsAreOrderedFloats) {
  F32 s;
  s.input_shape = {1, 1, 1, 1};
  s.filter_shape = {1, 1, 1, 1};
  s.output_shape = {1, 1, 1, 1};
  s.filter = {1.0f};
  s.float_min = 6.0;
  s.float_max = 0.0;
  expect_refused(conv_model("conv2d_f32", Layout::kFloat, s), "min exceeds max");
  s.float_min = -1e300;
  s.float_max = 0.0;
  expect_refused(conv_model("depthwise_conv2d_f32", Layout::kFloat, s), "not a float");
}

}  // namespace
}  // namespace grt::test
