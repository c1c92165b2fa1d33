// conv2d_s8 on the DSP extension (dsp_intrinsics.h): the convolution as a matrix product.
// Each output pixel reads a patch of K = KH * KW * Cin activations, laid out like a filter:
// for a pointwise filter the input pixel itself, otherwise gathered into a stack buffer with
// the padding written as the input zero point (which the input offset turns into 0, so it
// adds nothing, as TFLM's skipped taps do). Two pixels' patches times two filters make four
// sums sharing every load: per four bytes of K, 4 loads, 8 sign extensions (the input offset
// added by SXTAB16 at no cost) and 8 dual multiply-accumulates for 16 MACs. The sums wrap
// like the portable path's and are requantized exactly as it does (dsp_requantize.h).
#ifndef GRAPHRT_KERNELS_CONV_CONV2D_DSP_H_
#define GRAPHRT_KERNELS_CONV_CONV2D_DSP_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "conv_arithmetic.h"
#include "conv_geometry.h"
#include "dsp_intrinsics.h"
#include "dsp_requantize.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// Patches larger than this (per pixel) take the portable loops: two of them live on the stack.
constexpr size_t kMaxPatch = 144;

struct Sums2x2 {
  uint32_t p0c0, p0c1, p1c0, p1c1;  // pixel x channel
};

// sum over k < n of (x_p[k] + offset) * w_c[k] for pixels x0, x1 and filters w0, w1;
// `offset2` is the input offset in both halves (pair_of).
inline Sums2x2 dot_2x2(const int8_t* x0, const int8_t* x1, const int8_t* w0, const int8_t* w1, size_t n,
                       uint32_t offset2) {
  uint32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0;
  const int8_t* const words_end = x0 + (n & ~size_t{3});
  while (x0 != words_end) {
    const uint32_t a = load4(x0), b = load4(x1);
    x0 += 4;
    x1 += 4;
    const uint32_t a_even = sxtab16(offset2, a), a_odd = sxtab16_ror8(offset2, a);
    const uint32_t b_even = sxtab16(offset2, b), b_odd = sxtab16_ror8(offset2, b);
    const uint32_t u = load4(w0);
    w0 += 4;
    const uint32_t u_even = sxtb16(u), u_odd = sxtb16_ror8(u);
    s00 = smlad(a_odd, u_odd, smlad(a_even, u_even, s00));
    s10 = smlad(b_odd, u_odd, smlad(b_even, u_even, s10));
    const uint32_t v = load4(w1);
    w1 += 4;
    const uint32_t v_even = sxtb16(v), v_odd = sxtb16_ror8(v);
    s01 = smlad(a_odd, v_odd, smlad(a_even, v_even, s01));
    s11 = smlad(b_odd, v_odd, smlad(b_even, v_even, s11));
  }
  const int32_t offset = lo16(offset2);
  for (size_t k = 0; k < (n & 3); ++k) {
    const int32_t a = x0[k] + offset, b = x1[k] + offset;
    s00 += static_cast<uint32_t>(a * w0[k]);
    s01 += static_cast<uint32_t>(a * w1[k]);
    s10 += static_cast<uint32_t>(b * w0[k]);
    s11 += static_cast<uint32_t>(b * w1[k]);
  }
  return {s00, s01, s10, s11};
}

// Every filter (each `patch_size` long) times the patches x0 and, when kTwoPixels, x1:
// the output pixels out0 and out1, requantized.
template <bool kTwoPixels>
inline void filters_times_patches(const int8_t* x0, const int8_t* x1, const int8_t* filter, size_t patch_size,
                                  int32_t output_c, uint32_t offset2, const conv::Int8Arithmetic& a, int8_t* out0,
                                  int8_t* out1) {
  const OutputStage stage(a);
  if (!kTwoPixels) x1 = x0;  // computed twice, written once
  const int8_t* w = filter;
  int32_t oc = 0;
  for (; oc + 2 <= output_c; oc += 2, w += 2 * patch_size) {
    const Sums2x2 s = dot_2x2(x0, x1, w, w + patch_size, patch_size, offset2);
    const ChannelRequantizer r0 = ChannelRequantizer::of(a, oc);
    const ChannelRequantizer r1 = ChannelRequantizer::of(a, oc + 1);
    out0[oc] = stage(r0.apply(s.p0c0));
    out0[oc + 1] = stage(r1.apply(s.p0c1));
    if (kTwoPixels) {
      out1[oc] = stage(r0.apply(s.p1c0));
      out1[oc + 1] = stage(r1.apply(s.p1c1));
    }
  }
  if (oc < output_c) {
    const Sums2x2 s = dot_2x2(x0, x1, w, w, patch_size, offset2);
    const ChannelRequantizer r = ChannelRequantizer::of(a, oc);
    out0[oc] = stage(r.apply(s.p0c0));
    if (kTwoPixels) out1[oc] = stage(r.apply(s.p1c0));
  }
}

