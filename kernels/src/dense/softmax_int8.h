// One row of TFLM's int8 softmax (reference SoftmaxInt8): exps of Q5.26 differences from the
// row maximum, summed in Q12.19, scaled by the sum's reciprocal to the output's full range
// from its minimum. Ops gives the row maximum and the exp's products: PortableOps here,
// dsp::SoftmaxOps (softmax_dsp.h) on cores with the DSP extension; the same integers.
#ifndef GRAPHRT_KERNELS_DENSE_SOFTMAX_INT8_H_
#define GRAPHRT_KERNELS_DENSE_SOFTMAX_INT8_H_

#include <stdint.h>

#include "../quant_math.h"
#include "softmax_fixed_point.h"

namespace grt::kernels::softmax {

struct PortableOps : SaturatingMul {
  static int8_t row_max(const int8_t* in, int depth) {
    int8_t best = INT8_MIN;
    for (int c = 0; c < depth; ++c) best = in[c] > best ? in[c] : best;
    return best;
  }
};

// softmax_s8's arguments 2 to 4.
struct Int8Softmax {
  int32_t input_multiplier;  // Q31, >= 0
  int input_left_shift;      // [0, 31]
  int32_t diff_min;          // <= 0
};

// exp(beta * (x - max)) in Q0.31: the difference rescaled by beta * scale into Q5.26 first.
template <class Ops>
inline int32_t exp_of_difference(const Int8Softmax& p, int32_t difference) {
  const int32_t scaled = Ops::product(static_cast<int32_t>(static_cast<uint32_t>(difference) << p.input_left_shift),
                                      p.input_multiplier);
  return exp_on_negative_values_q5<Ops>(scaled);
}

template <typename OutputT, class Ops>
inline void softmax_int8_row(const Int8Softmax& p, const int8_t* in, OutputT* out, int depth) {
  constexpr int kAccumulationIntegerBits = 12;
  constexpr int32_t kOutputMin = sizeof(OutputT) == 1 ? INT8_MIN : INT16_MIN;
  constexpr int32_t kOutputMax = sizeof(OutputT) == 1 ? INT8_MAX : INT16_MAX;
  const int32_t max_in_row = Ops::row_max(in, depth);

  int32_t sum_of_exps = 0;  // Q12.19
  for (int c = 0; c < depth; ++c) {
    const int32_t difference = int32_t{in[c]} - max_in_row;
    if (difference >= p.diff_min) {
      sum_of_exps = add(sum_of_exps, rounding_divide_by_pot(exp_of_difference<Ops>(p, difference), kAccumulationIntegerBits));
    }
  }

  int bits_over_unit = 0;
  const int32_t shifted_scale = reciprocal(sum_of_exps, kAccumulationIntegerBits, &bits_over_unit);
  // TFLM aborts when this leaves [0, 31] (sums of exps of 512 and more); saturate instead.
  int exponent = bits_over_unit + 31 - static_cast<int>(8 * sizeof(OutputT));
  exponent = exponent < 0 ? 0 : (exponent > 31 ? 31 : exponent);

  for (int c = 0; c < depth; ++c) {
    const int32_t difference = int32_t{in[c]} - max_in_row;
    int32_t value = kOutputMin;
    if (difference >= p.diff_min) {
      const int32_t exp_q0 = exp_of_difference<Ops>(p, difference);
      value = rounding_divide_by_pot(Ops::product(shifted_scale, exp_q0), exponent) + kOutputMin;
      value = value < kOutputMin ? kOutputMin : (value > kOutputMax ? kOutputMax : value);
    }
    out[c] = static_cast<OutputT>(value);
  }
}

}  // namespace grt::kernels::softmax

#endif  // GRAPHRT_KERNELS_DENSE_SOFTMAX_INT8_H_
