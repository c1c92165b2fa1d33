// conv2d_s8 / conv2d_s16 / conv2d_f32 against hand-checked sums and against the tests'
// statement of TFLM's loops (padding, strides, dilation, groups, per-channel scales, zero
// points, saturation, size-1 dimensions).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "conv_models.h"

namespace grt::test {
namespace {

using S8 = ConvSpec<int8_t, int8_t, int32_t>;
using S16 = ConvSpec<int16_t, int8_t, int64_t>;
using F32 = ConvSpec<float, float, float>;

// 3x3 image 1..9, a 2x2 filter of ones, VALID: each output is the sum of a 2x2 block.
S8 block_sums_s8() {
  S8 s;
  s.input_shape = {1, 3, 3, 1};
  s.filter_shape = {1, 2, 2, 1};
  s.output_shape = {1, 2, 2, 1};
  s.filter = {1, 1, 1, 1};
  s.multipliers = {kHalf};
  s.shifts = {1};
  return s;
}
const std::vector<int8_t> kOneToNine = {1, 2, 3, 4, 5, 6, 7, 8, 9};

TEST(Conv2dS8, SumsBlocksWithIdentityScale) {
  const S8 s = block_sums_s8();
  EXPECT_EQ((run<int8_t>(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), kOneToNine)),
            (std::vector<int8_t>{12, 16, 24, 28}));
}

TEST(Conv2dS8, AddsBiasAndZeroPoints) {
  S8 s = block_sums_s8();
  s.bias = {-20};
  s.input_offset = 1;    // input zero point -1: every tap adds 1
  s.output_offset = -3;  // output zero point -3
  // (sum + 4 - 20) - 3
  EXPECT_EQ((run<int8_t>(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), kOneToNine)),
            (std::vector<int8_t>{-7, -3, 5, 9}));
}

TEST(Conv2dS8, RoundsHalvesUpward) {
  S8 s = block_sums_s8();
  s.shifts = {0};  // x / 2
  s.bias = {-25};  // sums -13, -9, -1, 3
  // TFLM's doubling high multiply rounds ties toward +infinity: -6.5 -> -6, 1.5 -> 2.
  EXPECT_EQ((run<int8_t>(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), kOneToNine)),
            (std::vector<int8_t>{-6, -4, 0, 2}));
}

TEST(Conv2dS8, SaturatesAtTheTypeAndActivationLimits) {
  S8 s = block_sums_s8();
  s.filter = {100, 100, 100, 100};
  s.bias = {-2000};  // sums 1200-2000 < -128 ... 2800-2000 > 127
  EXPECT_EQ((run<int8_t>(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), kOneToNine)),
            (std::vector<int8_t>{-128, -128, 127, 127}));
  s.activation_min = 0;  // a fused RELU at zero point 0
  s.activation_max = 100;
  EXPECT_EQ((run<int8_t>(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), kOneToNine)),
            (std::vector<int8_t>{0, 0, 100, 100}));
}

TEST(Conv2dS8, SamePaddingSkipsTapsOutsideTheImage) {
  S8 s = block_sums_s8();
  s.filter_shape = {1, 3, 3, 1};
  s.filter = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  s.output_shape = {1, 3, 3, 1};
  s.window.pad_top = 1;
  s.window.pad_left = 1;
  s.input_offset = 1;  // padding contributes nothing, not the zero point
  // 3x3 neighbourhood sums of 1..9 plus one per tap inside.
  EXPECT_EQ((run<int8_t>(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), kOneToNine)),
            (std::vector<int8_t>{12 + 4, 21 + 6, 16 + 4, 27 + 6, 45 + 9, 33 + 6, 24 + 4, 39 + 6, 28 + 4}));
}

