// MUL with broadcasting and the fused activation's clamp, as TFLM's reference kernels.
//
// mul_s8, mul_s16 take:
//   0 in A, 1 in B, 2 out Y                  (same dtype; Y's shape is A and B broadcast)
//   3 Int a_offset, 4 Int b_offset           (-zero point of A and B; 0 for int16, as TFLM requires)
//   5 Int out_offset                         (zero point of Y)
//   6 Int multiplier, 7 Int shift            (scale_a * scale_b / scale_y)
//   8 Int activation_min, 9 Int activation_max
// y = out_offset + (a + a_offset) * (b + b_offset) * multiplier * 2^shift, clamped.
//
// mul_s32 takes 0 A, 1 B, 2 Y (int32), 3 Int activation_min, 4 Int activation_max; the
// product wraps as TFLM's does on its targets.
// mul_f32 takes 0 A, 1 B, 2 Y (float32), 3 Float activation_min, 4 Float activation_max.
#include <stdint.h>

#include "../quant_math.h"
#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

template <typename T>
struct QuantizedMul {
  int32_t a_offset, b_offset, out_offset, multiplier;
  int shift;
  int32_t activation_min, activation_max;

  T operator()(T a, T b) const {
    // The checked offsets keep the product inside int32 (at most 255 * 255, or 2^30 for int16).
    const int32_t product = (a_offset + a) * (b_offset + b);
    const int32_t y = wrapping_add(out_offset, multiply_by_quantized_multiplier(product, multiplier, shift));
    return static_cast<T>(clamp_to(y, activation_min, activation_max));
  }
};

template <typename T>
int run_quantized_mul(TVMValue* args) {
  const QuantizedMul<T> op{static_cast<int32_t>(int_at(args, 3)), static_cast<int32_t>(int_at(args, 4)),
                           static_cast<int32_t>(int_at(args, 5)), static_cast<int32_t>(int_at(args, 6)),
                           static_cast<int>(int_at(args, 7)),     static_cast<int32_t>(int_at(args, 8)),
                           static_cast<int32_t>(int_at(args, 9))};
  broadcast_binary<T, T>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

template <typename T>
int check_quantized_mul(ElementType type, TVMValue* args, int* codes, int count) {
  constexpr int32_t kMin = quantized_min<T>();
  constexpr int32_t kMax = quantized_max<T>();
  // int16 runs without zero points (TFLM refuses them), which keeps its product in int32.
  constexpr int32_t kOffsetLow = sizeof(T) == 1 ? -kMax : 0;
  constexpr int32_t kOffsetHigh = sizeof(T) == 1 ? -kMin : 0;
  return check_rescaled_operands(type, kMin, kMax, kOffsetLow, kOffsetHigh, 31, args, codes, count);
}

struct Int32Mul {
  int32_t activation_min, activation_max;
  int32_t operator()(int32_t a, int32_t b) const { return clamp_to(wrapping_mul(a, b), activation_min, activation_max); }
};

int run_int32_mul(TVMValue* args) {
  const Int32Mul op{static_cast<int32_t>(int_at(args, 3)), static_cast<int32_t>(int_at(args, 4))};
  broadcast_binary<int32_t, int32_t>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

struct FloatMul {
  float activation_min, activation_max;
  float operator()(float a, float b) const { return clamp_to(a * b, activation_min, activation_max); }
};

int run_float_mul(TVMValue* args) {
  const FloatMul op{static_cast<float>(real_at(args, 3)), static_cast<float>(real_at(args, 4))};
  broadcast_binary<float, float>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

}  // namespace
}  // namespace grt::kernels::binary

using grt::kernels::ElementType;
using namespace grt::kernels::binary;

GRT_BINARY_KERNEL(mul_s8, run_quantized_mul<int8_t>(args),
                  check_quantized_mul<int8_t>(ElementType::kInt8, args, type_codes, num_args))
GRT_BINARY_KERNEL(mul_s16, run_quantized_mul<int16_t>(args),
                  check_quantized_mul<int16_t>(ElementType::kInt16, args, type_codes, num_args))
GRT_BINARY_KERNEL(mul_s32, run_int32_mul(args), check_clamped_operands(ElementType::kInt32, args, type_codes, num_args))
GRT_BINARY_KERNEL(mul_f32, run_float_mul(args), check_clamped_operands(ElementType::kFloat32, args, type_codes, num_args))
