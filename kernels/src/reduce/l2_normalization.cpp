// L2_NORMALIZATION over the last dimension, bit-exact with TFLM's reference
// (reference/integer_ops/l2normalization.h, reference/l2normalization.h): int8 divides each
// zero-point-centred row by its L2 norm through TFLM's fixed-point inverse square root
// (GetInvSqrtQuantizedMultiplierExp, Newton-Raphson in Q3.28), writing outputs in 1/128
// steps; float32 divides by max(sqrtf(sum of squares), 1e-6).
//
// l2_normalization_s8 arguments (output quantization is scale 1/128, zero point 0):
//   0 in X int8, rank >= 1; 1 out Y int8, the shape of X; 2 Int input_zero_point
// l2_normalization_f32 arguments: 0 in X float32, rank >= 1; 1 out Y float32, the shape of X.
#include <math.h>

#include "../dense/softmax_fixed_point.h"
#include "../kernel_args.h"
#include "../quant_math.h"
#include "log_fixed_point.h"
#include "rows.h"

namespace grt::kernels::reduce {
namespace {

struct InverseSqrt {
  int32_t multiplier;
  int shift;
};

// 1 / sqrt(input) as a Q31 multiplier and a (right, so <= 0) shift, for input >= 0: TFLM's
// GetInvSqrtQuantizedMultiplierExp with reverse_shift -1.
InverseSqrt inverse_sqrt(int32_t input) {
  if (input <= 1) return {INT32_MAX, 0};  // 0 is treated as 1, as TFLM does
  int shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++shift;
  }
  const int max_left_shift_bit_pairs = (leading_zeros(static_cast<uint32_t>(input)) - 1) / 2;
  const int left_shift_bit_pairs = max_left_shift_bit_pairs - 1;
  shift -= left_shift_bit_pairs;
  input <<= 2 * left_shift_bit_pairs;
  // Newton-Raphson for 1 / sqrt in Q3.28, starting from 1.
  using softmax::mul;
  const int32_t half_input = rounding_divide_by_pot(input >> 1, 1);
  constexpr int32_t kHalfThree = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28;
  for (int i = 0; i < 5; ++i) {
    const int32_t x3 = softmax::saturating_shift_left(mul(mul(x, x), x), 6);
    x = softmax::saturating_shift_left(softmax::sub(mul(kHalfThree, x), mul(half_input, x3)), 3);
  }
  constexpr int32_t kHalfSqrt2 = 1518500250;  // sqrt(2) / 2 in Q0.31
  InverseSqrt result{mul(x, kHalfSqrt2), shift};
  if (result.shift < 0) {
    result.multiplier = static_cast<int32_t>(static_cast<uint32_t>(result.multiplier) << -result.shift);
    result.shift = 0;
  }
  result.shift = -result.shift;
  return result;
}

void l2_normalize_row(const int8_t* in, int8_t* out, int64_t depth, int32_t input_zero_point) {
  constexpr int kOutputScaleShift = 7;  // outputs are in 1/128 steps
  int32_t sum_of_squares = 0;
  for (int64_t c = 0; c < depth; ++c) {
    const int32_t centered = in[c] - input_zero_point;
    sum_of_squares = wrapping_add(sum_of_squares, centered * centered);
  }
  const InverseSqrt inverse = inverse_sqrt(sum_of_squares);
  for (int64_t c = 0; c < depth; ++c) {
    const int32_t value =
        multiply_by_quantized_multiplier(in[c] - input_zero_point, inverse.multiplier, inverse.shift + kOutputScaleShift);
    out[c] = static_cast<int8_t>(value > INT8_MAX ? INT8_MAX : (value < INT8_MIN ? INT8_MIN : value));
  }
}

void l2_normalize_row(const float* in, float* out, int64_t depth) {
  constexpr float kEpsilon = 1e-6f;
  float sum_of_squares = 0.0f;
  for (int64_t c = 0; c < depth; ++c) sum_of_squares += in[c] * in[c];
  float norm = sqrtf(sum_of_squares);
  norm = norm < kEpsilon ? kEpsilon : norm;  // std::max(norm, epsilon)
  for (int64_t c = 0; c < depth; ++c) out[c] = in[c] / norm;
}

}  // namespace
}  // namespace grt::kernels::reduce

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace reduce = grt::kernels::reduce;

GRT_KERNEL_FUNCTION(l2_normalization_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const int32_t input_zero_point = static_cast<int32_t>(grt::kernels::int_at(args, 2));
  reduce::for_each_row<int8_t>(args, [&](const int8_t* in, int8_t* out, int64_t depth) {
    reduce::l2_normalize_row(in, out, depth, input_zero_point);
  });
  return 0;
}

GRT_CHECK_FUNCTION(l2_normalization_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("l2_normalization_s8", args, type_codes, num_args);
  check.count(3).tensor(0, ElementType::kInt8).tensor(1, ElementType::kInt8).integer(2, INT8_MIN, INT8_MAX);
  reduce::check_rows(check, args);
  return check.result();
}

GRT_KERNEL_FUNCTION(l2_normalization_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  reduce::for_each_row<float>(args, [](const float* in, float* out, int64_t depth) {
    reduce::l2_normalize_row(in, out, depth);
  });
  return 0;
}

GRT_CHECK_FUNCTION(l2_normalization_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::check_float_rows("l2_normalization_f32", args, type_codes, num_args);
}
