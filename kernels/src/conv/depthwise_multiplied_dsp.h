// depthwise_conv2d_s8 with depth multiplier M = 2 or a multiple of 4 on the DSP extension:
// output channel c * M + m filters input channel c. Four consecutive output channels read
// two input channels (M = 2) or one (M = 4j), so per tap one halfword or byte load and one
// SXTAB16 give their activations (plus the input offset) in both halves, paired with the
// four weights' even and odd halves by SMLABB / SMLATT as in depthwise_dsp.h. Taps in
// TFLM's order; leftover output channels (2C not a multiple of 4) one by one.
#ifndef GRAPHRT_KERNELS_CONV_DEPTHWISE_MULTIPLIED_DSP_H_
#define GRAPHRT_KERNELS_CONV_DEPTHWISE_MULTIPLIED_DSP_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "depthwise_dsp.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// The activations of output channels oc..oc+3, as (even, odd) operands of SMLABB / SMLATT:
// for M = 2 input channels ic and ic + 1 in the low and high halves (bytes 0 and 2 of
// h | h << 8), for M = 4j input channel ic in both.
template <bool kTwo>
inline uint32_t multiplied_activations(const int8_t* x, uint32_t offset2) {
  if (kTwo) {
    uint16_t h;
    memcpy(&h, x, sizeof h);
    const uint32_t v = static_cast<uint32_t>(h) | (static_cast<uint32_t>(h) << 8);
    return sxtab16(offset2, v);
  }
  const uint32_t v = static_cast<uint8_t>(*x);
  return sxtab16(offset2, v | (v << 16));
}

template <bool kTwo, class Stage>
inline void depthwise_multiplied(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter,
                                 int8_t* output, const conv::Int8Arithmetic& a) {
  const int32_t multiplier = g.output_c / g.input_c;
  const int32_t channels = g.output_c;
  const int32_t blocked = channels & ~3;
  const size_t out_pitch = static_cast<size_t>(channels);
  const size_t x_row_step = static_cast<size_t>(g.dilation_h) * g.input_w * g.input_c;
  const size_t x_col_step = static_cast<size_t>(g.dilation_w) * g.input_c;
  const size_t filter_row_pitch = static_cast<size_t>(g.filter_w) * out_pitch;
  const uint32_t offset2 = pair_of(a.input_offset);
  const Stage stage(a);
  using Requantizer = typename Stage::Requantizer;
  Requantizer table[kDepthwiseChunk];
  for (int32_t chunk = 0; chunk < blocked; chunk += kDepthwiseChunk) {
    const int32_t chunk_end = blocked - chunk < kDepthwiseChunk ? blocked : chunk + kDepthwiseChunk;
    fill_requantizers(a, chunk, chunk_end - chunk, table);
    int8_t* out = output;
    for (int32_t b = 0; b < g.batches; ++b) {
      for (int32_t oy = 0; oy < g.output_h; ++oy) {
        for (int32_t ox = 0; ox < g.output_w; ++ox, out += out_pitch) {
          const TapWalk walk = tap_walk(g, input, filter, b, oy, ox);
          for (int32_t c = chunk; c < chunk_end; c += 4) {
            Sums4 s;
            clear(s);
            const int8_t* x_row = walk.x + c / multiplier;
            const int8_t* w_row = walk.w + c;
            for (int32_t fy = 0; fy < walk.rows; ++fy, x_row += x_row_step, w_row += filter_row_pitch) {
              const int8_t* x = x_row;
              const int8_t* w = w_row;
              for (int32_t fx = 0; fx < walk.cols; ++fx, x += x_col_step, w += out_pitch) {
                const uint32_t xv = multiplied_activations<kTwo>(x, offset2);
                const uint32_t wv = load4(w);
                const uint32_t w_even = sxtb16(wv), w_odd = sxtb16_ror8(wv);
                s.c0 = smlabb(xv, w_even, s.c0);
                s.c1 = smlabb(xv, w_odd, s.c1);
                // M = 2: channels 2 and 3 read input channel ic + 1 (the high half); M = 4j:
                // the high half holds ic again.
                s.c2 = smlatt(xv, w_even, s.c2);
                s.c3 = smlatt(xv, w_odd, s.c3);
              }
            }
            store4(out + c, table + (c - chunk), s, stage);
          }
        }
      }
    }
  }
  if (blocked == channels) return;
  int8_t* out = output;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.output_h; ++oy) {
      for (int32_t ox = 0; ox < g.output_w; ++ox, out += out_pitch) {
        const TapWalk walk = tap_walk(g, input, filter, b, oy, ox);
        for (int32_t c = blocked; c < channels; ++c) {
          uint32_t sum = 0;
          const int8_t* x_row = walk.x + c / multiplier;
          const int8_t* w_row = walk.w + c;
          for (int32_t fy = 0; fy < walk.rows; ++fy, x_row += x_row_step, w_row += filter_row_pitch) {
            const int8_t* x = x_row;
            const int8_t* w = w_row;
            for (int32_t fx = 0; fx < walk.cols; ++fx, x += x_col_step, w += out_pitch) {
              sum += static_cast<uint32_t>((*x + a.input_offset) * *w);
            }
          }
          out[c] = finish(Requantizer::of(a, c), sum, stage);
        }
      }
    }
  }
}

// depthwise_conv2d_s8 with a depth multiplier of 2 or a multiple of 4; false (nothing
// written) otherwise.
inline bool depthwise_multiplied_s8(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter,
                                    int8_t* output, const conv::Int8Arithmetic& a) {
  if (g.input_c < 1 || g.output_c % g.input_c != 0) return false;
  const int32_t multiplier = g.output_c / g.input_c;
  if (multiplier != 2 && multiplier % 4 != 0) return false;
  // The exact requantizer only: no model of the zoo has such a layer, and FastRequantizer's
  // copies would cost KWS's images about a kilobyte of .text.
  if (multiplier == 2) {
    depthwise_multiplied<true, OutputStage>(g, input, filter, output, a);
  } else {
    depthwise_multiplied<false, OutputStage>(g, input, filter, output, a);
  }
  return true;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_DEPTHWISE_MULTIPLIED_DSP_H_
