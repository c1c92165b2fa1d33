// depthwise_conv2d_s8 / depthwise_conv2d_f32: depth multipliers, padding, strides,
// dilation, zero points and per-channel scales, against hand-checked sums and the tests'
// statement of TFLM's loops.
#include <gtest/gtest.h>

#include "conv_models.h"

namespace grt::test {
namespace {

using S8 = ConvSpec<int8_t, int8_t, int32_t>;
using F32 = ConvSpec<float, float, float>;

TEST(DepthwiseConv2dS8, EachOutputChannelFiltersItsInputChannel) {
  // Two input channels, depth multiplier 2: output channel 2c+m filters input channel c.
  S8 s;
  s.input_shape = {1, 2, 2, 2};
  s.filter_shape = {1, 2, 2, 4};
  s.output_shape = {1, 1, 1, 4};
  // Per tap (y, x): weights for output channels 0..3.
  s.filter = {1, 2, 0, 0,  //
              1, 2, 0, 0,  //
              0, 0, 1, -1,  //
              0, 0, 1, -1};
  s.multipliers = {kHalf, kHalf, kHalf, kHalf};
  s.shifts = {1, 1, 1, 0};  // channel 3 halved
  s.bias = {0, 1, 0, 0};
  // Channel 0 of the image: 1, 2 / 3, 4; channel 1: 10, 20 / 30, 40.
  const std::vector<int8_t> input = {1, 10, 2, 20, 3, 30, 4, 40};
  // ch0: 1+2 = 3; ch1: 2*(1+2) + 1 = 7; ch2: 30+40 = 70; ch3: -(30+40)/2 = -35.
  EXPECT_EQ((run<int8_t>(conv_model("depthwise_conv2d_s8", Layout::kQuantizedWithOffsets, s), input)),
            (std::vector<int8_t>{3, 7, 70, -35}));
}

TEST(DepthwiseConv2dS8, PaddingIgnoresTheZeroPoint) {
  S8 s;
  s.input_shape = {1, 1, 3, 1};
  s.filter_shape = {1, 1, 3, 1};
  s.output_shape = {1, 1, 3, 1};
  s.window.pad_left = 1;
  s.filter = {1, 1, 1};
  s.multipliers = {kHalf};
  s.shifts = {1};
  s.input_offset = 10;  // input zero point -10
  s.output_offset = 1;
  s.activation_min = -128;
  s.activation_max = 30;
  // (1+2 + 2*10) + 1, (1+2+3 + 3*10) + 1 = 37 clamped to 30, (2+3 + 2*10) + 1
  EXPECT_EQ((run<int8_t>(conv_model("depthwise_conv2d_s8", Layout::kQuantizedWithOffsets, s),
                         std::vector<int8_t>{1, 2, 3})),
            (std::vector<int8_t>{24, 30, 26}));
}

std::vector<Geometry> geometries() {
  return {
      {{1, 5, 5, 3}, {1, 3, 3, 3}, {1, 5, 5, 3}, {1, 1, 1, 1, 1, 1}},    // SAME
      {{1, 7, 6, 2}, {1, 3, 3, 6}, {1, 4, 3, 6}, {2, 2, 1, 1, 1, 0}},    // multiplier 3, stride 2
      {{2, 6, 6, 4}, {1, 2, 2, 4}, {2, 3, 3, 4}, {2, 2, 1, 1, 0, 0}},    // VALID, batches
      {{1, 8, 7, 2}, {1, 3, 3, 4}, {1, 8, 7, 4}, {1, 1, 2, 2, 2, 2}},    // dilation 2
      {{1, 49, 10, 1}, {1, 10, 4, 8}, {1, 25, 5, 8}, {2, 2, 1, 1, 4, 1}},  // one input channel
      {{1, 1, 1, 5}, {1, 3, 3, 5}, {1, 1, 1, 5}, {1, 1, 1, 1, 1, 1}},    // 1x1 image
  };
}

TEST(DepthwiseConv2dS8, MatchesTflmLoopsOverGeometries) {
  uint32_t seed = 300;
  for (const Geometry& g : geometries()) {
    S8 s = with_geometry<S8>(g);
    const size_t channels = size_t(g.output[3]);
    s.filter = pattern<int8_t>(elements(g.filter), seed++, -127, 127);
    s.bias = pattern<int32_t>(channels, seed++, -2000, 2000);
    for (size_t c = 0; c < channels; ++c) {
      s.multipliers.push_back(int32_t(1200000000 + int64_t(c) * 61234567 % 900000000));
      s.shifts.push_back(-7 - int(c % 3));
    }
    s.input_offset = -3;
    s.output_offset = 4;
    const auto input = pattern<int8_t>(elements(g.input), seed++, -128, 127);
    const ref::Nhwc in(g.input), f(g.filter), out(g.output);
    const auto sums = ref::depthwise_sums<int64_t>(in, f, out, g.window, [&](int i, int k) {
      return int64_t(s.filter[size_t(k)]) * (int64_t(input[size_t(i)]) + s.input_offset);
    });
    const auto got = run<int8_t>(conv_model("depthwise_conv2d_s8", Layout::kQuantizedWithOffsets, s), input);
    EXPECT_EQ(got, finish_quantized(s, sums, false)) << "input " << ::testing::PrintToString(g.input);
    EXPECT_GT(std::count_if(got.begin(), got.end(), [](int8_t v) { return v > -128 && v < 127; }), 0);
  }
}

TEST(DepthwiseConv2dF32, MatchesTflmLoopsBitForBit) {
  uint32_t seed = 400;
  for (const Geometry& g : geometries()) {
    F32 s = with_geometry<F32>(g);
    s.filter = pattern<float>(elements(g.filter), seed++, -1.5, 1.2);
    if (seed % 2 == 0) s.bias = pattern<float>(size_t(g.output[3]), seed++, -0.5, 0.5);
    s.float_min = -1.0;
    s.float_max = 1.0;  // RELU_N1_TO_1
    const auto input = pattern<float>(elements(g.input), seed++, -1.0, 1.0);
    const ref::Nhwc in(g.input), f(g.filter), out(g.output);
    const auto sums = ref::depthwise_sums<float>(in, f, out, g.window,
                                                 [&](int i, int k) { return input[size_t(i)] * s.filter[size_t(k)]; });
    const auto expected = finish_float(s, sums);
    const auto got = run<float>(conv_model("depthwise_conv2d_f32", Layout::kFloat, s), input);
    ASSERT_EQ(got.size(), expected.size());
    EXPECT_EQ(0, std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)))
        << "input " << ::testing::PrintToString(g.input);
  }
}

}  // namespace
}  // namespace grt::test
