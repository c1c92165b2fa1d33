// One activation vector against two weight rows on the DSP extension (dsp_intrinsics.h):
// a fully connected layer's rows, or a convolution's lone last pixel against a pair of
// filters when its patch is too deep to expand (expanded_dot_dsp.h).
#ifndef GRAPHRT_KERNELS_CONV_DOT_ROWS_DSP_H_
#define GRAPHRT_KERNELS_CONV_DOT_ROWS_DSP_H_

#include <stddef.h>
#include <stdint.h>

#include "dsp_intrinsics.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// sum over k < depth of (x[k] + offset) * w_j[k] for the rows w_0 = w and w_1 = w + step
// (step 0: the same row twice).
inline void dot_rows_2(const int8_t* x, const int8_t* w, size_t depth, size_t step, uint32_t offset2, uint32_t* s0,
                       uint32_t* s1) {
  uint32_t a0 = 0, a1 = 0;
  const int8_t* const words_end = x + (depth & ~size_t{3});
  for (; x != words_end; x += 4, w += 4) {
    const uint32_t v = load4(x);
    const uint32_t x_even = sxtab16(offset2, v), x_odd = sxtab16_ror8(offset2, v);
    const uint32_t u = load4(w);
    a0 = smlad(x_odd, sxtb16_ror8(u), smlad(x_even, sxtb16(u), a0));
    const uint32_t t = load4(w + step);
    a1 = smlad(x_odd, sxtb16_ror8(t), smlad(x_even, sxtb16(t), a1));
  }
  const int32_t offset = lo16(offset2);
  for (size_t i = 0; i < (depth & 3); ++i) {
    a0 += static_cast<uint32_t>((x[i] + offset) * w[i]);
    a1 += static_cast<uint32_t>((x[i] + offset) * w[step + i]);
  }
  *s0 = a0;
  *s1 = a1;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_DOT_ROWS_DSP_H_
