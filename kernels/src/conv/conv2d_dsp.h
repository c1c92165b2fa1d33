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
  Sums2x2 s{0, 0, 0, 0};
  size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    const uint32_t a = load4(x0 + k), b = load4(x1 + k);
    const uint32_t a_even = sxtab16(offset2, a), a_odd = sxtab16_ror8(offset2, a);
    const uint32_t b_even = sxtab16(offset2, b), b_odd = sxtab16_ror8(offset2, b);
    const uint32_t u = load4(w0 + k);
    const uint32_t u_even = sxtb16(u), u_odd = sxtb16_ror8(u);
    s.p0c0 = smlad(a_odd, u_odd, smlad(a_even, u_even, s.p0c0));
    s.p1c0 = smlad(b_odd, u_odd, smlad(b_even, u_even, s.p1c0));
    const uint32_t v = load4(w1 + k);
    const uint32_t v_even = sxtb16(v), v_odd = sxtb16_ror8(v);
    s.p0c1 = smlad(a_odd, v_odd, smlad(a_even, v_even, s.p0c1));
    s.p1c1 = smlad(b_odd, v_odd, smlad(b_even, v_even, s.p1c1));
  }
  const int32_t offset = lo16(offset2);
  for (; k < n; ++k) {
    const int32_t a = x0[k] + offset, b = x1[k] + offset;
    s.p0c0 += static_cast<uint32_t>(a * w0[k]);
    s.p0c1 += static_cast<uint32_t>(a * w1[k]);
    s.p1c0 += static_cast<uint32_t>(b * w0[k]);
    s.p1c1 += static_cast<uint32_t>(b * w1[k]);
  }
  return s;
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
  const int32_t output_c = g.output_c;
  const int64_t pixels = static_cast<int64_t>(g.batches) * g.output_h * g.output_w;
  PixelCursor at;
  int8_t* out = output;
  for (int64_t p = 0; p < pixels; p += 2) {
    const bool two = p + 1 < pixels;
    const int8_t* x[2];
    for (int j = 0; j < (two ? 2 : 1); ++j, at.next(g)) {
      if (pointwise) {
        x[j] = input + ((static_cast<size_t>(at.b) * g.input_h + static_cast<size_t>(at.y) * g.stride_h) * g.input_w +
                        static_cast<size_t>(at.x) * g.stride_w) * g.input_c;
      } else {
        gather_patch(g, input, at, pad, patches[j]);
        x[j] = patches[j];
      }
    }
    if (!two) x[1] = x[0];  // computed twice, written once
    int8_t* out1 = out + output_c;
    for (int32_t oc = 0; oc < output_c; oc += 2) {
      const bool pair = oc + 1 < output_c;
      const int8_t* w0 = filter + static_cast<size_t>(oc) * patch_size;
      const Sums2x2 s = dot_2x2(x[0], x[1], w0, pair ? w0 + patch_size : w0, patch_size, offset2);
      out[oc] = requantize_channel(a, s.p0c0, oc);
      if (two) out1[oc] = requantize_channel(a, s.p1c0, oc);
      if (pair) {
        out[oc + 1] = requantize_channel(a, s.p0c1, oc + 1);
        if (two) out1[oc + 1] = requantize_channel(a, s.p1c1, oc + 1);
      }
    }
    out += (two ? 2 : 1) * static_cast<size_t>(output_c);
  }
  return true;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_CONV2D_DSP_H_
