// DEQUANTIZE from int8 / uint8 / int16 to float32, as TFLM's reference (double math, as TFLM).
//
// dequantize_s8_f32, dequantize_u8_f32, dequantize_s16_f32 take:
//   0 in X (int8 / uint8 / int16), 1 out Y (float32; same element count)
//   2 Float scale (X's scale), 3 Int zero_point (X's, in X's range)
// y = float(scale * (x - zero_point)), the product in double.
#include <stdint.h>

#include "../kernel_args.h"

namespace grt::kernels::elementwise {
namespace {

template <typename T>
int run_dequantize(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const T* x = data_of<const T>(in);
  float* y = data_of<float>(tensor_at(args, 1));
  const double scale = real_at(args, 2);
  const int32_t zero_point = static_cast<int32_t>(int_at(args, 3));
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) y[i] = static_cast<float>(scale * (x[i] - zero_point));
  return 0;
}

template <typename T>
int check_dequantize(const char* name, ElementType in_type, int64_t low, int64_t high, TVMValue* args, int* codes,
                     int count) {
  ArgCheck check(name, args, codes, count);
  check.count(4).tensor(0, in_type).tensor(1, ElementType::kFloat32).real(2).integer(3, low, high);
  if (check.ok()) {
    check.expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 1)), "input and output sizes differ");
  }
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::elementwise

using grt::kernels::ElementType;

GRT_KERNEL_FUNCTION(dequantize_s8_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::run_dequantize<int8_t>(args);
}

GRT_CHECK_FUNCTION(dequantize_s8_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::check_dequantize<int8_t>("dequantize_s8_f32", ElementType::kInt8, INT8_MIN, INT8_MAX,
                                                             args, type_codes, num_args);
}

GRT_KERNEL_FUNCTION(dequantize_u8_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::run_dequantize<uint8_t>(args);
}

GRT_CHECK_FUNCTION(dequantize_u8_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::check_dequantize<uint8_t>("dequantize_u8_f32", ElementType::kUInt8, 0, UINT8_MAX,
                                                              args, type_codes, num_args);
}

GRT_KERNEL_FUNCTION(dequantize_s16_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::run_dequantize<int16_t>(args);
}

GRT_CHECK_FUNCTION(dequantize_s16_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::check_dequantize<int16_t>("dequantize_s16_f32", ElementType::kInt16, INT16_MIN,
                                                              INT16_MAX, args, type_codes, num_args);
}
