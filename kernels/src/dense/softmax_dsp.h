// softmax_s8 on the DSP extension (../conv/dsp_intrinsics.h): the row maximum four bytes
// per load (SSUB8 and SEL keep the larger of each pair of lanes), and the exp's products in
// five instructions instead of the saturating multiply's sign tests and division.
//
// SoftmaxOps::product equals saturating_rounding_doubling_high_mul unless both operands are
// INT32_MIN: (p + nudge) / 2^31 truncated toward zero is (p + 2^30) >> 31 for both signs of
// p (depthwise_requantize.h). Every product softmax_s8 takes has one operand that cannot be
// INT32_MIN: a constant of the exp's series or factors, x = a + 1/8 with a in [-1/4, 0), the
// input multiplier (>= 0) and the exp (>= 0).
#ifndef GRAPHRT_KERNELS_DENSE_SOFTMAX_DSP_H_
#define GRAPHRT_KERNELS_DENSE_SOFTMAX_DSP_H_

#include <stdint.h>

#include "../conv/dsp_intrinsics.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

struct SoftmaxOps {
  static int32_t product(int32_t a, int32_t b) { return rounding_high_mul(a, b); }
  static int8_t row_max(const int8_t* in, int depth);
};

// The largest of in[0, depth).
inline int8_t SoftmaxOps::row_max(const int8_t* in, int depth) {
  int8_t best = INT8_MIN;
  int c = 0;
  if (depth >= 4) {
    uint32_t lanes = load4(in);
    for (c = 4; c + 4 <= depth; c += 4) lanes = max_s8x4(lanes, load4(in + c));
    lanes = max_s8x4(lanes, lanes >> 16);  // bytes 0 and 1: the larger of lanes (0, 2), (1, 3)
    lanes = max_s8x4(lanes, lanes >> 8);
    best = static_cast<int8_t>(lanes & 0xFFu);
  }
  for (; c < depth; ++c) best = in[c] > best ? in[c] : best;
  return best;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_DENSE_SOFTMAX_DSP_H_
