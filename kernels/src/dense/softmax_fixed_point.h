// The fixed-point exp and reciprocal TFLM's int8 softmax uses (gemmlowp's
// exp_on_negative_values and one_over_one_plus_x_for_x_in_0_1, scalar int32 only),
// reproduced bit for bit. Values are Qm.n in int32 raw form: m integer bits, 31 - m
// fractional bits.
#ifndef GRAPHRT_KERNELS_DENSE_SOFTMAX_FIXED_POINT_H_
#define GRAPHRT_KERNELS_DENSE_SOFTMAX_FIXED_POINT_H_

#include <stdint.h>

#include "../quant_math.h"

namespace grt::kernels::softmax {

// x * 2^exponent for exponent > 0, saturating at the int32 limits.
inline int32_t saturating_shift_left(int32_t x, int exponent) {
  const int32_t threshold = static_cast<int32_t>((int64_t{1} << (31 - exponent)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

// (a + b) / 2 rounded half away from zero.
inline int32_t rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = int64_t{a} + int64_t{b};
  return static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

inline int32_t mul(int32_t a, int32_t b) { return saturating_rounding_doubling_high_mul(a, b); }

// The exp's products: Ops::product is `mul`, or one equal to it whenever one operand is not
// INT32_MIN, which holds for every product in the exp (softmax_dsp.h).
struct SaturatingMul {
  static int32_t product(int32_t a, int32_t b) { return mul(a, b); }
};

// Plain int32 addition as gemmlowp does it, with wrap-around instead of undefined behaviour.
inline int32_t add(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); }
inline int32_t sub(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b)); }

// exp(a) for a in [-1/4, 0), a and result Q0.31: a Taylor series around -1/8.
template <class Ops = SaturatingMul>
inline int32_t exp_on_quarter_interval(int32_t a) {
  const int32_t exp_minus_one_eighth = 1895147668;  // exp(-1/8) in Q0.31
  const int32_t one_third = 715827883;              // 1/3 in Q0.31
  const int32_t x = add(a, int32_t{1} << 28);       // a + 1/8
  const int32_t x2 = Ops::product(x, x);
  const int32_t x3 = Ops::product(x2, x);
  const int32_t x4 = Ops::product(x2, x2);
  const int32_t x4_over_4 = rounding_divide_by_pot(x4, 2);
  const int32_t series = rounding_divide_by_pot(add(Ops::product(add(x4_over_4, x3), one_third), x2), 1);
  return add(exp_minus_one_eighth, Ops::product(exp_minus_one_eighth, add(x, series)));
}

// exp(a) for a <= 0 given in Q5.26; the result is Q0.31.
template <class Ops = SaturatingMul>
inline int32_t exp_on_negative_values_q5(int32_t a) {
  constexpr int kFractionalBits = 26;
  const int32_t one_quarter = int32_t{1} << (kFractionalBits - 2);
  const int32_t a_mod_quarter_minus_quarter = sub(a & (one_quarter - 1), one_quarter);
  // Q5.26 -> Q0.31 is a saturating left shift by 5.
  int32_t result = exp_on_quarter_interval<Ops>(saturating_shift_left(a_mod_quarter_minus_quarter, 5));
  const int32_t remainder = sub(a_mod_quarter_minus_quarter, a);
  // exp(-2^k) in Q0.31 for k = -2 .. 4: one factor for each whole power of two in -a.
  struct Factor {
    int exponent;
    int32_t multiplier;
  };
  constexpr Factor kFactors[] = {{-2, 1672461947}, {-1, 1302514674}, {0, 790015084}, {1, 290630308},
                                 {2, 39332535},    {3, 720401},      {4, 242}};
  for (const Factor& f : kFactors) {
    if ((remainder & (int32_t{1} << (kFractionalBits + f.exponent))) != 0) result = Ops::product(result, f.multiplier);
  }
  return a == 0 ? INT32_MAX : result;
}

// 1 / (1 + a) for a in [0, 1) given in Q0.31; the result is Q0.31. Newton-Raphson in Q2.29.
inline int32_t one_over_one_plus_x(int32_t a) {
  const int32_t half_denominator = rounding_half_sum(a, INT32_MAX);
  const int32_t forty_eight_over_17 = 1515870810;     // Q2.29
  const int32_t minus_thirty_two_over_17 = -1010580540;  // Q2.29
  const int32_t one_q2 = int32_t{1} << 29;
  int32_t x = add(forty_eight_over_17, mul(half_denominator, minus_thirty_two_over_17));
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus_product = sub(one_q2, mul(half_denominator, x));
    // Q2.29 * Q2.29 is Q4.27; back to Q2.29 with a saturating shift.
    x = add(x, saturating_shift_left(mul(x, one_minus_product), 2));
  }
  // x / 2 in Q1.30 is the same raw value; Q1.30 -> Q0.31.
  return saturating_shift_left(x, 1);
}

// 1 / x for x in Q(integer_bits).(31 - integer_bits), x > 0: returns the reciprocal scaled
// into [0.5, 1] as Q0.31 and how many bits x had above 1.0.
inline int32_t reciprocal(int32_t x, int integer_bits, int* bits_over_unit) {
  int headroom_plus_one = 0;
  while (headroom_plus_one < 32 && (static_cast<uint32_t>(x) & (UINT32_C(0x80000000) >> headroom_plus_one)) == 0) {
    ++headroom_plus_one;
  }
  *bits_over_unit = integer_bits - headroom_plus_one;
  const uint32_t normalized = headroom_plus_one < 32 ? static_cast<uint32_t>(x) << headroom_plus_one : 0u;
  return one_over_one_plus_x(static_cast<int32_t>(normalized - UINT32_C(0x80000000)));
}

}  // namespace grt::kernels::softmax

#endif  // GRAPHRT_KERNELS_DENSE_SOFTMAX_FIXED_POINT_H_