// Walks the output pixels (batch, row, column) in memory order.
struct PixelCursor {
  int32_t b = 0, y = 0, x = 0;
  void next(const conv::ConvGeometry& g) {
    if (++x < g.output_w) return;
    x = 0;
    if (++y < g.output_h) return;
    y = 0;
    ++b;
  }
};

// The patch of output pixel `at`, filter-ordered (rows, columns, channels), into `patch`.
inline void gather_patch(const conv::ConvGeometry& g, const int8_t* input, const PixelCursor& at, int8_t pad,
                         int8_t* patch) {
  const size_t channels = static_cast<size_t>(g.input_c);
  const size_t row_bytes = static_cast<size_t>(g.filter_w) * channels;
  const int8_t* image = input + static_cast<size_t>(at.b) * g.input_h * g.input_w * channels;
  const int64_t origin_y = static_cast<int64_t>(at.y) * g.stride_h - g.pad_top;
  const int64_t origin_x = static_cast<int64_t>(at.x) * g.stride_w - g.pad_left;
  const conv::TapRange rows = conv::taps_inside(origin_y, g.dilation_h, g.filter_h, g.input_h);
  const conv::TapRange cols = conv::taps_inside(origin_x, g.dilation_w, g.filter_w, g.input_w);
  for (int32_t fy = 0; fy < g.filter_h; ++fy, patch += row_bytes) {
    if (fy < rows.begin || fy >= rows.end || cols.begin >= cols.end) {
      memset(patch, pad, row_bytes);
      continue;
    }
    const int32_t in_y = static_cast<int32_t>(origin_y + static_cast<int64_t>(fy) * g.dilation_h);
    const int8_t* row = image + static_cast<size_t>(in_y) * g.input_w * channels;
    const size_t before = static_cast<size_t>(cols.begin) * channels;
    const size_t inside_end = static_cast<size_t>(cols.end) * channels;
    memset(patch, pad, before);
    const int32_t first_x = static_cast<int32_t>(origin_x + static_cast<int64_t>(cols.begin) * g.dilation_w);
    if (g.dilation_w == 1) {
      memcpy(patch + before, row + static_cast<size_t>(first_x) * channels, inside_end - before);
    } else {
      for (int32_t fx = cols.begin; fx < cols.end; ++fx) {
        const int32_t in_x = first_x + (fx - cols.begin) * g.dilation_w;
        memcpy(patch + static_cast<size_t>(fx) * channels, row + static_cast<size_t>(in_x) * channels, channels);
      }
    }
    memset(patch + inside_end, pad, row_bytes - inside_end);
  }
}

// conv2d_s8 with one group; false (nothing written) when the filters are grouped or a
// gathered patch would not fit the stack buffer.
inline bool conv2d_s8(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter, int8_t* output,
                      const conv::Int8Arithmetic& a) {
  if (g.filter_c != g.input_c) return false;
  const size_t patch_size = static_cast<size_t>(g.filter_h) * g.filter_w * g.input_c;
  const bool pointwise = conv::is_pointwise(g);
  if (!pointwise && patch_size > kMaxPatch) return false;
  int8_t patches[2][kMaxPatch];
  const int8_t pad = static_cast<int8_t>(-a.input_offset);  // the checks keep it in int8
  const uint32_t offset2 = pair_of(a.input_offset);
  const size_t output_c = static_cast<size_t>(g.output_c);
  // The patch of the pixel under `at`, then `at` moves on.
  const auto patch_at = [&](PixelCursor& at, int8_t* buffer) -> const int8_t* {
    const int8_t* x = buffer;
    if (pointwise) {
      x = input + ((static_cast<size_t>(at.b) * g.input_h + static_cast<size_t>(at.y) * g.stride_h) * g.input_w +
                   static_cast<size_t>(at.x) * g.stride_w) * g.input_c;
    } else {
      gather_patch(g, input, at, pad, buffer);
    }
    at.next(g);
    return x;
  };
  size_t pixels = static_cast<size_t>(g.batches) * g.output_h * g.output_w;
  PixelCursor at;
  int8_t* out = output;
  for (; pixels >= 2; pixels -= 2, out += 2 * output_c) {
    const int8_t* x0 = patch_at(at, patches[0]);
    const int8_t* x1 = patch_at(at, patches[1]);
    filters_times_patches<true>(x0, x1, filter, patch_size, g.output_c, offset2, a, out, out + output_c);
  }
  if (pixels == 1) {
    const int8_t* x0 = patch_at(at, patches[0]);
    filters_times_patches<false>(x0, x0, filter, patch_size, g.output_c, offset2, a, out, out);
  }
  return true;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_CONV2D_DSP_H_
