// QUANTIZE from float32 to int8 / int16, as TFLM's AffineQuantize (float math, as TFLM).
//
// quantize_f32_s8, quantize_f32_s16 take:
//   0 in X (float32), 1 out Y (int8 / int16; same element count)
//   2 Float scale (Y's scale, a float32 value > 0), 3 Int zero_point (Y's, in Y's range)
// y = clamp(round_half_away(x / scale) + zero_point).
#include <math.h>
#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"

namespace grt::kernels::elementwise {
namespace {

// The float rounded half away from zero, as int32. Beyond int32 (where TFLM's cast is
// undefined) it saturates; NaN gives INT32_MIN, as x86's conversion does.
inline int32_t round_to_int32(float x) {
  const float rounded = roundf(x);
  if (!(rounded >= -2147483648.0f)) return INT32_MIN;
  if (rounded >= 2147483648.0f) return INT32_MAX;
  return static_cast<int32_t>(rounded);
}

template <typename T>
int run_quantize(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const float* x = data_of<const float>(in);
  T* y = data_of<T>(tensor_at(args, 1));
  const float scale = static_cast<float>(real_at(args, 2));
  const int64_t zero_point = int_at(args, 3);
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t value = round_to_int32(x[i] / scale) + zero_point;
    y[i] = static_cast<T>(value < quantized_min<T>() ? quantized_min<T>() : (value > quantized_max<T>() ? quantized_max<T>() : value));
  }
  return 0;
}

template <typename T>
int check_quantize(const char* name, ElementType out_type, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(4).tensor(0, ElementType::kFloat32).tensor(1, out_type).real(2).integer(3, quantized_min<T>(), quantized_max<T>());
  if (check.ok()) {
    check.expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 1)), "input and output sizes differ");
    const float scale = static_cast<float>(real_at(args, 2));
    check.expect(scale > 0 && isfinite(scale), "scale is not a positive finite float");
  }
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::elementwise

using grt::kernels::ElementType;

GRT_KERNEL_FUNCTION(quantize_f32_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::run_quantize<int8_t>(args);
}

GRT_CHECK_FUNCTION(quantize_f32_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::check_quantize<int8_t>("quantize_f32_s8", ElementType::kInt8, args, type_codes,
                                                           num_args);
}

GRT_KERNEL_FUNCTION(quantize_f32_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::run_quantize<int16_t>(args);
}

GRT_CHECK_FUNCTION(quantize_f32_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::check_quantize<int16_t>("quantize_f32_s16", ElementType::kInt16, args, type_codes,
                                                            num_args);
}
