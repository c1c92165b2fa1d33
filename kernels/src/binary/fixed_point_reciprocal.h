// The fixed-point reciprocal TFLM's int8 DIV uses (GetReciprocal over gemmlowp's
// one_over_one_plus_x_for_x_in_0_1), reproduced bit for bit: same Newton-Raphson steps, same
// rounding and saturation.
#ifndef GRAPHRT_KERNELS_BINARY_FIXED_POINT_RECIPROCAL_H_
#define GRAPHRT_KERNELS_BINARY_FIXED_POINT_RECIPROCAL_H_

#include <stdint.h>

#include "../quant_math.h"
#include "binary_common.h"

namespace grt::kernels::binary {

inline int count_leading_zeros(uint32_t x) { return x == 0 ? 32 : __builtin_clz(x); }

// Redundant sign bits below the sign bit: 31 for 0 and -1.
inline int count_leading_sign_bits(int32_t x) {
  const uint32_t magnitude_bits = x >= 0 ? static_cast<uint32_t>(x) : ~static_cast<uint32_t>(x);
  return count_leading_zeros(magnitude_bits) - 1;
}

// (a + b) / 2 rounded half away from zero, in 64 bits (gemmlowp's RoundingHalfSum).
inline int32_t rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = int64_t{a} + int64_t{b};
  return static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

// x * 2^exponent, exponent in [1, 30], saturating to int32 (gemmlowp's
// SaturatingRoundingMultiplyByPOT for a positive exponent).
inline int32_t saturating_shift_left(int32_t x, int exponent) {
  const int32_t threshold = (int32_t{1} << (31 - exponent)) - 1;
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

// 1 / (1 + x) for x in [0, 1), both Q0.31, by three Newton-Raphson steps on half the
// denominator in Q2.29 (gemmlowp's one_over_one_plus_x_for_x_in_0_1).
inline int32_t one_over_one_plus_x(int32_t x) {
  constexpr int32_t kOneQ2 = int32_t{1} << 29;
  constexpr int32_t k48Over17Q2 = 1515870810;
  constexpr int32_t kMinus32Over17Q2 = -1010580540;
  const int32_t half_denominator = rounding_half_sum(x, INT32_MAX);  // INT32_MAX: Q0.31's "one"
  int32_t estimate = wrapping_add(k48Over17Q2, saturating_rounding_doubling_high_mul(half_denominator, kMinus32Over17Q2));
  for (int i = 0; i < 3; ++i) {
    const int32_t error = wrapping_sub(kOneQ2, saturating_rounding_doubling_high_mul(half_denominator, estimate));
    // Q2 * Q2 is Q4; back to Q2 by a saturating shift of 2.
    estimate = wrapping_add(estimate, saturating_shift_left(saturating_rounding_doubling_high_mul(estimate, error), 2));
  }
  // Q2 read as Q1 halves it; back to Q0 by a saturating shift of 1.
  return saturating_shift_left(estimate, 1);
}

// 1 / x for x >= 1 as a Q0.31 multiplier and a shift: 1/x = multiplier * 2^-bits_over_unit
// (TFLM's GetReciprocal with 31 integer digits).
inline int32_t reciprocal(int32_t x, int* bits_over_unit) {
  const int headroom_plus_one = count_leading_zeros(static_cast<uint32_t>(x));
  *bits_over_unit = 31 - headroom_plus_one;
  const int32_t shifted_minus_one =
      static_cast<int32_t>((static_cast<uint32_t>(x) << headroom_plus_one) - (uint32_t{1} << 31));
  return one_over_one_plus_x(shifted_minus_one);
}

}  // namespace grt::kernels::binary

#endif  // GRAPHRT_KERNELS_BINARY_FIXED_POINT_RECIPROCAL_H_
