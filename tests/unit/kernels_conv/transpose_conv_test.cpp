// transpose_conv_s16: the kernel gathers, TFLM scatters into int64 scratch; both must give
// the same sums for every stride, padding and filter size.
#include <gtest/gtest.h>

#include "conv_models.h"

namespace grt::test {
namespace {

using S16 = ConvSpec<int16_t, int8_t, int64_t>;

TEST(TransposeConvS16, OverlappingTapsAdd) {
  // Input 1, 2 through filter 1, 1, 1 at stride 2: [1 1 1 . .] + [. . 2 2 2].
  S16 s;
  s.input_shape = {1, 1, 2, 1};
  s.filter_shape = {1, 1, 3, 1};
  s.output_shape = {1, 1, 5, 1};
  s.window.stride_w = 2;
  s.filter = {1, 1, 1};
  s.multipliers = {kHalf};
  s.shifts = {1};
  EXPECT_EQ((run<int16_t>(conv_model("transpose_conv_s16", Layout::kTransposed, s), std::vector<int16_t>{1, 2})),
            (std::vector<int16_t>{1, 1, 3, 2, 2}));
  s.window.pad_left = 1;  // SAME-like: the first output column is cut off
  s.output_shape = {1, 1, 4, 1};
  s.bias = {100};
  EXPECT_EQ((run<int16_t>(conv_model("transpose_conv_s16", Layout::kTransposed, s), std::vector<int16_t>{1, 2})),
            (std::vector<int16_t>{101, 103, 102, 102}));
}

TEST(TransposeConvS16, SaturatesAndClamps) {
  S16 s;
  s.input_shape = {1, 1, 1, 1};
  s.filter_shape = {2, 1, 1, 1};
  s.output_shape = {1, 1, 1, 2};
  s.filter = {127, -127};
  s.multipliers = {kHalf, kHalf};
  s.shifts = {1, 1};
  s.activation_min = -1000;
  EXPECT_EQ((run<int16_t>(conv_model("transpose_conv_s16", Layout::kTransposed, s), std::vector<int16_t>{32767})),
            (std::vector<int16_t>{32767, -1000}));
}

// Window dilation is unused by transposed convolution.
std::vector<Geometry> geometries() {
  return {
      {{1, 1, 5, 64}, {64, 3, 4, 64}, {1, 3, 12, 64}, {1, 2, 1, 1, 0, 0}},  // seanet_transpose_conv0
      {{1, 3, 3, 2}, {3, 3, 3, 2}, {1, 6, 6, 3}, {2, 2, 1, 1, 0, 0}},      // SAME, stride 2 (pad 0 / 1 extra)
      {{1, 3, 3, 2}, {3, 3, 3, 2}, {1, 5, 5, 3}, {2, 2, 1, 1, 1, 1}},      // padded
      {{2, 2, 3, 3}, {2, 2, 5, 3}, {2, 6, 11, 2}, {3, 3, 1, 1, 1, 2}},     // stride 3, batches
      {{1, 4, 4, 1}, {1, 1, 1, 1}, {1, 7, 7, 1}, {2, 2, 1, 1, 0, 0}},      // 1x1 filter leaves holes
      {{1, 2, 2, 2}, {2, 4, 4, 2}, {1, 3, 3, 2}, {1, 1, 1, 1, 2, 2}},      // output smaller than the spread
  };
}

TEST(TransposeConvS16, MatchesTflmScatterOverGeometries) {
  uint32_t seed = 500;
  for (const Geometry& g : geometries()) {
    S16 s = with_geometry<S16>(g);
    const size_t channels = size_t(g.output[3]);
    s.filter = pattern<int8_t>(elements(g.filter), seed++, -127, 127);
    if (seed % 2 == 0) s.bias = pattern<int64_t>(channels, seed++, -5000000, 5000000);
    for (size_t c = 0; c < channels; ++c) {
      s.multipliers.push_back(int32_t(1100000000 + int64_t(c) * 71234567 % 1000000000));
      s.shifts.push_back(-12 - int(c % 4));
    }
    const auto input = pattern<int16_t>(elements(g.input), seed++, -32768, 32767);
    const ref::Nhwc in(g.input), f(g.filter), out(g.output);
    const auto sums = ref::transpose_conv_sums<int64_t>(
        in, f, out, g.window, [&](int i, int k) { return int64_t(s.filter[size_t(k)]) * int64_t(input[size_t(i)]); });
    const auto got = run<int16_t>(conv_model("transpose_conv_s16", Layout::kTransposed, s), input);
    EXPECT_EQ(got, finish_quantized(s, sums, true)) << "input " << ::testing::PrintToString(g.input);
    EXPECT_GT(std::count_if(got.begin(), got.end(), [](int16_t v) { return v > -32768 && v < 32767 && v != 0; }), 0);
  }
}

}  // namespace
}  // namespace grt::test