// Shapes exercising every path of the window loops.
std::vector<Geometry> geometries() {
  return {
      {{1, 5, 5, 3}, {4, 3, 3, 3}, {1, 5, 5, 4}, {1, 1, 1, 1, 1, 1}},      // SAME, stride 1
      {{1, 7, 6, 2}, {3, 3, 3, 2}, {1, 4, 3, 3}, {2, 2, 1, 1, 1, 0}},      // SAME, stride 2 (pad 1/0)
      {{2, 6, 6, 4}, {5, 2, 2, 4}, {2, 3, 3, 5}, {2, 2, 1, 1, 0, 0}},      // VALID, stride 2, batches
      {{1, 8, 7, 2}, {2, 3, 3, 2}, {1, 8, 7, 2}, {1, 1, 2, 2, 2, 2}},      // dilation 2, SAME
      {{1, 9, 9, 1}, {2, 3, 2, 1}, {1, 3, 4, 2}, {1, 2, 3, 1, 0, 0}},      // dilation 3x1, stride 1x2
      {{1, 1, 12, 6}, {4, 1, 4, 3}, {1, 1, 5, 4}, {1, 2, 1, 1, 0, 0}},     // height 1, groups 2
      {{1, 4, 4, 1}, {1, 1, 1, 1}, {1, 4, 4, 1}, {1, 1, 1, 1, 0, 0}},      // 1x1 everything
      {{1, 3, 3, 2}, {2, 5, 5, 2}, {1, 3, 3, 2}, {1, 1, 1, 1, 2, 2}},      // filter larger than image
      // Wider channels: vector runs plus scalar tails, channel blocks of four plus leftovers.
      {{1, 5, 4, 37}, {7, 1, 1, 37}, {1, 5, 4, 7}, {1, 1, 1, 1, 0, 0}},    // 1x1 pointwise
      {{1, 6, 5, 20}, {9, 3, 3, 20}, {1, 6, 5, 9}, {1, 1, 1, 1, 1, 1}},    // 3x3 SAME, borders
      {{1, 9, 8, 16}, {8, 3, 3, 16}, {1, 5, 4, 8}, {2, 2, 1, 1, 1, 0}},    // 3x3 stride 2
      {{1, 7, 7, 17}, {5, 3, 3, 17}, {1, 7, 7, 5}, {1, 1, 2, 2, 2, 2}},    // dilation 2, runs per tap
      {{2, 10, 10, 3}, {16, 5, 5, 3}, {2, 5, 5, 16}, {2, 2, 1, 1, 1, 1}},  // first-layer shape
      {{1, 2, 3, 300}, {6, 1, 1, 300}, {1, 2, 3, 6}, {1, 1, 1, 1, 0, 0}},  // one long run
      {{1, 4, 4, 64}, {12, 3, 3, 32}, {1, 2, 2, 12}, {1, 1, 1, 1, 0, 0}},  // groups 2, wide
  };
}

std::vector<int32_t> spread_multipliers(size_t channels) {
  std::vector<int32_t> m(channels);
  for (size_t c = 0; c < channels; ++c) m[c] = int32_t(1073741824 + int64_t(c) * 97654321 % 1073741823);
  return m;
}
std::vector<int32_t> spread_shifts(size_t channels, int low, int high) {
  std::vector<int32_t> s(channels);
  for (size_t c = 0; c < channels; ++c) s[c] = low + int(c) % (high - low + 1);
  return s;
}

// Sums grow with the filter's size: scale them down so some outputs stay unclamped.
int extra_shift(const Geometry& g) {
  const int64_t taps = g.filter[1] * g.filter[2] * g.filter[3];
  int extra = 0;
  while ((taps >> extra) > 27) ++extra;
  return extra;
}

const int32_t kInputOffsets[4] = {5, 0, 128, -127};

