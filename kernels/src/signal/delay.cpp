// Delay: every row's samples come out delay_length samples later; the first run's first
// delay_length outputs are zeros (TFLM's signal library Delay).
//
// signal_delay takes:
//   0 in X int16 [..., F], 1 out Y int16 (X's shape),
//   2 out history int16 [R, D] (State: the last D samples of each of the R = size / F rows,
//     zeros at init and after grt_reset_state), 3 int delay_length D >= 1
// Per row: with c = history ++ x (D + F samples), y = c[0, F) and history = c[F, F + D).
// (A delay of 0 is the identity: the importer emits a copy.)
#include "../kernel_args.h"

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(signal_delay) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* in = tensor_at(args, 0);
  const int16_t* x = data_of<const int16_t>(in);
  int16_t* y = data_of<int16_t>(tensor_at(args, 1));
  int16_t* history = data_of<int16_t>(tensor_at(args, 2));
  const int64_t delay = int_at(args, 3);
  const int64_t frame = in->shape[in->ndim - 1];
  const int64_t rows = frame == 0 ? 0 : element_count(in) / frame;
  for (int64_t r = 0; r < rows; ++r, x += frame, y += frame, history += delay) {
    for (int64_t i = 0; i < frame; ++i) y[i] = i < delay ? history[i] : x[i - delay];
    // Ascending is safe in place: history[j] reads history[F + j], further on.
    for (int64_t j = 0; j < delay; ++j) {
      const int64_t k = frame + j;
      history[j] = k < delay ? history[k] : x[k - delay];
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(signal_delay) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_delay", args, type_codes, num_args);
  check.count(4).tensor(0, ElementType::kInt16).tensor(1, ElementType::kInt16).tensor(2, ElementType::kInt16).integer(3, 1, INT32_MAX);
  if (!check.ok()) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  check.expect(in->ndim >= 1 && in->shape[in->ndim - 1] > 0, "input has rank 0 or empty frames");
  if (!check.ok()) return check.result();
  const int64_t frame = in->shape[in->ndim - 1];
  check.expect(element_count(tensor_at(args, 1)) == element_count(in), "input and output sizes differ")
      .expect(element_count(tensor_at(args, 2)) == element_count(in) / frame * int_at(args, 3),
              "history is not delay_length samples per row");
  return check.result();
}
