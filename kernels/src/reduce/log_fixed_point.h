// The fixed-point natural logarithm TFLM's int8 LOG_SOFTMAX uses
// (log_x_for_x_greater_than_or_equal_to_1_impl in kernels/internal/common.h, built on
// gemmlowp), reproduced bit for bit for its one instantiation: a Q12.19 sum of
// exponentials in, a Q5.26 logarithm out. The gemmlowp primitives (doubling high multiply,
// saturating shifts, 1 / (1 + x)) are the ones the int8 softmax already reproduces.
#ifndef GRAPHRT_KERNELS_REDUCE_LOG_FIXED_POINT_H_
#define GRAPHRT_KERNELS_REDUCE_LOG_FIXED_POINT_H_

#include <stdint.h>

#include "../dense/softmax_fixed_point.h"
#include "../quant_math.h"

namespace grt::kernels::reduce {

// x * 2^exponent for exponent >= 0, saturating (TFLM's SaturatingRoundingMultiplyByPOTParam).
inline int32_t saturating_multiply_by_pot(int32_t x, int exponent) {
  return exponent == 0 ? x : softmax::saturating_shift_left(x, exponent);
}

inline int32_t saturating_add(int32_t a, int32_t b) {
  const int64_t sum = int64_t{a} + int64_t{b};
  return static_cast<int32_t>(sum > INT32_MAX ? INT32_MAX : (sum < INT32_MIN ? INT32_MIN : sum));
}

inline int32_t saturating_sub(int32_t a, int32_t b) {
  const int64_t difference = int64_t{a} - int64_t{b};
  return static_cast<int32_t>(difference > INT32_MAX ? INT32_MAX : (difference < INT32_MIN ? INT32_MIN : difference));
}

inline int leading_zeros(uint32_t x) {
  int n = 0;
  while (n < 32 && (x & (UINT32_C(0x80000000) >> n)) == 0) ++n;
  return n;
}

// log(x) for x >= 1 given in Q12.19; the result is Q5.26. The input is split into a power of
// two and a mantissa r in [sqrt(1/2), sqrt(2)) and log(r) comes from a rational approximation.
inline int32_t log_q12_to_q5(int32_t input) {
  constexpr int kInputIntegerBits = 12;
  constexpr int kAccumIntegerBits = 6;  // output integer bits + 1 of headroom
  // Q0.31 constants.
  constexpr int32_t kLog2 = 1488522236;
  constexpr int32_t kSqrtSqrtHalf = 1805811301;
  constexpr int32_t kSqrtHalf = 1518500250;
  constexpr int32_t kAlphaN = 117049297;
  constexpr int32_t kAlphaD = 127690142;
  constexpr int32_t kAlphaI = 1057819769;
  constexpr int32_t kAlphaF = 638450708;
  // One quarter in Q6.25.
  const int32_t shifted_quarter = rounding_divide_by_pot(536870912, kAccumIntegerBits);
  using softmax::add;
  using softmax::mul;
  using softmax::sub;

  // Read as Q0.31: the headroom above the top bit gives the power of two.
  const int32_t z_a = input;
  const int z_a_headroom_plus_1 = leading_zeros(static_cast<uint32_t>(z_a));
  const int32_t r_a_tmp = saturating_multiply_by_pot(z_a, z_a_headroom_plus_1 - 1);
  const int32_t r_a = saturating_multiply_by_pot(mul(r_a_tmp, kSqrtHalf), 1);
  const int32_t z_a_pow_2_adj = saturating_add(
      saturating_multiply_by_pot(kInputIntegerBits - z_a_headroom_plus_1, 31 - kAccumIntegerBits), shifted_quarter);
  // The same with z premultiplied by sqrt(1/2).
  const int32_t z_b = mul(z_a, kSqrtHalf);
  const int z_b_headroom = leading_zeros(static_cast<uint32_t>(z_b)) - 1;
  const int32_t r_b = saturating_multiply_by_pot(z_a, z_b_headroom);
  const int32_t z_b_pow_2_adj = saturating_sub(
      saturating_multiply_by_pot(kInputIntegerBits - z_b_headroom, 31 - kAccumIntegerBits), shifted_quarter);

  const int32_t r = r_a < r_b ? r_a : r_b;
  const int32_t z_pow_2_adj = z_a_pow_2_adj > z_b_pow_2_adj ? z_a_pow_2_adj : z_b_pow_2_adj;

  const int32_t p = softmax::rounding_half_sum(r, kSqrtSqrtHalf);
  int32_t q = sub(r, kSqrtSqrtHalf);
  q = add(q, q);
  const int32_t common_sq = mul(q, q);
  const int32_t num = add(mul(q, r), mul(mul(q, common_sq), kAlphaN));
  const int32_t denom_minus_one = add(mul(p, add(add(kAlphaI, q), mul(kAlphaD, common_sq))), mul(kAlphaF, q));
  const int32_t recip_denom = softmax::one_over_one_plus_x(denom_minus_one);
  const int32_t num_scaled = rounding_divide_by_pot(num, kAccumIntegerBits);  // Q0.31 -> Q6.25
  // Q6.25 -> Q5.26.
  return softmax::saturating_shift_left(add(mul(z_pow_2_adj, kLog2), mul(num_scaled, recip_denom)), 1);
}

}  // namespace grt::kernels::reduce

#endif  // GRAPHRT_KERNELS_REDUCE_LOG_FIXED_POINT_H_
