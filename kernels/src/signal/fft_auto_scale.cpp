// FftAutoScale: shifts the frame left as far as its largest magnitude allows, and says by how
// much (TFLM's FftAutoScale), so the fixed-point FFT keeps its precision.
//
// signal_fft_auto_scale takes:
//   0 in X int16 [n], 1 out Y int16 [n], 2 out scale_bits int32 (one element)
// scale_bits = max(0, 15 - bits(max |X|)); Y = X * 2^scale_bits.
#include "../kernel_args.h"
#include "signal_math.h"

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(signal_fft_auto_scale) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* in = tensor_at(args, 0);
  const int16_t* x = data_of<const int16_t>(in);
  int16_t* y = data_of<int16_t>(tensor_at(args, 1));
  const int64_t size = element_count(in);
  // The largest magnitude as TFLM keeps it: in an int16, so -32768 stays -32768 and, read
  // as 32 bits, leaves no room to shift.
  int16_t largest = 0;
  for (int64_t i = 0; i < size; ++i) {
    const int value = x[i];
    if (value > largest) {
      largest = static_cast<int16_t>(value);
    } else if (-value > largest) {
      largest = static_cast<int16_t>(-value);
    }
  }
  const uint32_t bits = grt::kernels::signal::most_significant_bit32(static_cast<uint32_t>(static_cast<int32_t>(largest)));
  int scale_bits = 15 - static_cast<int>(bits);
  if (scale_bits < 0) scale_bits = 0;
  for (int64_t i = 0; i < size; ++i) y[i] = static_cast<int16_t>(x[i] * (1 << scale_bits));
  *data_of<int32_t>(tensor_at(args, 2)) = scale_bits;
  return 0;
}

GRT_CHECK_FUNCTION(signal_fft_auto_scale) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_fft_auto_scale", args, type_codes, num_args);
  check.count(3).tensor(0, ElementType::kInt16, 1).tensor(1, ElementType::kInt16, 1).tensor(2, ElementType::kInt32);
  if (!check.ok()) return check.result();
  check.expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 1)), "input and output sizes differ")
      .expect(element_count(tensor_at(args, 2)) == 1, "scale_bits is not one element");
  return check.result();
}