TEST(Conv2dS8, MatchesTflmLoopsOverGeometries) {
  uint32_t seed = 1;
  for (const Geometry& g : geometries()) {
    S8 s = with_geometry<S8>(g);
    const size_t channels = size_t(g.output[3]);
    s.filter = pattern<int8_t>(elements(g.filter), seed++, -127, 127);
    s.bias = pattern<int32_t>(channels, seed++, -3000, 3000);
    s.multipliers = spread_multipliers(channels);
    s.shifts = spread_shifts(channels, -11 - extra_shift(g), -8 - extra_shift(g));  // per-channel scales
    s.input_offset = kInputOffsets[seed % 4];  // zero, non-zero and both extremes
    s.output_offset = -7;
    const auto input = pattern<int8_t>(elements(g.input), seed++, -128, 127);
    const ref::Nhwc in(g.input), f(g.filter), out(g.output);
    const auto sums = ref::conv2d_sums<int64_t>(in, f, out, g.window, [&](int i, int k) {
      return int64_t(s.filter[size_t(k)]) * (int64_t(input[size_t(i)]) + s.input_offset);
    });
    const auto expected = finish_quantized(s, sums, false);
    const auto got = run<int8_t>(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), input);
    EXPECT_EQ(got, expected) << "input " << ::testing::PrintToString(g.input) << " filter "
                             << ::testing::PrintToString(g.filter);
    EXPECT_GT(std::count_if(got.begin(), got.end(), [](int8_t v) { return v > -128 && v < 127; }), 0);
  }
}

// The kernel's requantization against TFLM's statement of it over the whole shift range
// (left shifts included), edge multipliers (0, 2^30, INT32_MAX), both signs of every
// intermediate and exact halves: a 1x1 filter of ones makes each sum input + offset + bias.
TEST(Conv2dS8, RequantizesLikeTflmOverEveryShift) {
  const std::vector<int32_t> shifts = {-31, -30, -24, -17, -9, -2, -1, 0, 1, 2, 5, 9, 17, 24, 30, 31};
  const std::vector<int32_t> multipliers = {0, 1, 1073741824, INT32_MAX, 1518500250, 1073741825, 2147483000, 1234567891};
  uint32_t seed = 900;
  for (int32_t shift : shifts) {
    for (int32_t multiplier : multipliers) {
      S8 s;
      const int64_t channels = 9;  // two blocks of four and a leftover
      s.input_shape = {1, 4, 64, 1};
      s.filter_shape = {channels, 1, 1, 1};
      s.output_shape = {1, 4, 64, channels};
      s.filter = std::vector<int8_t>(size_t(channels), 1);
      // Sums near the value that requantizes to about +-100, and tiny ones around 0.
      const double scale = double(multiplier) / 2147483648.0 * std::ldexp(1.0, shift);
      const double target = scale > 0 ? std::min(100.0 / scale, 2.0e9) : 1000.0;
      s.bias = pattern<int32_t>(size_t(channels), seed++, -target, target);
      s.bias[0] = 0;
      s.multipliers = std::vector<int32_t>(size_t(channels), multiplier);
      s.shifts = std::vector<int32_t>(size_t(channels), shift);
      s.input_offset = 3;
      s.output_offset = -2;
      const auto input = pattern<int8_t>(256, seed++, -128, 127);
      std::vector<int64_t> sums(size_t(256 * channels));
      for (size_t i = 0; i < sums.size(); ++i) sums[i] = int64_t(input[i / size_t(channels)]) + s.input_offset;
      const auto expected = finish_quantized(s, sums, false);
      const auto got = run<int8_t>(conv_model("conv2d_s8", Layout::kQuantizedWithOffsets, s), input);
      EXPECT_EQ(got, expected) << "shift " << shift << " multiplier " << multiplier;
    }
  }
}

TEST(Conv2dS16, UsesTheSixtyFourBitBiasAndRequantization) {
  S16 s;
  s.input_shape = {1, 1, 2, 1};
  s.filter_shape = {1, 1, 1, 1};
  s.output_shape = {1, 1, 2, 1};
  s.filter = {127};
  s.bias = {int64_t{3} << 33};  // beyond int32
  s.multipliers = {kHalf};
  s.shifts = {-20};  // (sum * 2^14 + 2^34) >> 35: sum / 2^21, rounded
  // 3 * 2^12 for x = 0; (3 * 2^33 + 127 * 32767) / 2^21 = 12290.48 for x = 32767.
  EXPECT_EQ((run<int16_t>(conv_model("conv2d_s16", Layout::kQuantized, s), std::vector<int16_t>{0, 32767})),
            (std::vector<int16_t>{12288, 12290}));
  s.filter = {1};
  s.shifts = {1};  // identity
  s.bias = {-40000};
  EXPECT_EQ((run<int16_t>(conv_model("conv2d_s16", Layout::kQuantized, s), std::vector<int16_t>{0, 32767})),
            (std::vector<int16_t>{-32768, -7233}));
}

