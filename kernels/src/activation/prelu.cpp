// PRELU as TFLM's reference: y = x for x >= 0, alpha * x otherwise, with alpha broadcast
// against x (NumPy rules; the output has the broadcast shape).
//
// prelu_f32 takes: 0 in X, 1 in Alpha, 2 out Y (float32).
// prelu_s8, prelu_s16 take:
//   0 in X, 1 in Alpha, 2 out Y         (int8, or int16 with an int16 Alpha that holds
//                                        TFLM's int8 alpha values, widened by the importer)
//   3 Int input_zero_point, 4 Int alpha_zero_point, 5 Int output_zero_point
//   6 Int identity_multiplier, 7 Int identity_shift   (input_scale / output_scale)
//   8 Int alpha_multiplier, 9 Int alpha_shift         (input_scale * alpha_scale / output_scale)
#include <stdint.h>

#include "../elementwise/broadcast.h"
#include "../kernel_args.h"
#include "../quant_math.h"
#include "unary_checks.h"

namespace grt::kernels::activation {
namespace {

using elementwise::broadcast_binary;
using elementwise::broadcast_shapes_match;

struct QuantizedPrelu {
  int32_t input_zero_point, alpha_zero_point, output_zero_point;
  int32_t identity_multiplier;
  int identity_shift;
  int32_t alpha_multiplier;
  int alpha_shift;

  explicit QuantizedPrelu(TVMValue* args)
      : input_zero_point(static_cast<int32_t>(int_at(args, 3))),
        alpha_zero_point(static_cast<int32_t>(int_at(args, 4))),
        output_zero_point(static_cast<int32_t>(int_at(args, 5))),
        identity_multiplier(static_cast<int32_t>(int_at(args, 6))),
        identity_shift(static_cast<int>(int_at(args, 7))),
        alpha_multiplier(static_cast<int32_t>(int_at(args, 8))),
        alpha_shift(static_cast<int>(int_at(args, 9))) {}

  template <typename T>
  T operator()(T x, T alpha) const {
    const int32_t value = x - input_zero_point;
    const int32_t scaled =
        value >= 0 ? multiply_by_quantized_multiplier(value, identity_multiplier, identity_shift)
                   : multiply_by_quantized_multiplier(wrapping_mul(value, alpha - alpha_zero_point), alpha_multiplier, alpha_shift);
    return saturate<T>(wrapping_add(scaled, output_zero_point));
  }
};

template <typename T>
int run_quantized_prelu(TVMValue* args) {
  broadcast_binary<T, T>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), QuantizedPrelu(args));
  return 0;
}

// Both inputs and the output of one type, the output shaped as their broadcast.
ArgCheck& check_prelu_tensors(ArgCheck& check, int count, ElementType type, TVMValue* args) {
  check.count(count).tensor(0, type).tensor(1, type).tensor(2, type);
  if (check.ok()) {
    check.expect(broadcast_shapes_match(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2)),
                 "output shape is not the broadcast of the input and alpha shapes");
  }
  return check;
}

template <typename T>
int check_quantized_prelu(const char* name, ElementType type, TVMValue* args, int* codes, int count) {
  constexpr int64_t kMin = sizeof(T) == 1 ? INT8_MIN : INT16_MIN;
  constexpr int64_t kMax = sizeof(T) == 1 ? INT8_MAX : INT16_MAX;
  ArgCheck check(name, args, codes, count);
  // Alpha is int8 in TFLM for both types, so its zero point is an int8 one.
  check_prelu_tensors(check, 10, type, args)
      .integer(3, kMin, kMax)
      .integer(4, INT8_MIN, INT8_MAX)
      .integer(5, kMin, kMax)
      .integer(6, 0, INT32_MAX)
      .integer(7, -31, 30)
      .integer(8, 0, INT32_MAX)
      .integer(9, -31, 30);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::activation

GRT_KERNEL_FUNCTION(prelu_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::activation::run_quantized_prelu<int8_t>(args);
}

GRT_CHECK_FUNCTION(prelu_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::activation::check_quantized_prelu<int8_t>("prelu_s8", grt::kernels::ElementType::kInt8, args,
                                                                 type_codes, num_args);
}

GRT_KERNEL_FUNCTION(prelu_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::activation::run_quantized_prelu<int16_t>(args);
}

GRT_CHECK_FUNCTION(prelu_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::activation::check_quantized_prelu<int16_t>("prelu_s16", grt::kernels::ElementType::kInt16, args,
                                                                   type_codes, num_args);
}

GRT_KERNEL_FUNCTION(prelu_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  elementwise::broadcast_binary<float, float>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2),
                                              [](float x, float alpha) { return x >= 0.0f ? x : x * alpha; });
  return 0;
}

GRT_CHECK_FUNCTION(prelu_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  ArgCheck check("prelu_f32", args, type_codes, num_args);
  return activation::check_prelu_tensors(check, 3, ElementType::kFloat32, args).result();
}
