// The Cortex-M DSP paths of conv2d_s8 and depthwise_conv2d_s8 (kernels/src/conv/*_dsp.h) run
// on the host: GRT_DSP_EMULATE turns each DSP instruction into its C statement
// (dsp_intrinsics.h), so the loops, patch gathering, pairing of pixels and filters and the
// requantization are checked here against the portable kernel (through a one-node model) and
// the tests' statement of TFLM's loops, on random shapes. Under qemu the firmware images
// check the same code with the real instructions against TFLM's outputs.
#define GRT_DSP_EMULATE 1

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "conv/conv2d_dsp.h"
#include "conv/depthwise_multiplied_dsp.h"
#include "conv_models.h"

namespace grt::test {
namespace {

namespace dsp = grt::kernels::dsp;
namespace conv = grt::kernels::conv;
using S8 = ConvSpec<int8_t, int8_t, int32_t>;

TEST(DspIntrinsics, MatchTheInstructionsDefinitions) {
  const uint32_t v = 0x80FF7F01u;  // bytes 0x01, 0x7F, 0xFF (-1), 0x80 (-128)
  EXPECT_EQ(dsp::sxtb16(v), 0xFFFF0001u);        // (1, -1)
  EXPECT_EQ(dsp::sxtb16_ror8(v), 0xFF80007Fu);   // (127, -128)
  EXPECT_EQ(dsp::pair_of(128), 0x00800080u);
  EXPECT_EQ(dsp::pair_of(-127), 0xFF81FF81u);
  EXPECT_EQ(dsp::sxtab16(dsp::pair_of(128), v), 0x007F0081u);       // (129, 127)
  EXPECT_EQ(dsp::sxtab16_ror8(dsp::pair_of(128), v), 0x000000FFu);  // (255, 0)
  EXPECT_EQ(dsp::sxtab16(dsp::pair_of(-127), v), 0xFF80FF82u);      // (-126, -128)
  // (255 * -128) + (-255 * 127) on top of 7, and the single-half products.
  const uint32_t a = 0xFF0100FFu;  // (255, -255)
  const uint32_t b = 0x007FFF80u;  // (-128, 127)
  EXPECT_EQ(int32_t(dsp::smlad(a, b, 7u)), 7 + 255 * -128 + -255 * 127);
  EXPECT_EQ(int32_t(dsp::smlabb(a, b, 7u)), 7 + 255 * -128);
  EXPECT_EQ(int32_t(dsp::smlatt(a, b, 7u)), 7 + -255 * 127);
  // Sums wrap as the portable path's uint32 sums do.
  EXPECT_EQ(dsp::smlad(a, b, 0xFFFFFFFFu), 0xFFFFFFFFu + uint32_t(255 * -128) + uint32_t(-255 * 127));
  int8_t bytes[6] = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(dsp::load4(bytes + 1), 0x05040302u);  // any alignment
}

TEST(DspRequantize, MatchesTflmOnRandomAndExtremeValues) {
  std::mt19937 engine(77);
  std::vector<int32_t> xs = {0, 1, -1, INT32_MAX, INT32_MIN, 1 << 30, -(1 << 30), 12345, -12345};
  for (int i = 0; i < 3000; ++i) xs.push_back(int32_t(engine()));
  const std::vector<int32_t> multipliers = {0, 1, 1 << 30, INT32_MAX, 1518500250, 1073741825, 2147483000};
  for (const int32_t m : multipliers) {
    for (int shift = -31; shift <= 31; ++shift) {
      for (size_t i = 0; i < xs.size(); i += (shift % 7 == 0 ? 1 : 13)) {
        const int32_t x = xs[i];
        const int32_t bias = 0;
        const conv::Int8Arithmetic a{0, 0, -128, 127, &bias, &m, &shift};
        const dsp::ChannelRequantizer r = dsp::ChannelRequantizer::of(a, 0);
        ASSERT_EQ(r.apply(uint32_t(x)), kernels::multiply_by_quantized_multiplier(x, m, shift))
            << "x " << x << " multiplier " << m << " shift " << shift;
        if (shift <= 0) {
          ASSERT_EQ(r.apply(uint32_t(x)), ref::requantize32(x, m, shift)) << "x " << x;
        }
      }
    }
  }
}

TEST(DspIntrinsics, SmmlarIsTheRoundedHighWordPlusTheAccumulator) {
  EXPECT_EQ(dsp::smmlar(1 << 30, 1 << 30, 5), 5 + (1 << 28));
  EXPECT_EQ(dsp::smmlar(-1, 1 << 30, 0), 0);       // -2^30 + 2^31 rounds to 0
  EXPECT_EQ(dsp::smmlar(-3, 1 << 30, 0), -1);      // (-3 * 2^30 + 2^31) >> 32
  EXPECT_EQ(dsp::smmlar(INT32_MIN, INT32_MIN, -7), -7 + (1 << 30));
}

// FastRequantizer against TFLM's requantization and clamp wherever fill() accepts the
// channel: sums up to the bound for the patch size, every right shift, extreme offsets.
TEST(DspRequantize, FastRequantizerMatchesTflmWhereItApplies) {
  std::mt19937 engine(1313);
  const std::vector<int32_t> multipliers = {0, 1, 1 << 30, INT32_MAX, 1518500250, 1073741825, 2147483000};
  int checked = 0;
  for (const size_t taps : {size_t{1}, size_t{9}, size_t{64}, size_t{576}}) {
    const int64_t largest = int64_t(taps) * 255 * 128;
    for (const int32_t m : multipliers) {
      for (int shift = -31; shift <= 1; ++shift) {
        for (const int32_t output_offset : {-128, -1, 0, 37, 127}) {
          const int32_t bias = int32_t(engine() % 200001) - 100000;
          const conv::Int8Arithmetic a{0, output_offset, -128, 127, &bias, &m, &shift};
          const bool applies = dsp::fast_requantize_applies(a, 1, taps);
          const int64_t twice_constant_over_2e = std::abs(2 * int64_t{output_offset} + 1);  // constant = this * 2^(e-1)
          EXPECT_EQ(applies, shift <= -1 && shift >= -30 && (twice_constant_over_2e << (-shift - 1)) < (int64_t{1} << 30))
              << "shift " << shift << " offset " << output_offset;
          if (!applies) continue;
          const dsp::FastRequantizer r = dsp::FastRequantizer::of(a, 0);
          std::vector<int64_t> sums = {0, 1, -1, largest, -largest, largest / 3, -largest / 7};
          for (int i = 0; i < 200; ++i) sums.push_back(int64_t(engine() % uint32_t(2 * largest + 1)) - largest);
          for (const int64_t sum : sums) {
            int32_t want = kernels::multiply_by_quantized_multiplier(int32_t(sum + bias), m, shift) + output_offset;
            want = want < -128 ? -128 : (want > 127 ? 127 : want);
            ASSERT_EQ(r.apply(uint32_t(int32_t(sum))), want)
                << "sum " << sum << " bias " << bias << " m " << m << " shift " << shift << " offset " << output_offset;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 50000);
}

TEST(DspRequantize, FastRequantizerDeclinesWhatItCannotDoExactly) {
  const int32_t m = 1 << 30;
  const int32_t right = -5, none = 0, left = 2, far_right = -31;
  const int32_t big_bias = (1 << 30) - 9 * 255 * 128, small_bias = big_bias - 1;
  const conv::Int8Arithmetic fits{0, 0, -128, 127, &small_bias, &m, &right};
  EXPECT_TRUE(dsp::fast_requantize_applies(fits, 1, 9));
  for (const conv::Int8Arithmetic& a : {conv::Int8Arithmetic{0, 0, -128, 127, &big_bias, &m, &right},
                                        conv::Int8Arithmetic{0, 0, -128, 127, &small_bias, &m, &none},
                                        conv::Int8Arithmetic{0, 0, -128, 127, &small_bias, &m, &left},
                                        conv::Int8Arithmetic{0, 0, -128, 127, &small_bias, &m, &far_right},
                                        conv::Int8Arithmetic{0, 0, -100, 127, &small_bias, &m, &right}}) {
    EXPECT_FALSE(dsp::fast_requantize_applies(a, 1, 9));
  }
}

// A layer qualifies only when every channel does: one channel failing any condition, first,
// in the middle or last, refuses it (the worst cases are gathered over all channels).
TEST(DspRequantize, OneChannelOutOfRangeRefusesTheLayer) {
  constexpr int32_t kChannels = 5;
  const int32_t good_bias = 1000, good_m = 1 << 30, good_shift = -5;
  struct Bad {
    int32_t bias, m, shift;
  };
  for (const Bad bad : {Bad{(1 << 30), good_m, good_shift}, Bad{-(1 << 30), good_m, good_shift}, Bad{good_bias, -1, good_shift},
                        Bad{good_bias, good_m, 0}, Bad{good_bias, good_m, -31}}) {
    for (int32_t at = 0; at < kChannels; ++at) {
      std::vector<int32_t> bias(kChannels, good_bias), m(kChannels, good_m), shift(kChannels, good_shift);
      const conv::Int8Arithmetic all_good{0, 0, -128, 127, bias.data(), m.data(), shift.data()};
      ASSERT_TRUE(dsp::fast_requantize_applies(all_good, kChannels, 9));
      bias[size_t(at)] = bad.bias;
      m[size_t(at)] = bad.m;
      shift[size_t(at)] = bad.shift;
      const conv::Int8Arithmetic one_bad{0, 0, -128, 127, bias.data(), m.data(), shift.data()};
      EXPECT_FALSE(dsp::fast_requantize_applies(one_bad, kChannels, 9)) << "channel " << at;
    }
  }
  const std::vector<int32_t> m(kChannels, good_m), shift(kChannels, good_shift);
  const conv::Int8Arithmetic no_bias{0, 0, -128, 127, nullptr, m.data(), shift.data()};
  EXPECT_TRUE(dsp::fast_requantize_applies(no_bias, kChannels, 9));
}

// FastRequantizer's conditions for channel c, each in 64-bit arithmetic (what the kernels
// tested per channel and call before FastRequantizeBounds).
bool exact_for(const conv::Int8Arithmetic& a, int32_t c, size_t taps) {
  const int64_t bias = a.bias != nullptr ? a.bias[c] : 0;
  const int32_t e = -a.shifts[c];
  if (e < 1 || e > 30 || a.multipliers[c] < 0) return false;
  if ((bias < 0 ? -bias : bias) + static_cast<int64_t>(taps) * 255 * 128 >= (int64_t{1} << 30)) return false;
  const int64_t constant = (int64_t{1} << (e - 1)) + static_cast<int64_t>(a.output_offset) * (int64_t{1} << e);
  return constant > -(int64_t{1} << 30) && constant < (int64_t{1} << 30);
}

// fast_requantize_applies works the layer's part of those conditions out once per call: it
// must decide every channel as exact_for does, at every edge of its ranges.
TEST(DspRequantize, TheLayersBoundsDecideEveryChannelAsExactForDoes) {
  const int32_t kBiases[] = {INT32_MIN, -(1 << 30), -(1 << 30) + 1, -(1 << 30) + 9 * 255 * 128, -(1 << 30) + 9 * 255 * 128 + 1,
                             -1, 0, 1, (1 << 30) - 9 * 255 * 128 - 1, (1 << 30) - 9 * 255 * 128, (1 << 30) - 1, INT32_MAX};
  const int32_t kMultipliers[] = {INT32_MIN, -1, 0, 1, 1 << 30, INT32_MAX};
  const int32_t kOffsets[] = {-(1 << 28), -(1 << 20), -129, -128, -1, 0, 1, 127, 128, 1 << 20, 1 << 28};
  const size_t kTaps[] = {1, 9, 576, 32895, 32896, size_t{1} << 20, size_t{1} << 24};
  int admitted = 0, checked = 0;
  for (const int32_t offset : kOffsets) {
    for (const size_t taps : kTaps) {
      for (int32_t shift = -32; shift <= 31; ++shift) {
        for (const int32_t m : kMultipliers) {
          for (const int32_t bias : kBiases) {
            const conv::Int8Arithmetic a{0, offset, -128, 127, &bias, &m, &shift};
            const bool expected = exact_for(a, 0, taps);
            ASSERT_EQ(dsp::fast_requantize_applies(a, 1, taps), expected)
                << "offset " << offset << " taps " << taps << " shift " << shift << " m " << m << " bias " << bias;
            admitted += expected ? 1 : 0;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(admitted, 1000);  // both answers are exercised
  EXPECT_GT(checked - admitted, 1000);
}

conv::ConvGeometry geometry_of(const S8& s) {
  conv::ConvGeometry g;
  g.batches = int32_t(s.input_shape[0]);
  g.input_h = int32_t(s.input_shape[1]);
  g.input_w = int32_t(s.input_shape[2]);
  g.input_c = int32_t(s.input_shape[3]);
  g.filter_h = int32_t(s.filter_shape[1]);
  g.filter_w = int32_t(s.filter_shape[2]);
  g.filter_c = int32_t(s.filter_shape[3]);
  g.output_h = int32_t(s.output_shape[1]);
  g.output_w = int32_t(s.output_shape[2]);
  g.output_c = int32_t(s.output_shape[3]);
  g.stride_h = s.window.stride_h;
  g.stride_w = s.window.stride_w;
  g.dilation_h = s.window.dilation_h;
  g.dilation_w = s.window.dilation_w;
  g.pad_top = s.window.pad_top;
  g.pad_left = s.window.pad_left;
  return g;
}

conv::Int8Arithmetic arithmetic_of(const S8& s) {
  conv::Int8Arithmetic a{};
  a.input_offset = s.input_offset;
  a.output_offset = s.output_offset;
  a.activation_min = int32_t(s.activation_min);
  a.activation_max = int32_t(s.activation_max);
  a.bias = s.bias.empty() ? nullptr : s.bias.data();
  a.multipliers = s.multipliers.data();
  a.shifts = s.shifts.data();
  return a;
}

// A random quantized spec over `g`: weights, bias (or none), multipliers, shifts (a few
// left shifts), offsets including the extremes, and now and then a narrowed clamp.
S8 random_spec(const Geometry& g, std::mt19937& engine) {
  S8 s = with_geometry<S8>(g);
  const size_t channels = size_t(g.output[3]);
  const uint32_t seed = engine();
  s.filter = pattern<int8_t>(elements(g.filter), seed, -128, 127);
  if (engine() % 4 != 0) s.bias = pattern<int32_t>(channels, seed + 1, -40000, 40000);
  for (size_t c = 0; c < channels; ++c) {
    s.multipliers.push_back(int32_t(1073741824u + engine() % 1073741823u));
    s.shifts.push_back(engine() % 8 == 0 ? int32_t(engine() % 2) : -int32_t(3 + engine() % 9));
  }
  const int32_t offsets[] = {128, -127, 0, 5, -3};
  s.input_offset = offsets[engine() % 5];
  s.output_offset = int32_t(engine() % 256) - 128;
  if (engine() % 3 == 0) {
    s.activation_min = -100;
    s.activation_max = 90;
  }
  return s;
}

// What the importer stores as conv2d_s8's argument 16 (tools/importer/ops/conv_ops.cpp),
// restated: bias + input_offset * sum of each filter, wrapped to int32.
std::vector<int32_t> folded_bias(const S8& s) {
  const size_t channels = size_t(s.output_shape[3]);
  const size_t size = s.filter.size() / channels;
  std::vector<int32_t> folded(channels);
  for (size_t c = 0; c < channels; ++c) {
    int64_t weights = 0;
    for (size_t k = 0; k < size; ++k) weights += s.filter[c * size + k];
    folded[c] = int32_t(uint32_t(s.bias.empty() ? 0 : s.bias[c]) + uint32_t(int64_t{s.input_offset} * weights));
  }
  return folded;
}

// Output size of a window over `size` with `pad` on both sides (at least 1).
int64_t windowed(int64_t size, int64_t taps, int stride, int dilation, int pad) {
  const int64_t effective = (taps - 1) * dilation + 1;
  const int64_t out = (size + 2 * pad - effective) / stride + 1;
  return out < 1 ? 1 : out;
}

Geometry random_geometry(std::mt19937& engine, bool depthwise) {
  Geometry g;
  const int64_t batches = 1 + engine() % 2;
  const int64_t h = 1 + engine() % 8, w = 1 + engine() % 8;
  const int64_t in_c = 1 + engine() % 19;
  const int64_t kh = 1 + engine() % 4, kw = 1 + engine() % 4;
  g.window.stride_h = 1 + int(engine() % 2);
  g.window.stride_w = 1 + int(engine() % 2);
  g.window.dilation_h = engine() % 4 == 0 ? 2 : 1;
  g.window.dilation_w = engine() % 4 == 0 ? 2 : 1;
  g.window.pad_top = int(engine() % uint32_t(kh));
  g.window.pad_left = int(engine() % uint32_t(kw));
  const int64_t out_c = depthwise ? in_c : 1 + engine() % 9;
  g.input = {batches, h, w, in_c};
  g.filter = depthwise ? std::vector<int64_t>{1, kh, kw, in_c} : std::vector<int64_t>{out_c, kh, kw, in_c};
  g.output = {batches, windowed(h, kh, g.window.stride_h, g.window.dilation_h, g.window.pad_top),
              windowed(w, kw, g.window.stride_w, g.window.dilation_w, g.window.pad_left), out_c};
  return g;
}

// Shapes every run includes: the in-place pointwise path (odd, even and single pixel
// counts, batches), the models' layers, a 3x3 window wholly inside, channel counts around 4.
std::vector<Geometry> fixed_geometries(bool depthwise) {
  std::vector<Geometry> list;
  const auto add = [&](std::vector<int64_t> in, int64_t kh, int64_t kw, int64_t out_c, ref::Window w) {
    Geometry g;
    g.window = w;
    g.input = in;
    const int64_t c = depthwise ? in[3] : out_c;
    g.filter = depthwise ? std::vector<int64_t>{1, kh, kw, c} : std::vector<int64_t>{c, kh, kw, in[3]};
    g.output = {in[0], windowed(in[1], kh, w.stride_h, w.dilation_h, w.pad_top),
                windowed(in[2], kw, w.stride_w, w.dilation_w, w.pad_left), c};
    list.push_back(g);
  };
  add({1, 5, 5, 64}, 1, 1, 64, {});       // KWS pointwise: 25 pixels, one left over
  add({1, 1, 5, 64}, 1, 1, 64, {});       // a one-row band of it: five pixels, the last alone
  add({1, 1, 3, 7}, 1, 1, 5, {});         // three pixels, a lone pixel of 7 bytes, an odd filter count
  add({2, 2, 3, 12}, 1, 1, 7, {});        // batches, odd filter count
  add({1, 1, 1, 33}, 1, 1, 5, {});        // a single pixel
  add({1, 4, 4, 8}, 1, 1, 16, {});        // even pixels
  add({1, 6, 6, 8}, 1, 1, 6, {2, 2, 1, 1, 0, 0});  // pointwise, stride 2: gathered
  add({1, 49, 10, 1}, 10, 4, 12, {2, 2, 1, 1, 4, 1});  // KWS's first layer, fewer filters
  add({1, 9, 9, 3}, 3, 3, 8, {2, 2, 1, 1, 1, 1});      // person_detect / VWW first layers
  add({1, 6, 7, 16}, 3, 3, 16, {1, 1, 1, 1, 1, 1});    // 3x3 SAME, interior and borders
  add({1, 7, 7, 13}, 3, 3, 13, {2, 2, 1, 1, 0, 0});    // VALID, stride 2, 13 channels
  add({1, 8, 8, 5}, 3, 3, 5, {1, 1, 2, 2, 2, 2});      // dilation 2
  add({1, 2, 2, 4}, 5, 5, 4, {1, 1, 1, 1, 2, 2});      // window wider than the image
  if (depthwise) {  // 3x3 windows on the border (packed weights): KWS's layer, corners only,
                    // one pixel, stride 2, two chunks, leftover channels
    add({1, 25, 5, 64}, 3, 3, 64, {1, 1, 1, 1, 1, 1});
    add({1, 2, 2, 8}, 3, 3, 8, {1, 1, 1, 1, 1, 1});
    add({1, 1, 1, 4}, 3, 3, 4, {1, 1, 1, 1, 1, 1});
    add({2, 4, 5, 12}, 3, 3, 12, {2, 2, 1, 1, 1, 1});
    add({1, 3, 4, 20}, 3, 3, 20, {1, 1, 1, 1, 1, 1});
    add({1, 3, 3, 6}, 3, 3, 6, {1, 1, 1, 1, 2, 0});
  }
  if (!depthwise) {  // ResNet-8's 3x3 layers: patches of 288 and 576 bytes (the larger buffer)
    add({1, 6, 6, 32}, 3, 3, 32, {1, 1, 1, 1, 1, 1});  // SAME, 288-byte patches
    add({1, 7, 7, 32}, 3, 3, 64, {2, 2, 1, 1, 0, 0});  // stride 2 onto 64 channels, odd pixels
    add({1, 5, 6, 64}, 3, 3, 64, {1, 1, 1, 1, 1, 1});  // 576-byte patches, borders and interior
    add({1, 4, 4, 40}, 3, 4, 3, {1, 1, 1, 1, 1, 2});   // 480 bytes, three filters
    add({1, 1, 1, 160}, 1, 1, 4, {});                  // one pixel, pointwise: declined above 144
    // In place, activations expanded once per pixel pair (expanded_dot_dsp.h): at the
    // limit, a leftover byte, the smallest, and just above the limit (not expanded).
    add({1, 3, 3, 128}, 1, 1, 18, {});
    add({1, 2, 3, 127}, 1, 1, 17, {});
    add({2, 1, 3, 5}, 1, 1, 3, {});
    add({1, 1, 2, 4}, 1, 1, 33, {});
    add({1, 3, 1, 132}, 1, 1, 6, {});
  }
  return list;
}

// A random spec and input over `g`, with what the portable kernel (through a one-node
// model) and the reference loops make of them.
struct Case {
  S8 spec;
  std::vector<int8_t> input, portable, expected;
};

// `fast`: right shifts only and the whole int8 range, as in the models' layers, so that
// FastRequantizer applies.
Case case_of(const Geometry& g, S8 spec, std::mt19937& engine, bool depthwise) {
  Case c;
  c.spec = std::move(spec);
  const S8& s = c.spec;
  c.input = pattern<int8_t>(elements(g.input), engine(), -128, 127);
  const std::string kernel = depthwise ? "depthwise_conv2d_s8" : "conv2d_s8";
  c.portable = run<int8_t>(conv_model(kernel, Layout::kQuantizedWithOffsets, s), c.input);
  const ref::Nhwc in(g.input), f(g.filter), out(g.output);
  const auto product = [&](int x, int k) {
    return int64_t(s.filter[size_t(k)]) * (int64_t(c.input[size_t(x)]) + s.input_offset);
  };
  c.expected = finish_quantized(s, depthwise ? ref::depthwise_sums<int64_t>(in, f, out, g.window, product)
                                             : ref::conv2d_sums<int64_t>(in, f, out, g.window, product),
                                false);
  return c;
}

Case random_case(const Geometry& g, std::mt19937& engine, bool depthwise, bool fast = false) {
  S8 spec = random_spec(g, engine);
  if (fast) {
    for (int32_t& shift : spec.shifts) shift = -int32_t(1 + engine() % 12);
    spec.activation_min = -128;
    spec.activation_max = 127;
  }
  return case_of(g, std::move(spec), engine, depthwise);
}

TEST(Conv2dDsp, MatchesThePortableKernelAndTflmOnRandomShapes) {
  std::mt19937 engine(2024);
  std::vector<Geometry> shapes = fixed_geometries(false);
  for (int i = 0; i < 120; ++i) shapes.push_back(random_geometry(engine, false));
  int handled = 0, large = 0, fast = 0;
  for (size_t i = 0; i < 2 * shapes.size(); ++i) {  // each shape twice: as drawn, and made fast
    const Geometry& g = shapes[i % shapes.size()];
    const Case c = random_case(g, engine, false, i >= shapes.size());
    const S8& s = c.spec;
    const conv::ConvGeometry cg = geometry_of(s);
    const bool gathered = !(conv::is_pointwise(cg) && cg.stride_h == 1 && cg.stride_w == 1 &&
                            cg.output_h == cg.input_h && cg.output_w == cg.input_w && cg.batches * cg.output_h * cg.output_w >= 2);
    const size_t patch = size_t(cg.filter_h * cg.filter_w * cg.input_c);
    const size_t max_patch = conv::is_pointwise(cg) ? dsp::kMaxPatch : dsp::kMaxLargePatch;
    const bool should_handle = cg.output_c >= 2 && (!gathered || patch <= max_patch);
    // Both forms: the input offset added to each activation, and the importer's folded bias.
    const std::vector<int32_t> folded = folded_bias(s);
    for (const int32_t* folded_or_null : {static_cast<const int32_t*>(nullptr), folded.data()}) {
      std::vector<int8_t> got(elements(g.output), 0x55);
      ASSERT_EQ(dsp::conv2d_s8(cg, c.input.data(), s.filter.data(), got.data(), arithmetic_of(s), folded_or_null),
                should_handle)
          << ::testing::PrintToString(g.input) << " filter " << ::testing::PrintToString(g.filter);
      if (!should_handle) {
        EXPECT_EQ(got, std::vector<int8_t>(elements(g.output), 0x55));
        continue;
      }
      ++handled;
      if (gathered && patch > dsp::kMaxPatch) ++large;
      if (folded_or_null != nullptr) {
        conv::Int8Arithmetic folded_arithmetic = arithmetic_of(s);
        folded_arithmetic.bias = folded_or_null;
        fast += dsp::fast_requantize_applies(folded_arithmetic, cg.output_c, patch);
      }
      EXPECT_EQ(got, c.portable) << "input " << ::testing::PrintToString(g.input) << " filter "
                                 << ::testing::PrintToString(g.filter) << " offset " << s.input_offset
                                 << (folded_or_null != nullptr ? " folded" : "");
      EXPECT_EQ(got, c.expected) << "input " << ::testing::PrintToString(g.input);
    }
  }
  EXPECT_GT(handled, 200);  // the random shapes mostly take the DSP path, in both forms
  EXPECT_GT(large, 20);     // and many of them gather patches above kMaxPatch
  EXPECT_GT(fast, int(shapes.size()));  // the folded ones often with FastRequantizer
}

// Pruned filters (all weights zero; VWW's deeper pointwise layers are 65 % such filters) with
// the parameters their zero scale gives them (a bias near 2^30, a right shift of 27), which
// FastRequantizer cannot take: the layer still takes it, the pruned filters' outputs being
// their requantized bias, and the pairs of two pruned filters are skipped. Pruned filters
// first, last, alone in a pair, in pairs, every filter; chunks of 16, odd counts, in place and
// gathered, a lone last pixel. One nonzero weight in such a filter sends the layer to the
// exact requantizer.
TEST(Conv2dDsp, PrunedFiltersOutputTheirBiasAndMatchThePortableKernelAndTflm) {
  std::mt19937 engine(777);
  struct Shape {
    std::vector<int64_t> input;
    int64_t kh, kw, filters;
    ref::Window window;
  };
  const Shape shapes[] = {
      {{1, 3, 3, 64}, 1, 1, 40, {}},                  // in place, odd pixels: a lone last one
      {{1, 2, 2, 128}, 1, 1, 33, {}},                 // in place, not expanded, odd filter count
      {{1, 1, 5, 16}, 1, 1, 17, {}},                  // a chunk and one filter
      {{1, 6, 6, 8}, 1, 1, 20, {2, 2, 1, 1, 0, 0}},   // gathered (stride 2)
      {{1, 5, 5, 4}, 3, 3, 18, {1, 1, 1, 1, 1, 1}},   // gathered 3x3
  };
  int pruned_layers = 0, exact_layers = 0;
  for (const Shape& shape : shapes) {
    Geometry g;
    g.window = shape.window;
    g.input = shape.input;
    g.filter = {shape.filters, shape.kh, shape.kw, shape.input[3]};
    g.output = {1, windowed(shape.input[1], shape.kh, g.window.stride_h, 1, g.window.pad_top),
                windowed(shape.input[2], shape.kw, g.window.stride_w, 1, g.window.pad_left), shape.filters};
    const size_t taps = size_t(shape.kh * shape.kw * shape.input[3]);
    const size_t filters = size_t(shape.filters);
    for (int variant = 0; variant < 6; ++variant) {  // which filters are pruned
      S8 spec = random_spec(g, engine);
      spec.activation_min = -128;
      spec.activation_max = 127;
      if (spec.bias.empty()) spec.bias.assign(filters, 1000);
      std::vector<bool> pruned(filters);
      for (size_t f = 0; f < filters; ++f) {
        spec.shifts[f] = -int32_t(1 + engine() % 12);
        switch (variant) {
          case 0: pruned[f] = f == 0 || f + 1 == filters; break;  // first and last
          case 1: pruned[f] = f % 2 == 1; break;                   // one of every pair
          case 2: pruned[f] = f % 4 < 2; break;                    // whole pairs
          case 3: pruned[f] = true; break;                         // every filter
          default: pruned[f] = engine() % 3 != 0; break;           // most, at random
        }
        if (!pruned[f]) continue;
        std::fill_n(spec.filter.begin() + std::ptrdiff_t(f * taps), taps, int8_t{0});
        spec.bias[f] = (engine() % 2 == 0 ? 1 : -1) * (1 << 30);
        spec.shifts[f] = -27;
        spec.multipliers[f] = int32_t(1073741824u + engine() % 1073741823u);
      }
      const bool one_live_weight = variant == 5;  // the last pruned filter gets a weight
      if (one_live_weight) {
        for (size_t f = filters; f-- > 0;) {
          if (pruned[f]) {
            spec.filter[f * taps + taps / 2] = 3;
            break;
          }
        }
      }
      const Case c = case_of(g, std::move(spec), engine, false);
      const S8& s = c.spec;
      const conv::ConvGeometry cg = geometry_of(s);
      const std::vector<int32_t> folded = folded_bias(s);
      conv::Int8Arithmetic folded_arithmetic = arithmetic_of(s);
      folded_arithmetic.bias = folded.data();
      ASSERT_FALSE(dsp::fast_requantize_applies(folded_arithmetic, cg.output_c, taps));
      const bool takes_pruned = dsp::only_pruned_filters_fail(folded_arithmetic, cg.output_c, taps, s.filter.data());
      EXPECT_EQ(takes_pruned, !one_live_weight) << "variant " << variant;
      pruned_layers += takes_pruned;
      exact_layers += !takes_pruned;
      std::vector<int8_t> got(elements(g.output), 0x55);
      ASSERT_TRUE(dsp::conv2d_s8(cg, c.input.data(), s.filter.data(), got.data(), arithmetic_of(s), folded.data()));
      EXPECT_EQ(got, c.portable) << "input " << ::testing::PrintToString(g.input) << " filters " << filters << " variant "
                                 << variant;
      EXPECT_EQ(got, c.expected) << "input " << ::testing::PrintToString(g.input) << " variant " << variant;
    }
  }
  EXPECT_EQ(pruned_layers, 25);
  EXPECT_EQ(exact_layers, 5);
}

// A lone pixel's patch expanded alone and multiplied by two filters (expanded_dot_dsp.h):
// whole words only, leftover bytes (k % 4 != 0), with the input offset and raw, and sums
// that wrap.
template <bool kOffset>
void check_one_pixel_two_filters(int32_t offset) {
  for (const size_t k : {size_t{4}, size_t{5}, size_t{6}, size_t{7}, size_t{8}, size_t{12}, size_t{63}, size_t{64},
                         size_t{65}, size_t{127}, size_t{128}}) {
    const auto x = pattern<int8_t>(k, uint32_t(k), -128, 127);
    const auto w = pattern<int8_t>(2 * k, uint32_t(k + 1000), -128, 127);
    uint32_t expanded[dsp::kExpandedWords];
    dsp::expand_patch<kOffset>(x.data(), k, dsp::pair_of(offset), expanded);
    const dsp::Sums1x2 got = dsp::dot_1x2_expanded(expanded, x.data(), w.data(), k, offset);
    uint32_t want[2] = {0, 0};
    for (size_t c = 0; c < 2; ++c) {
      for (size_t i = 0; i < k; ++i) want[c] += uint32_t((int32_t{x[i]} + offset) * w[c * k + i]);
    }
    EXPECT_EQ(got.c0, want[0]) << "k " << k << " offset " << offset;
    EXPECT_EQ(got.c1, want[1]) << "k " << k << " offset " << offset;
  }
}

TEST(ExpandedDotDsp, OnePixelTwoFiltersMatchesTheSums) {
  check_one_pixel_two_filters<false>(0);
  check_one_pixel_two_filters<true>(128);
  check_one_pixel_two_filters<true>(-127);
  check_one_pixel_two_filters<true>(5);
}

// The in-place pointwise path's lone last pixel (an odd pixel count: one-row bands of five,
// as KWS's) through dot_1x2_expanded, and dot_rows_2 beyond kMaxExpanded: patch depths that
// are and are not multiples of 4, odd filter counts (a lone last filter, two chunks), with
// the input offset and with the importer's folded bias.
TEST(Conv2dDsp, LonePixelMatchesThePortableKernelAndTflm) {
  std::mt19937 engine(31);
  const int32_t offsets[] = {128, -127, 5};  // never 0: the offset must count
  int lone = 0;
  for (const int64_t k : {4, 7, 8, 13, 64, 66, 127, 128, 129}) {
    for (const int64_t out_c : {2, 3, 5, 17, 33}) {
      Geometry g;
      g.input = {1, 1, 5, k};
      g.filter = {out_c, 1, 1, k};
      g.output = {1, 1, 5, out_c};
      S8 spec = random_spec(g, engine);
      spec.input_offset = offsets[lone % 3];
      const Case c = case_of(g, std::move(spec), engine, false);
      const S8& s = c.spec;
      const std::vector<int32_t> folded = folded_bias(s);
      for (const int32_t* folded_or_null : {static_cast<const int32_t*>(nullptr), folded.data()}) {
        std::vector<int8_t> got(elements(g.output), 0x55);
        ASSERT_TRUE(dsp::conv2d_s8(geometry_of(s), c.input.data(), s.filter.data(), got.data(), arithmetic_of(s),
                                   folded_or_null));
        EXPECT_EQ(got, c.portable) << "k " << k << " filters " << out_c << " offset " << s.input_offset
                                   << (folded_or_null != nullptr ? " folded" : "");
        EXPECT_EQ(got, c.expected) << "k " << k << " filters " << out_c;
        ++lone;
      }
    }
  }
  EXPECT_EQ(lone, 90);
}

TEST(Conv2dDsp, DeclinesGroupedFiltersOversizedPatchesAndOneFilterWithoutWriting) {
  std::mt19937 engine(5);
  Geometry grouped;
  grouped.input = {1, 4, 4, 8};
  grouped.filter = {6, 3, 3, 4};  // two groups
  grouped.output = {1, 4, 4, 6};
  grouped.window = {1, 1, 1, 1, 1, 1};
  Geometry large;  // a gathered 3x3x65 = 585-byte patch
  large.input = {1, 4, 4, 65};
  large.filter = {4, 3, 3, 65};
  large.output = {1, 4, 4, 4};
  large.window = {1, 1, 1, 1, 1, 1};
  Geometry one_pixel;  // person_detect's last layer: a pointwise filter on one pixel, 256 bytes
  one_pixel.input = {1, 1, 1, 256};
  one_pixel.filter = {2, 1, 1, 256};
  one_pixel.output = {1, 1, 1, 2};
  Geometry one_filter;
  one_filter.input = {1, 3, 3, 8};
  one_filter.filter = {1, 1, 1, 8};
  one_filter.output = {1, 3, 3, 1};
  for (const Geometry& g : {grouped, large, one_pixel, one_filter}) {
    const S8 s = random_spec(g, engine);
    const auto input = pattern<int8_t>(elements(g.input), 3, -128, 127);
    std::vector<int8_t> got(elements(g.output), 0x55);
    EXPECT_FALSE(dsp::conv2d_s8(geometry_of(s), input.data(), s.filter.data(), got.data(), arithmetic_of(s), nullptr));
    EXPECT_EQ(got, std::vector<int8_t>(elements(g.output), 0x55));
  }
}

TEST(DepthwiseDsp, MatchesThePortableKernelAndTflmOnRandomShapes) {
  std::mt19937 engine(99);
  std::vector<Geometry> shapes = fixed_geometries(true);
  for (int i = 0; i < 120; ++i) shapes.push_back(random_geometry(engine, true));
  int fast = 0;
  for (size_t i = 0; i < 2 * shapes.size(); ++i) {  // each shape twice: as drawn, and made fast
    const Geometry& g = shapes[i % shapes.size()];
    const Case c = random_case(g, engine, true, i >= shapes.size());
    const S8& s = c.spec;
    fast += dsp::fast_requantize_applies(arithmetic_of(s), int32_t(g.output[3]), size_t(g.filter[1] * g.filter[2]));
    std::vector<int8_t> got(elements(g.output), 0x55);
    ASSERT_TRUE(dsp::depthwise_conv2d_s8(geometry_of(s), c.input.data(), s.filter.data(), got.data(), arithmetic_of(s)));
    EXPECT_EQ(got, c.portable) << "input " << ::testing::PrintToString(g.input) << " filter "
                               << ::testing::PrintToString(g.filter) << " offset " << s.input_offset;
    EXPECT_EQ(got, c.expected) << "input " << ::testing::PrintToString(g.input);
  }
  EXPECT_GT(fast, int(shapes.size()));  // both requantizations are taken
  EXPECT_LT(fast, 2 * int(shapes.size()) - 25);
}

// Every window of a 3x3 filter the multiplier-1 path meets (1 to 3 rows by 1 to 3 columns
// inside the image: the interior block and the border rows of one, two and three taps),
// channel counts around the chunk of 16 and not multiples of 4, extreme multipliers and
// shifts, both clamps, and FastRequantizer's four-channel block where it applies.
TEST(DepthwiseDsp, EveryWindowSizeAndExtremeRequantizationMatchThePortableKernelAndTflm) {
  std::mt19937 engine(4242);
  const int32_t multipliers[] = {0, 1, 1 << 30, INT32_MAX, 1073741825, 1518500250};
  const int32_t shifts[] = {-31, -30, -13, -7, -1, 0, 1, 2};
  const int32_t fast_shifts[] = {-1, -7, -13, -20};
  std::set<std::pair<int32_t, int32_t>> windows;  // (rows, cols) inside the image
  int cases = 0, fast = 0, narrowed = 0;
  for (const int64_t h : {1, 2, 3, 5}) {
    for (const int64_t w : {1, 2, 4}) {
      for (const int pad : {0, 1, 2}) {
        for (const int64_t channels : {4, 7, 16, 21, 36}) {
          Geometry g;
          g.window = {1, 1, 1, 1, pad, pad};
          g.input = {1, h, w, channels};
          g.filter = {1, 3, 3, channels};
          g.output = {1, windowed(h, 3, 1, 1, pad), windowed(w, 3, 1, 1, pad), channels};
          for (int variant = 0; variant < 3; ++variant) {  // extreme; extreme, narrowed; fast
            S8 spec = random_spec(g, engine);
            for (size_t c = 0; c < size_t(channels); ++c) {
              spec.multipliers[c] = multipliers[(c + size_t(variant)) % 6];
              spec.shifts[c] = variant == 2 ? fast_shifts[c % 4] : shifts[(3 * c + size_t(h)) % 8];
            }
            spec.activation_min = variant == 1 ? -100 : -128;
            spec.activation_max = variant == 1 ? 90 : 127;
            const Case c = case_of(g, std::move(spec), engine, true);
            const S8& s = c.spec;
            const conv::ConvGeometry cg = geometry_of(s);
            for (int32_t oy = 0; oy < cg.output_h; ++oy) {
              for (int32_t ox = 0; ox < cg.output_w; ++ox) {
                const dsp::TapWalk walk = dsp::tap_walk(cg, c.input.data(), s.filter.data(), 0, oy, ox);
                if (walk.rows > 0) windows.insert({walk.rows, walk.cols});
              }
            }
            fast += dsp::fast_requantize_applies(arithmetic_of(s), int32_t(channels), 9);
            narrowed += variant == 1;
            std::vector<int8_t> got(elements(g.output), 0x55);
            ASSERT_TRUE(dsp::depthwise_conv2d_s8(cg, c.input.data(), s.filter.data(), got.data(), arithmetic_of(s)));
            EXPECT_EQ(got, c.portable) << "input " << ::testing::PrintToString(g.input) << " pad " << pad << " variant "
                                       << variant;
            EXPECT_EQ(got, c.expected) << "input " << ::testing::PrintToString(g.input) << " pad " << pad << " variant "
                                       << variant;
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_EQ(windows.size(), 9u);  // every rows x cols from 1x1 to 3x3
  EXPECT_GT(fast, cases / 4);     // the fast variant mostly qualifies
  EXPECT_GT(narrowed, 0);
}

// Depth multipliers 2 and 4j (depthwise_multiplied_dsp.h) on random windows: borders,
// strides, dilations, batches, an odd channel count (2C leftover outputs), both offsets'
// extremes; the path declines other multipliers without writing.
TEST(DepthwiseDsp, MultipliersTwoAndFourTimesMatchThePortableKernelAndTflm) {
  std::mt19937 engine(77);
  int handled = 0;
  for (int i = 0; i < 160; ++i) {
    Geometry g = random_geometry(engine, true);
    const int64_t multipliers[] = {2, 4, 8, 2, 3, 5, 12};
    const int64_t multiplier = multipliers[engine() % 7];
    const int64_t out_c = g.input[3] * multiplier;
    g.filter[3] = out_c;
    g.output[3] = out_c;
    const Case c = random_case(g, engine, true, i % 2 == 1);
    const S8& s = c.spec;
    std::vector<int8_t> got(elements(g.output), 0x55);
    const bool handles = multiplier == 2 || multiplier % 4 == 0;
    ASSERT_EQ(dsp::depthwise_multiplied_s8(geometry_of(s), c.input.data(), s.filter.data(), got.data(), arithmetic_of(s)),
              handles);
    EXPECT_FALSE(dsp::depthwise_conv2d_s8(geometry_of(s), c.input.data(), s.filter.data(), got.data(), arithmetic_of(s)));
    if (!handles) {
      EXPECT_EQ(got, std::vector<int8_t>(elements(g.output), 0x55));
      continue;
    }
    ++handled;
    EXPECT_EQ(got, c.portable) << "input " << ::testing::PrintToString(g.input) << " filter "
                               << ::testing::PrintToString(g.filter) << " offset " << s.input_offset;
    EXPECT_EQ(got, c.expected) << "input " << ::testing::PrintToString(g.input);
  }
  EXPECT_GT(handled, 80);
}

TEST(DepthwiseDsp, MultiplierOnePathDeclinesOthersAndMultipliedPathDeclinesOne) {
  std::mt19937 engine(6);
  Geometry g;
  g.input = {1, 4, 4, 4};
  g.filter = {1, 3, 3, 8};
  g.output = {1, 4, 4, 8};
  g.window = {1, 1, 1, 1, 1, 1};
  Geometry one = g;
  one.filter = {1, 3, 3, 4};
  one.output = {1, 4, 4, 4};
  const S8 s = random_spec(g, engine), s1 = random_spec(one, engine);
  const auto input = pattern<int8_t>(elements(g.input), 4, -128, 127);
  std::vector<int8_t> got(elements(g.output), 0x55);
  EXPECT_FALSE(dsp::depthwise_conv2d_s8(geometry_of(s), input.data(), s.filter.data(), got.data(), arithmetic_of(s)));
  EXPECT_FALSE(dsp::depthwise_multiplied_s8(geometry_of(s1), input.data(), s1.filter.data(), got.data(), arithmetic_of(s1)));
  EXPECT_EQ(got, std::vector<int8_t>(elements(g.output), 0x55));
}

}  // namespace
}  // namespace grt::test
