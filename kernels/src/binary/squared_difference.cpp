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
#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

template <typename T>
struct QuantizedSquaredDifference {
  int left_shift;
  int32_t a_offset, a_multiplier;
  int a_shift;
  int32_t b_offset, b_multiplier;
  int b_shift;
  int32_t out_offset, out_multiplier;
  int out_shift;

  T operator()(T a, T b) const {
    // The checked ranges keep (x + offset) << left_shift inside int32.
    const int32_t shifted_a = (a_offset + a) * (int32_t{1} << left_shift);
    const int32_t shifted_b = (b_offset + b) * (int32_t{1} << left_shift);
    const int32_t difference = wrapping_sub(multiply_by_quantized_multiplier(shifted_a, a_multiplier, a_shift),
                                            multiply_by_quantized_multiplier(shifted_b, b_multiplier, b_shift));
    const int32_t squared = wrapping_mul(difference, difference);
    const int32_t y = wrapping_add(multiply_by_quantized_multiplier(squared, out_multiplier, out_shift), out_offset);
    return static_cast<T>(clamp_to(y, quantized_min<T>(), quantized_max<T>()));
  }
};

template <typename T>
int run_quantized(TVMValue* args) {
  const auto i32 = [args](int i) { return static_cast<int32_t>(int_at(args, i)); };
  const QuantizedSquaredDifference<T> op{i32(3), i32(4), i32(5), i32(6), i32(7),
                                         i32(8), i32(9), i32(10), i32(11), i32(12)};
  broadcast_binary<T, T>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

template <typename T>
int check_quantized(ElementType type, TVMValue* args, int* codes, int count) {
  ArgCheck check("squared_difference", args, codes, count);
  constexpr int32_t kMin = quantized_min<T>();
  constexpr int32_t kMax = quantized_max<T>();
  constexpr int kBits = static_cast<int>(sizeof(T) * 8);
  check.count(13);
  check_broadcast_operands(check, args, type, type);
  // |x + offset| < 2^bits, so left_shift <= 31 - bits keeps the shifted value in int32.
  check.integer(3, 0, 31 - kBits)
      .integer(4, -kMax, -kMin)
      .integer(5, 0, INT32_MAX)
      .integer(6, -31, 0)
      .integer(7, -kMax, -kMin)
      .integer(8, 0, INT32_MAX)
      .integer(9, -31, 0)
      .integer(10, kMin, kMax)
      .integer(11, 0, INT32_MAX)
      .integer(12, -31, 31);
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