TEST(Conv2dS16, MatchesTflmLoopsOverGeometries) {
  uint32_t seed = 100;
  for (const Geometry& g : geometries()) {
    S16 s = with_geometry<S16>(g);
    const size_t channels = size_t(g.output[3]);
    s.filter = pattern<int8_t>(elements(g.filter), seed++, -127, 127);
    s.bias = pattern<int64_t>(channels, seed++, -3000000, 3000000);
    s.multipliers = spread_multipliers(channels);
    s.shifts = spread_shifts(channels, -16 - extra_shift(g), -13 - extra_shift(g));
    s.activation_min = -30000;
    s.activation_max = 32000;
    const auto input = pattern<int16_t>(elements(g.input), seed++, -32768, 32767);
    const ref::Nhwc in(g.input), f(g.filter), out(g.output);
    const auto sums = ref::conv2d_sums<int64_t>(in, f, out, g.window, [&](int i, int k) {
      return int64_t(s.filter[size_t(k)]) * int64_t(input[size_t(i)]);
    });
    const auto expected = finish_quantized(s, sums, true);
    const auto got = run<int16_t>(conv_model("conv2d_s16", Layout::kQuantized, s), input);
    EXPECT_EQ(got, expected) << "input " << ::testing::PrintToString(g.input);
    // The outputs are not all clamped: the comparison means something.
    EXPECT_GT(std::count_if(got.begin(), got.end(), [](int16_t v) { return v > -30000 && v < 32000; }), 0);
  }
}

TEST(Conv2dF32, SumsBlocksAndAppliesActivation) {
  F32 s;
  s.input_shape = {1, 3, 3, 1};
  s.filter_shape = {1, 2, 2, 1};
  s.output_shape = {1, 2, 2, 1};
  s.filter = {0.5f, 0.5f, 0.5f, 0.5f};
  s.bias = {-10.0f};
  const std::vector<float> input = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ((run<float>(conv_model("conv2d_f32", Layout::kFloat, s), input)), (std::vector<float>{-4, -2, 2, 4}));
  s.float_min = 0.0;  // RELU6
  s.float_max = 6.0;
  s.bias = {-6.0f};
  EXPECT_EQ((run<float>(conv_model("conv2d_f32", Layout::kFloat, s), input)), (std::vector<float>{0, 2, 6, 6}));
}

// The kernel may add the products in another order than TFLM (partial sums per vector
// lane), so results agree to rounding: relative to the sum of the products' magnitudes.
TEST(Conv2dF32, MatchesTflmLoopsToRounding) {
  uint32_t seed = 200;
  for (const Geometry& g : geometries()) {
    F32 s = with_geometry<F32>(g);
    s.filter = pattern<float>(elements(g.filter), seed++, -1.3, 1.1);
    if (seed % 2 == 0) s.bias = pattern<float>(size_t(g.output[3]), seed++, -0.5, 0.5);
    const auto input = pattern<float>(elements(g.input), seed++, -2.0, 2.0);
    const ref::Nhwc in(g.input), f(g.filter), out(g.output);
    const auto sums = ref::conv2d_sums<float>(in, f, out, g.window,
                                              [&](int i, int k) { return input[size_t(i)] * s.filter[size_t(k)]; });
    const auto magnitudes = ref::conv2d_sums<double>(in, f, out, g.window, [&](int i, int k) {
      return std::fabs(double(input[size_t(i)]) * double(s.filter[size_t(k)]));
    });
    const auto expected = finish_float(s, sums);
    const auto got = run<float>(conv_model("conv2d_f32", Layout::kFloat, s), input);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      // A wrong or missing tap would be off by about magnitude / taps, far beyond this.
      const double bound = 1e-5 * (magnitudes[i] + 1.0);
      EXPECT_NEAR(got[i], expected[i], bound) << "output " << i << " input " << ::testing::PrintToString(g.input);
    }
  }
}

}  // namespace
}  // namespace grt::test
