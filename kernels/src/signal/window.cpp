// Window: each frame times the window, shifted down and saturated to int16 (TFLM's ApplyWindow).
//
// signal_window takes:
//   0 in X int16 (any rank; its size a multiple of W's), 1 in W int16 [n], 2 out Y int16 (X's shape),
//   3 int shift [0, 31]
// Y[f*n + i] = saturate_int16((X[f*n + i] * W[i]) >> shift).
#include "../kernel_args.h"

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(signal_window) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* window = tensor_at(args, 1);
  const int16_t* x = data_of<const int16_t>(in);
  const int16_t* w = data_of<const int16_t>(window);
  int16_t* y = data_of<int16_t>(tensor_at(args, 2));
  const int shift = static_cast<int>(int_at(args, 3));
  const int64_t size = element_count(in);
  const int64_t width = element_count(window);
  for (int64_t frame = 0; frame < size; frame += width) {
    for (int64_t i = 0; i < width; ++i) {
      const int32_t raw = (static_cast<int32_t>(x[frame + i]) * w[i]) >> shift;
      y[frame + i] = static_cast<int16_t>(raw < INT16_MIN ? INT16_MIN : (raw > INT16_MAX ? INT16_MAX : raw));
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(signal_window) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_window", args, type_codes, num_args);
  check.count(4).tensor(0, ElementType::kInt16).tensor(1, ElementType::kInt16, 1).tensor(2, ElementType::kInt16).integer(3, 0, 31);
  if (!check.ok()) return check.result();
  const int64_t size = element_count(tensor_at(args, 0));
  const int64_t width = element_count(tensor_at(args, 1));
  check.expect(width > 0 && size % width == 0, "input size is not a multiple of the window's")
      .expect(element_count(tensor_at(args, 2)) == size, "input and output sizes differ");
  return check.result();
}
