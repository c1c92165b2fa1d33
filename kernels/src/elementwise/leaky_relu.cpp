// LEAKY_RELU, quantized (int8, int16) and float, as TFLM's reference.
//
// leaky_relu_s8, leaky_relu_s16 take:
//   0 in X, 1 out Y                                  (same dtype and element count)
//   2 Int input_zero_point, 3 Int output_zero_point
//   4 Int identity_multiplier, 5 Int identity_shift   (input_scale / output_scale)
//   6 Int alpha_multiplier, 7 Int alpha_shift         (input_scale * alpha / output_scale;
//                                                      negative for a negative alpha)
// x >= zero point is scaled by the identity multiplier, the rest by alpha's; both add the
// output zero point and saturate to the type.
//
// leaky_relu_f32 takes: 0 in X, 1 out Y (float32), 2 Float alpha.
#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"
#include "tensor_layout.h"

namespace grt::kernels::elementwise {
namespace {

template <typename T>
int run_quantized_leaky_relu(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const T* x = data_of<const T>(in);
  T* y = data_of<T>(tensor_at(args, 1));
  const int32_t input_zero_point = static_cast<int32_t>(int_at(args, 2));
  const int32_t output_zero_point = static_cast<int32_t>(int_at(args, 3));
  const int32_t identity_multiplier = static_cast<int32_t>(int_at(args, 4));
  const int identity_shift = static_cast<int>(int_at(args, 5));
  const int32_t alpha_multiplier = static_cast<int32_t>(int_at(args, 6));
  const int alpha_shift = static_cast<int>(int_at(args, 7));
  // TFLM scales by |alpha| and negates afterwards.
  const bool alpha_negative = alpha_multiplier < 0;
  const int32_t alpha_magnitude = alpha_negative ? -alpha_multiplier : alpha_multiplier;
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) {
    const int32_t value = x[i] - input_zero_point;
    int32_t scaled;
    if (value >= 0) {
      scaled = multiply_by_quantized_multiplier(value, identity_multiplier, identity_shift);
    } else {
      scaled = multiply_by_quantized_multiplier(value, alpha_magnitude, alpha_shift);
      if (alpha_negative) scaled = static_cast<int32_t>(0u - static_cast<uint32_t>(scaled));
    }
    const int32_t output = wrapping_add(output_zero_point, scaled);
    y[i] = static_cast<T>(output < quantized_min<T>() ? quantized_min<T>() : (output > quantized_max<T>() ? quantized_max<T>() : output));
  }
  return 0;
}

template <typename T>
int check_quantized_leaky_relu(const char* name, ElementType type, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(8).tensor(0, type).tensor(1, type);
  if (check.ok()) {
    check.expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 1)),
                 "input and output sizes differ");
  }
  check.integer(2, quantized_min<T>(), quantized_max<T>())
      .integer(3, quantized_min<T>(), quantized_max<T>())
      .integer(4, 0, INT32_MAX)
      .integer(5, -31, 31)
      .integer(6, -INT32_MAX, INT32_MAX)
      .integer(7, -31, 31);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::elementwise

using grt::kernels::ElementType;

GRT_KERNEL_FUNCTION(leaky_relu_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::run_quantized_leaky_relu<int8_t>(args);
}

GRT_CHECK_FUNCTION(leaky_relu_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::check_quantized_leaky_relu<int8_t>("leaky_relu_s8", ElementType::kInt8, args,
                                                                       type_codes, num_args);
}

GRT_KERNEL_FUNCTION(leaky_relu_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::run_quantized_leaky_relu<int16_t>(args);
}

GRT_CHECK_FUNCTION(leaky_relu_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::check_quantized_leaky_relu<int16_t>("leaky_relu_s16", ElementType::kInt16, args,
                                                                        type_codes, num_args);
}

GRT_KERNEL_FUNCTION(leaky_relu_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  const DLTensor* in = tensor_at(args, 0);
  const float* x = data_of<const float>(in);
  float* y = data_of<float>(tensor_at(args, 1));
  const float alpha = static_cast<float>(real_at(args, 2));
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] > 0 ? x[i] : x[i] * alpha;
  return 0;
}

GRT_CHECK_FUNCTION(leaky_relu_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  ArgCheck check("leaky_relu_f32", args, type_codes, num_args);
  check.count(3).tensor(0, ElementType::kFloat32).tensor(1, ElementType::kFloat32).real(2);
  if (check.ok()) {
    check.expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 1)),
                 "input and output sizes differ");
  }
  return check.result();
}
