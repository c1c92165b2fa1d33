// depthwise_conv2d_s8 with depth multiplier 1 on the DSP extension (dsp_intrinsics.h).
// Per output pixel, four channels at a time: each tap loads four activations and four
// weights (channels c..c+3 are contiguous in both), sign-extends them into even and odd
// channel pairs (the input offset added by SXTAB16) and adds each channel's product to its
// own sum with SMLABB / SMLATT. A 3x3 window wholly inside the image is unrolled. Leftover
// channels (count not a multiple of 4) are summed one by one. Taps are visited in TFLM's
// order; sums wrap like the portable path's and are requantized as it does.
#ifndef GRAPHRT_KERNELS_CONV_DEPTHWISE_DSP_H_
#define GRAPHRT_KERNELS_CONV_DEPTHWISE_DSP_H_

#include <stddef.h>
#include <stdint.h>

#include "conv_arithmetic.h"
#include "conv_geometry.h"
#include "dsp_intrinsics.h"
#include "dsp_requantize.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

struct Sums4 {
  uint32_t c0, c1, c2, c3;
};

// Adds one tap's products for four channels.
inline void depthwise_tap4(const int8_t* x, const int8_t* w, uint32_t offset2, Sums4& s) {
  const uint32_t xv = load4(x), wv = load4(w);
  const uint32_t x_even = sxtab16(offset2, xv), x_odd = sxtab16_ror8(offset2, xv);
  const uint32_t w_even = sxtb16(wv), w_odd = sxtb16_ror8(wv);
  s.c0 = smlabb(x_even, w_even, s.c0);
  s.c1 = smlabb(x_odd, w_odd, s.c1);
  s.c2 = smlatt(x_even, w_even, s.c2);
  s.c3 = smlatt(x_odd, w_odd, s.c3);
}

// depthwise_conv2d_s8 when output channels == input channels; false (nothing written)
// otherwise.
inline bool depthwise_conv2d_s8(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter, int8_t* output,
                                const conv::Int8Arithmetic& a) {
  if (g.output_c != g.input_c) return false;
  const int32_t channels = g.output_c;
  const int32_t blocked = channels & ~3;
  const size_t pixel_pitch = static_cast<size_t>(channels);
  const size_t row_pitch = static_cast<size_t>(g.input_w) * pixel_pitch;
  const size_t filter_row_pitch = static_cast<size_t>(g.filter_w) * pixel_pitch;
  const uint32_t offset2 = pair_of(a.input_offset);
  const OutputStage stage(a);
  const bool unit_3x3 = g.filter_h == 3 && g.filter_w == 3 && g.dilation_h == 1 && g.dilation_w == 1;
  int8_t* out = output;
  for (int32_t b = 0; b < g.batches; ++b) {
    const int8_t* image = input + static_cast<size_t>(b) * g.input_h * row_pitch;
    for (int32_t oy = 0; oy < g.output_h; ++oy) {
      const int64_t origin_y = static_cast<int64_t>(oy) * g.stride_h - g.pad_top;
      const conv::TapRange rows = conv::taps_inside(origin_y, g.dilation_h, g.filter_h, g.input_h);
      for (int32_t ox = 0; ox < g.output_w; ++ox, out += pixel_pitch) {
        const int64_t origin_x = static_cast<int64_t>(ox) * g.stride_w - g.pad_left;
        const conv::TapRange cols = conv::taps_inside(origin_x, g.dilation_w, g.filter_w, g.input_w);
        const bool whole_3x3 = unit_3x3 && rows.begin == 0 && rows.end == 3 && cols.begin == 0 && cols.end == 3;
        // The first tap inside (or any address when there is none: nothing is read then).
        const int32_t first_y = static_cast<int32_t>(origin_y + static_cast<int64_t>(rows.begin) * g.dilation_h);
        const int32_t first_x = static_cast<int32_t>(origin_x + static_cast<int64_t>(cols.begin) * g.dilation_w);
        const bool any = rows.begin < rows.end && cols.begin < cols.end;
        const int8_t* x_first = any ? image + static_cast<size_t>(first_y) * row_pitch + static_cast<size_t>(first_x) * pixel_pitch
                                    : image;
        const int8_t* w_first = any ? filter + static_cast<size_t>(rows.begin) * filter_row_pitch +
                                          static_cast<size_t>(cols.begin) * pixel_pitch
                                    : filter;
        const size_t x_row_step = static_cast<size_t>(g.dilation_h) * row_pitch;
        const size_t x_col_step = static_cast<size_t>(g.dilation_w) * pixel_pitch;
        for (int32_t c = 0; c < blocked; c += 4) {
          Sums4 s{0, 0, 0, 0};
          if (whole_3x3) {
#pragma GCC unroll 3
            for (int fy = 0; fy < 3; ++fy) {
#pragma GCC unroll 3
              for (int fx = 0; fx < 3; ++fx) {
                depthwise_tap4(x_first + fy * row_pitch + fx * pixel_pitch + c,
                               w_first + fy * filter_row_pitch + fx * pixel_pitch + c, offset2, s);
              }
            }
          } else {
            const int8_t* x_row = x_first + c;
            const int8_t* w_row = w_first + c;
            for (int32_t fy = rows.begin; fy < rows.end; ++fy, x_row += x_row_step, w_row += filter_row_pitch) {
              const int8_t* x = x_row;
              const int8_t* w = w_row;
              for (int32_t fx = cols.begin; fx < cols.end; ++fx, x += x_col_step, w += pixel_pitch) {
                depthwise_tap4(x, w, offset2, s);
              }
            }
          }
          out[c] = stage(ChannelRequantizer::of(a, c).apply(s.c0));
          out[c + 1] = stage(ChannelRequantizer::of(a, c + 1).apply(s.c1));
          out[c + 2] = stage(ChannelRequantizer::of(a, c + 2).apply(s.c2));
          out[c + 3] = stage(ChannelRequantizer::of(a, c + 3).apply(s.c3));
        }
        for (int32_t c = blocked; c < channels; ++c) {
          uint32_t sum = 0;
          const int8_t* x_row = x_first + c;
          const int8_t* w_row = w_first + c;
          for (int32_t fy = rows.begin; fy < rows.end; ++fy, x_row += x_row_step, w_row += filter_row_pitch) {
            const int8_t* x = x_row;
            const int8_t* w = w_row;
            for (int32_t fx = cols.begin; fx < cols.end; ++fx, x += x_col_step, w += pixel_pitch) {
              sum += static_cast<uint32_t>((*x + a.input_offset) * *w);
            }
          }
          out[c] = stage(ChannelRequantizer::of(a, c).apply(sum));
        }
      }
    }
  }
  return true;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_DEPTHWISE_DSP_H_
