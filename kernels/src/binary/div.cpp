// DIV with broadcasting and the fused activation's clamp, as TFLM's reference kernels.
//
// div_f32 takes 0 in A, 1 in B, 2 out Y (float32; Y's shape is A and B broadcast),
//   3 Float activation_min, 4 Float activation_max. IEEE division: x / 0 is an infinity (then
//   clamped, to +-FLT_MAX without an activation, as in TFLM) or NaN.
// div_s8 takes:
//   0 in A, 1 in B, 2 out Y (int8; Y's shape is A and B broadcast)
//   3 Int a_offset, 4 Int b_offset (-zero points), 5 Int out_offset (zero point of Y)
//   6 Int multiplier, 7 Int shift (scale_a / (scale_b * scale_y); shift <= 23)
//   8 Int activation_min, 9 Int activation_max
//   TFLM's arithmetic: the divisor's fixed-point reciprocal (fixed_point_reciprocal.h), the
//   dividend normalized by its headroom, one rounding multiply each, then a rounding shift.
//   A B element equal to B's zero point fails the run before anything is written.
// div_s32 takes 0 A, 1 B, 2 Y (int32), 3 Int activation_min, 4 Int activation_max. The
//   quotient truncates toward zero. TFLM divides by zero (undefined: a trap on most targets);
//   here a zero anywhere in B fails the run before anything is written, and INT32_MIN / -1
//   wraps to INT32_MIN.
#include <stdint.h>

#include "binary_common.h"
#include "fixed_point_reciprocal.h"

namespace grt::kernels::binary {
namespace {

struct FloatDiv {
  float activation_min, activation_max;
  float operator()(float a, float b) const { return clamp_to(a / b, activation_min, activation_max); }
};

struct Int32Div {
  int32_t activation_min, activation_max;
  int32_t operator()(int32_t a, int32_t b) const {
    const int32_t quotient = (a == INT32_MIN && b == -1) ? INT32_MIN : a / b;
    return clamp_to(quotient, activation_min, activation_max);
  }
};

struct QuantizedDiv {
  int32_t a_offset, b_offset, out_offset, multiplier;
  int shift;
  int32_t activation_min, activation_max;

  int8_t operator()(int8_t a, int8_t b) const {
    int32_t numerator = a_offset + a;
    int32_t denominator = b_offset + b;  // not zero: the run checked B first
    if (denominator < 0) {  // the reciprocal is of a positive number
      numerator = -numerator;
      denominator = -denominator;
    }
    int bits_over_unit = 0;
    const int32_t inverse = reciprocal(denominator, &bits_over_unit);
    const int headroom = count_leading_sign_bits(numerator);
    const int32_t unscaled = saturating_rounding_doubling_high_mul(
        static_cast<int32_t>(static_cast<uint32_t>(numerator) << headroom), inverse);
    // |numerator| <= 255 leaves a headroom of at least 23, so with shift <= 23 this is <= 0.
    const int right_shift = bits_over_unit + headroom - shift;
    const int32_t scaled = saturating_rounding_doubling_high_mul(unscaled, multiplier);
    // Past 31 bits every |scaled| < 2^31 rounds to 0 (TFLM's shift would be undefined there).
    const int32_t quotient = right_shift > 31 ? 0 : rounding_divide_by_pot(scaled, right_shift);
    return static_cast<int8_t>(clamp_to(wrapping_add(out_offset, quotient), activation_min, activation_max));
  }
};

int run_quantized_div(TVMValue* args) {
  const auto i32 = [args](int i) { return static_cast<int32_t>(int_at(args, i)); };
  const QuantizedDiv op{i32(3), i32(4), i32(5), i32(6), i32(7), i32(8), i32(9)};
  const DLTensor* denominator = tensor_at(args, 1);
  const int8_t* b = data_of<const int8_t>(denominator);
  const int64_t count = element_count(denominator);
  for (int64_t i = 0; i < count; ++i) {
    if (op.b_offset + b[i] == 0) {
      TVMAPISetLastError("division by zero");
      return -1;
    }
  }
  broadcast_binary<int8_t, int8_t>(tensor_at(args, 0), denominator, tensor_at(args, 2), op);
  return 0;
}

int check_quantized_div(TVMValue* args, int* codes, int count) {
  return check_rescaled_operands(ElementType::kInt8, INT8_MIN, INT8_MAX, -INT8_MAX, -INT8_MIN, 23, args, codes, count);
}

int run_float_div(TVMValue* args) {
  const FloatDiv op{static_cast<float>(real_at(args, 3)), static_cast<float>(real_at(args, 4))};
  broadcast_binary<float, float>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

int run_int32_div(TVMValue* args) {
  const DLTensor* denominator = tensor_at(args, 1);
  if (has_zero<int32_t>(denominator)) {
    TVMAPISetLastError("division by zero");
    return -1;
  }
  const Int32Div op{static_cast<int32_t>(int_at(args, 3)), static_cast<int32_t>(int_at(args, 4))};
  broadcast_binary<int32_t, int32_t>(tensor_at(args, 0), denominator, tensor_at(args, 2), op);
  return 0;
}

}  // namespace
}  // namespace grt::kernels::binary

using grt::kernels::ElementType;
using namespace grt::kernels::binary;

GRT_BINARY_KERNEL(div_s8, run_quantized_div(args), check_quantized_div(args, type_codes, num_args))
GRT_BINARY_KERNEL(div_f32, run_float_div(args), check_clamped_operands(ElementType::kFloat32, args, type_codes, num_args))
GRT_BINARY_KERNEL(div_s32, run_int32_div(args), check_clamped_operands(ElementType::kInt32, args, type_codes, num_args))
