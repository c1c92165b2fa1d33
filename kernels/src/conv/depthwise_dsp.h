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
#include <string.h>

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

// Channels handled per pass over the image: their requantizers sit in a stack table.
constexpr int32_t kDepthwiseChunk = 16;

// Where one output pixel's taps inside the image start and how they advance.
struct TapWalk {
  const int8_t* x;  // first tap's activations (channel 0)
  const int8_t* w;  // its weights (channel 0)
  int32_t rows, cols;
  bool whole_3x3;
};

// Channels in chunks of kDepthwiseChunk (multiples of 4), each chunk over the whole image
// with its requantizers worked out once; leftover channels one by one.
template <class Stage>
inline void depthwise_multiplier1(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter, int8_t* output,
                                  const conv::Int8Arithmetic& a) {
  const int32_t channels = g.output_c;
  const int32_t blocked = channels & ~3;
  const size_t pixel_pitch = static_cast<size_t>(channels);
  const size_t row_pitch = static_cast<size_t>(g.input_w) * pixel_pitch;
  const size_t filter_row_pitch = static_cast<size_t>(g.filter_w) * pixel_pitch;
  const size_t x_row_step = static_cast<size_t>(g.dilation_h) * row_pitch;
  const size_t x_col_step = static_cast<size_t>(g.dilation_w) * pixel_pitch;
  const uint32_t offset2 = pair_of(a.input_offset);
  const Stage stage(a);
  const bool unit_3x3 = g.filter_h == 3 && g.filter_w == 3 && g.dilation_h == 1 && g.dilation_w == 1;
  // The taps of output pixel (b, oy, ox) inside the image.
  const auto walk_at = [&](int32_t b, int32_t oy, int32_t ox) {
    const int64_t origin_y = static_cast<int64_t>(oy) * g.stride_h - g.pad_top;
    const int64_t origin_x = static_cast<int64_t>(ox) * g.stride_w - g.pad_left;
    const conv::TapRange rows = conv::taps_inside(origin_y, g.dilation_h, g.filter_h, g.input_h);
    const conv::TapRange cols = conv::taps_inside(origin_x, g.dilation_w, g.filter_w, g.input_w);
    TapWalk walk{input, filter, rows.end - rows.begin, cols.end - cols.begin, false};
    if (walk.rows <= 0 || walk.cols <= 0) {
      walk.rows = walk.cols = 0;  // nothing is read
      return walk;
    }
    const int64_t first_y = origin_y + static_cast<int64_t>(rows.begin) * g.dilation_h;
    const int64_t first_x = origin_x + static_cast<int64_t>(cols.begin) * g.dilation_w;
    walk.x = input + (static_cast<size_t>(b) * g.input_h + static_cast<size_t>(first_y)) * row_pitch +
             static_cast<size_t>(first_x) * pixel_pitch;
    walk.w = filter + static_cast<size_t>(rows.begin) * filter_row_pitch + static_cast<size_t>(cols.begin) * pixel_pitch;
    walk.whole_3x3 = unit_3x3 && walk.rows == 3 && walk.cols == 3;
    return walk;
  };
  ChannelRequantizer table[kDepthwiseChunk];
  for (int32_t chunk = 0; chunk < blocked; chunk += kDepthwiseChunk) {
    const int32_t chunk_end = blocked - chunk < kDepthwiseChunk ? blocked : chunk + kDepthwiseChunk;
    for (int32_t c = chunk; c < chunk_end; ++c) table[c - chunk] = ChannelRequantizer::of(a, c);
    int8_t* out = output;
    for (int32_t b = 0; b < g.batches; ++b) {
      for (int32_t oy = 0; oy < g.output_h; ++oy) {
        for (int32_t ox = 0; ox < g.output_w; ++ox, out += pixel_pitch) {
          const TapWalk walk = walk_at(b, oy, ox);
          for (int32_t c = chunk; c < chunk_end; c += 4) {
            Sums4 s{0, 0, 0, 0};
            if (walk.whole_3x3) {
              // Pointers stepped tap by tap (the filter's nine taps are pixel_pitch apart),
              // so no tap offset has to be kept in a register.
              const int8_t* x_row = walk.x + c;
              const int8_t* w = walk.w + c;
#pragma GCC unroll 3
              for (int fy = 0; fy < 3; ++fy, x_row += row_pitch) {
                const int8_t* x = x_row;
#pragma GCC unroll 3
                for (int fx = 0; fx < 3; ++fx, x += pixel_pitch, w += pixel_pitch) depthwise_tap4(x, w, offset2, s);
              }
            } else {
              const int8_t* x_row = walk.x + c;
              const int8_t* w_row = walk.w + c;
              for (int32_t fy = 0; fy < walk.rows; ++fy, x_row += x_row_step, w_row += filter_row_pitch) {
                const int8_t* x = x_row;
                const int8_t* w = w_row;
                for (int32_t fx = 0; fx < walk.cols; ++fx, x += x_col_step, w += pixel_pitch) depthwise_tap4(x, w, offset2, s);
              }
            }
            // All four before storing: an int8 store may alias the table.
            const ChannelRequantizer* r = table + (c - chunk);
            const int8_t values[4] = {stage(r[0].apply(s.c0)), stage(r[1].apply(s.c1)), stage(r[2].apply(s.c2)),
                                      stage(r[3].apply(s.c3))};
            memcpy(out + c, values, 4);
          }
        }
      }
    }
  }
  if (blocked == channels) return;
  int8_t* out = output;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.output_h; ++oy) {
      for (int32_t ox = 0; ox < g.output_w; ++ox, out += pixel_pitch) {
        const TapWalk walk = walk_at(b, oy, ox);
        for (int32_t c = blocked; c < channels; ++c) {
          uint32_t sum = 0;
          const int8_t* x_row = walk.x + c;
          const int8_t* w_row = walk.w + c;
          for (int32_t fy = 0; fy < walk.rows; ++fy, x_row += x_row_step, w_row += filter_row_pitch) {
            const int8_t* x = x_row;
            const int8_t* w = w_row;
            for (int32_t fx = 0; fx < walk.cols; ++fx, x += x_col_step, w += pixel_pitch) {
              sum += static_cast<uint32_t>((*x + a.input_offset) * *w);
            }
          }
          out[c] = stage(ChannelRequantizer::of(a, c).apply(sum));
        }
      }
    }
  }
}

// depthwise_conv2d_s8 when output channels == input channels; false (nothing written)
// otherwise.
inline bool depthwise_conv2d_s8(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter, int8_t* output,
                                const conv::Int8Arithmetic& a) {
  if (g.output_c != g.input_c) return false;
  if (clamps_to_int8(a)) {
    depthwise_multiplier1<FullRangeOutputStage>(g, input, filter, output, a);
  } else {
    depthwise_multiplier1<OutputStage>(g, input, filter, output, a);
  }
  return true;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_DEPTHWISE_DSP_H_
