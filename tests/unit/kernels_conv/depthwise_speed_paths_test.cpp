// The depth-multiplier-1 fast path of depthwise_conv2d_s8 / _f32 (kernels/src/conv/
// depthwise_channels.h: channel blocks of 16, then 8, then single channels, taps clipped at
// the borders, per-block requantization constants) against the tests' statement of TFLM's
// loops: channel counts that fill, split and miss the blocks, borders, strides, dilation,
// extreme offsets and weights, left and right shifts, saturating outputs; and multipliers
// other than 1, which take the general loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "conv_models.h"

namespace grt::test {
namespace {

using S8 = ConvSpec<int8_t, int8_t, int32_t>;
using F32 = ConvSpec<float, float, float>;

struct Case {
  std::vector<int64_t> input, filter, output;
  ref::Window window;
};

std::vector<Case> cases() {
  return {
      {{1, 6, 5, 16}, {1, 3, 3, 16}, {1, 6, 5, 16}, {1, 1, 1, 1, 1, 1}},    // one 16-block, SAME borders
      {{1, 5, 4, 24}, {1, 3, 3, 24}, {1, 5, 4, 24}, {1, 1, 1, 1, 1, 1}},    // 16 + 8
      {{1, 5, 5, 25}, {1, 3, 3, 25}, {1, 3, 3, 25}, {2, 2, 1, 1, 1, 1}},    // 16 + 8 + 1, stride 2
      {{2, 7, 6, 37}, {1, 3, 3, 37}, {2, 3, 2, 37}, {2, 2, 1, 1, 0, 0}},    // 32 + 1 + 1..., VALID, batches
      {{1, 4, 4, 8}, {1, 3, 3, 8}, {1, 4, 4, 8}, {1, 1, 1, 1, 1, 1}},       // one 8-block
      {{1, 4, 5, 3}, {1, 3, 3, 3}, {1, 4, 5, 3}, {1, 1, 1, 1, 1, 1}},       // single channels only
      {{1, 9, 8, 17}, {1, 3, 3, 17}, {1, 9, 8, 17}, {1, 1, 2, 2, 2, 2}},    // dilation 2
      {{1, 3, 2, 16}, {1, 5, 5, 16}, {1, 3, 2, 16}, {1, 1, 1, 1, 2, 2}},    // window wider than the image
      {{1, 10, 9, 32}, {1, 1, 1, 32}, {1, 5, 5, 32}, {2, 2, 1, 1, 0, 0}},   // 1x1 taps
      {{1, 6, 6, 4}, {1, 3, 3, 8}, {1, 6, 6, 8}, {1, 1, 1, 1, 1, 1}},       // multiplier 2: general loop
      {{1, 5, 5, 8}, {1, 3, 3, 24}, {1, 3, 3, 24}, {2, 2, 1, 1, 1, 1}},     // multiplier 3: general loop
  };
}

std::vector<int8_t> expected_s8(const S8& s, const Case& c, const std::vector<int8_t>& input) {
  const ref::Nhwc in(c.input), f(c.filter), out(c.output);
  const auto sums = ref::depthwise_sums<int64_t>(in, f, out, c.window, [&](int i, int k) {
    return int64_t(s.filter[size_t(k)]) * (int64_t(input[size_t(i)]) + s.input_offset);
  });
  return finish_quantized(s, sums, false);
}

S8 spec_s8(const Case& c, uint32_t seed) {
  S8 s;
  s.input_shape = c.input;
  s.filter_shape = c.filter;
  s.output_shape = c.output;
  s.window = c.window;
  const size_t channels = size_t(c.output[3]);
  s.filter = pattern<int8_t>(elements(c.filter), seed, -128, 127);
  s.bias = pattern<int32_t>(channels, seed + 1, -5000, 5000);
  for (size_t ch = 0; ch < channels; ++ch) {
    s.multipliers.push_back(int32_t(1073741824 + int64_t(ch) * 48271 % 1073741823));
    s.shifts.push_back(-9 + int(ch % 4));
  }
  return s;
}

TEST(DepthwiseSpeedPathsS8, MatchesTflmLoopsOverBlocksAndBorders) {
  uint32_t seed = 900;
  for (const Case& c : cases()) {
    for (int32_t input_offset : {0, -5, 128, -127}) {
      S8 s = spec_s8(c, seed);
      s.input_offset = input_offset;
      s.output_offset = -3;
      const auto input = pattern<int8_t>(elements(c.input), seed + 2, -128, 127);
      const auto got = run<int8_t>(conv_model("depthwise_conv2d_s8", Layout::kQuantizedWithOffsets, s), input);
      EXPECT_EQ(got, expected_s8(s, c, input))
          << "input " << ::testing::PrintToString(c.input) << " offset " << input_offset;
      seed += 3;
    }
  }
}

// Largest products: (x + offset) = 255 or -255 against w = -128, the int16 product's limits;
// left shifts, a clamp inside the range, and no bias.
TEST(DepthwiseSpeedPathsS8, ExtremeProductsShiftsAndClamps) {
  uint32_t seed = 1200;
  for (const Case& c : cases()) {
    for (int variant = 0; variant < 3; ++variant) {
      S8 s = spec_s8(c, seed);
      std::vector<int8_t> input(elements(c.input), variant == 1 ? int8_t(-128) : int8_t(127));
      if (variant == 2) input = pattern<int8_t>(elements(c.input), seed + 5, -128, 127);
      std::fill(s.filter.begin(), s.filter.end(), int8_t(variant == 2 ? 127 : -128));
      s.input_offset = variant == 1 ? -127 : 128;
      if (variant == 0) s.bias.clear();
      for (size_t ch = 0; ch < s.shifts.size(); ++ch) {
        s.shifts[ch] = variant == 2 ? int(ch % 3) : -int(10 + ch % 12);  // left shifts wrap like TFLM's
        s.multipliers[ch] = variant == 2 ? int32_t(0x7FFFFFFF - int32_t(ch)) : s.multipliers[ch];
      }
      s.output_offset = variant == 1 ? 127 : -128;
      s.activation_min = -100;
      s.activation_max = 90;
      const auto got = run<int8_t>(conv_model("depthwise_conv2d_s8", Layout::kQuantizedWithOffsets, s), input);
      EXPECT_EQ(got, expected_s8(s, c, input)) << "input " << ::testing::PrintToString(c.input) << " variant " << variant;
      seed += 7;
    }
  }
}

TEST(DepthwiseSpeedPathsF32, MatchesTflmLoopsBitForBit) {
  uint32_t seed = 1500;
  for (const Case& c : cases()) {
    for (bool with_bias : {false, true}) {
      F32 s;
      s.input_shape = c.input;
      s.filter_shape = c.filter;
      s.output_shape = c.output;
      s.window = c.window;
      s.filter = pattern<float>(elements(c.filter), seed, -1.5, 1.2);
      if (with_bias) s.bias = pattern<float>(size_t(c.output[3]), seed + 1, -0.5, 0.5);
      s.float_min = with_bias ? -1.0 : double(std::numeric_limits<float>::lowest());
      s.float_max = with_bias ? 1.0 : double(std::numeric_limits<float>::max());
      const auto input = pattern<float>(elements(c.input), seed + 2, -1.0, 1.0);
      const ref::Nhwc in(c.input), f(c.filter), out(c.output);
      const auto sums = ref::depthwise_sums<float>(in, f, out, c.window,
                                                   [&](int i, int k) { return input[size_t(i)] * s.filter[size_t(k)]; });
      const auto expected = finish_float(s, sums);
      const auto got = run<float>(conv_model("depthwise_conv2d_f32", Layout::kFloat, s), input);
      ASSERT_EQ(got.size(), expected.size());
      EXPECT_EQ(0, std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)))
          << "input " << ::testing::PrintToString(c.input);
      seed += 3;
    }
  }
}

}  // namespace
}  // namespace grt::test
