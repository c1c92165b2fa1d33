// multiply_by_quantized_multiplier (quant_math.h) for a multiplier that is not INT32_MIN,
// with the per-channel constants worked out once, in fewer operations and bit for bit the
// same result:
//  * saturating_rounding_doubling_high_mul(a, b): the saturating case needs a == b ==
//    INT32_MIN, excluded here; otherwise (p + nudge) / 2^31 truncated toward zero, with
//    p = a * b and nudge = 2^30 (p >= 0) or 1 - 2^30 (p < 0), equals floor((p + 2^30) / 2^31)
//    for both signs, an arithmetic shift.
//  * rounding_divide_by_pot(s, e), e >= 1: (s >> e) + (remainder > threshold) equals
//    floor((s + 2^(e-1) - [s < 0]) / 2^e): half rounds away from zero. Computed in 64 bits,
//    so s + 2^(e-1) cannot overflow. e == 0 leaves s as it is (both biases 0).
#ifndef GRAPHRT_KERNELS_CONV_DEPTHWISE_REQUANTIZE_H_
#define GRAPHRT_KERNELS_CONV_DEPTHWISE_REQUANTIZE_H_

#include <stdint.h>

namespace grt::kernels::conv {

struct Requantizer {
  int32_t multiplier;     // Q31, never INT32_MIN
  int left_shift;         // in [0, 31]
  int right_shift;        // in [0, 31]
  int64_t round_positive;  // 2^(right_shift - 1), or 0
  int64_t round_negative;  // 2^(right_shift - 1) - 1, or 0

  // From a (multiplier, shift) pair as multiply_by_quantized_multiplier takes it; shift in
  // [-31, 31].
  static Requantizer make(int32_t multiplier, int shift) {
    Requantizer r;
    r.multiplier = multiplier;
    r.left_shift = shift > 0 ? shift : 0;
    r.right_shift = shift > 0 ? 0 : -shift;
    r.round_positive = r.right_shift > 0 ? int64_t{1} << (r.right_shift - 1) : 0;
    r.round_negative = r.right_shift > 0 ? r.round_positive - 1 : 0;
    return r;
  }

  int32_t apply(int32_t x) const {
    const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left_shift);
    const int64_t high = (static_cast<int64_t>(shifted) * multiplier + (int64_t{1} << 30)) >> 31;
    return static_cast<int32_t>((high + (high < 0 ? round_negative : round_positive)) >> right_shift);
  }
};

}  // namespace grt::kernels::conv

#endif  // GRAPHRT_KERNELS_CONV_DEPTHWISE_REQUANTIZE_H_
