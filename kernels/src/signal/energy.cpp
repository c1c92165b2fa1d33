// Energy: the squared magnitude of each complex bin of a spectrum (TFLM's SpectrumToEnergy).
//
// signal_energy takes:
//   0 in X int16 [2n] (real, imaginary pairs), 1 out Y (uint32 words, stored as int32) [n],
//   2 int start_index, 3 int end_index (0 <= start <= end <= n)
// Y[i] = re^2 + im^2 for start <= i < end. TFLM leaves the other bins unwritten; here they
// are 0, so the output never depends on what the pool held before.
#include "../kernel_args.h"

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(signal_energy) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const int16_t* x = data_of<const int16_t>(tensor_at(args, 0));
  const DLTensor* out = tensor_at(args, 1);
  uint32_t* y = data_of<uint32_t>(out);
  const int64_t start = int_at(args, 2);
  const int64_t end = int_at(args, 3);
  const int64_t bins = element_count(out);
  for (int64_t i = 0; i < bins; ++i) {
    if (i < start || i >= end) {
      y[i] = 0;
      continue;
    }
    const int32_t re = x[2 * i];
    const int32_t im = x[2 * i + 1];
    y[i] = static_cast<uint32_t>(re * re) + static_cast<uint32_t>(im * im);
  }
  return 0;
}

GRT_CHECK_FUNCTION(signal_energy) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_energy", args, type_codes, num_args);
  check.count(4).tensor(0, ElementType::kInt16, 1).tensor(1, ElementType::kInt32, 1).integer(2, 0).integer(3, 0);
  if (!check.ok()) return check.result();
  const int64_t bins = element_count(tensor_at(args, 1));
  check.expect(element_count(tensor_at(args, 0)) == 2 * bins, "input is not one complex pair per output bin")
      .expect(int_at(args, 2) <= int_at(args, 3) && int_at(args, 3) <= bins, "start and end indices are not inside the output");
  return check.result();
}
