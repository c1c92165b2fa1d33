// SQUARED_DIFFERENCE with broadcasting, as TFLM's reference kernels.
//
// squared_difference_s8, squared_difference_s16 take:
//   0 in A, 1 in B, 2 out Y                   (same dtype; Y's shape is A and B broadcast)
//   3 Int left_shift                          (TFLM: 7 for int8, 0 for int16)
//   4 Int a_offset, 5 Int a_multiplier, 6 Int a_shift   (offset = -zero point; shift <= 0)
//   7 Int b_offset, 8 Int b_multiplier, 9 Int b_shift
//   10 Int out_offset, 11 Int out_multiplier, 12 Int out_shift  (offset = zero point of Y)
// Each input is scaled by ((x + offset) << left_shift) * multiplier * 2^shift, the
// difference squared, scaled by the output multiplier, offset and saturated to the type.
//
// squared_difference_s32, squared_difference_f32 take 0 A, 1 B, 2 Y: (a - b) * (a - b),
// int32 wrapping.
#include <stdint.h>

#include "../quant_math.h"
#include "../two_input_rescaling.h"
#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

template <typename T>
struct QuantizedSquaredDifference {
  TwoInputRescaling r;

  T operator()(T a, T b) const {
    // The checked ranges keep (x + offset) << left_shift inside int32.
    const int32_t shifted_a = (r.a_offset + a) * (int32_t{1} << r.left_shift);
    const int32_t shifted_b = (r.b_offset + b) * (int32_t{1} << r.left_shift);
    const int32_t difference = wrapping_sub(multiply_by_quantized_multiplier(shifted_a, r.a_multiplier, r.a_shift),
                                            multiply_by_quantized_multiplier(shifted_b, r.b_multiplier, r.b_shift));
    const int32_t squared = wrapping_mul(difference, difference);
    const int32_t scaled = multiply_by_quantized_multiplier(squared, r.out_multiplier, r.out_shift);
    const int32_t y = wrapping_add(scaled, r.out_offset);
    return static_cast<T>(clamp_to(y, quantized_min<T>(), quantized_max<T>()));
  }
};

template <typename T>
int run_quantized(TVMValue* args) {
  const QuantizedSquaredDifference<T> op{read_two_input_rescaling(args)};
  broadcast_binary<T, T>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

template <typename T>
int check_quantized(ElementType type, TVMValue* args, int* codes, int count) {
  ArgCheck check("squared_difference", args, codes, count);
  check.count(13);
  check_broadcast_operands(check, args, type, type);
  check_two_input_rescaling<T>(check);
  check.integer(12, -31, 31);
  return check.result();
}

struct Int32SquaredDifference {
  int32_t operator()(int32_t a, int32_t b) const {
    const int32_t difference = wrapping_sub(a, b);
    return wrapping_mul(difference, difference);
  }
};

struct FloatSquaredDifference {
  float operator()(float a, float b) const {
    const float difference = a - b;
    return difference * difference;
  }
};

}  // namespace
}  // namespace grt::kernels::binary

using grt::kernels::ElementType;
using namespace grt::kernels::binary;

GRT_BINARY_KERNEL(squared_difference_s8, run_quantized<int8_t>(args),
                  check_quantized<int8_t>(ElementType::kInt8, args, type_codes, num_args))
GRT_BINARY_KERNEL(squared_difference_s16, run_quantized<int16_t>(args),
                  check_quantized<int16_t>(ElementType::kInt16, args, type_codes, num_args))
GRT_BINARY_KERNEL(squared_difference_s32, (run_operands<int32_t, int32_t, Int32SquaredDifference>(args)),
                  check_three_operands(ElementType::kInt32, ElementType::kInt32, args, type_codes, num_args))
GRT_BINARY_KERNEL(squared_difference_f32, (run_operands<float, float, FloatSquaredDifference>(args)),
                  check_three_operands(ElementType::kFloat32, ElementType::kFloat32, args, type_codes, num_args))
