// Stacker: each run's vector of num_channels values joins a window of left_context + 1 +
// right_context vectors that advances by `step` vectors; when the window is full it is the
// output (TFLM's signal library Stacker). The first vector is repeated left_context times.
//
// signal_stacker takes:
//   0 in X int16 [C], 1 out Y int16 [C * W] (W = left + 1 + right), 2 out valid bool []
//     (false while the window is not yet full: the output is then zeros),
//   3 out pending int16 [C * W] (State: the vectors of the window so far, oldest first),
//   4 out fill int32 [1] (State: values in `pending`; -1, at init and after
//     grt_reset_state, until the first vector arrives),
//   5 int num_channels C, 6 int left_context, 7 int right_context, 8 int step [1, W]
#include "../kernel_args.h"

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(signal_stacker) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const int16_t* x = data_of<const int16_t>(tensor_at(args, 0));
  int16_t* y = data_of<int16_t>(tensor_at(args, 1));
  uint8_t* valid = data_of<uint8_t>(tensor_at(args, 2));
  int16_t* pending = data_of<int16_t>(tensor_at(args, 3));
  int32_t* fill = data_of<int32_t>(tensor_at(args, 4));
  const int64_t channels = int_at(args, 5);
  const int64_t left = int_at(args, 6);
  const int64_t window = channels * (left + 1 + int_at(args, 7));
  const int64_t advance = channels * int_at(args, 8);
  int64_t count = *fill;
  // A fill the kernel cannot have written (a corrupt blob's initial value) starts over.
  if (count < -1 || count > window - channels || (count > 0 && count % channels != 0)) count = -1;
  // The first vector, then left_context copies of it as padding.
  const int64_t copies = count < 0 ? left + 1 : 1;
  if (count < 0) count = 0;
  for (int64_t c = 0; c < copies; ++c, count += channels) {
    for (int64_t i = 0; i < channels; ++i) pending[count + i] = x[i];
  }
  if (count >= window) {
    for (int64_t i = 0; i < window; ++i) y[i] = pending[i];
    for (int64_t i = advance; i < count; ++i) pending[i - advance] = pending[i];
    count -= advance;
    *valid = 1;
  } else {
    for (int64_t i = 0; i < window; ++i) y[i] = 0;
    *valid = 0;
  }
  *fill = static_cast<int32_t>(count);
  return 0;
}

GRT_CHECK_FUNCTION(signal_stacker) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_stacker", args, type_codes, num_args);
  check.count(9)
      .tensor(0, ElementType::kInt16, 1)
      .tensor(1, ElementType::kInt16, 1)
      .tensor(2, ElementType::kBool, 0)
      .tensor(3, ElementType::kInt16, 1)
      .tensor(4, ElementType::kInt32, 1)
      .integer(5, 1, INT16_MAX)
      .integer(6, 0, INT16_MAX)
      .integer(7, 0, INT16_MAX);
  if (!check.ok()) return check.result();
  const int64_t channels = int_at(args, 5);
  const int64_t vectors = int_at(args, 6) + 1 + int_at(args, 7);
  check.integer(8, 1, vectors);
  if (!check.ok()) return check.result();
  const int64_t window = channels * vectors;
  check.expect(element_count(tensor_at(args, 0)) == channels, "input is not num_channels values")
      .expect(element_count(tensor_at(args, 1)) == window && element_count(tensor_at(args, 3)) == window,
              "output or pending values are not the window's num_channels * (left + 1 + right)")
      .expect(element_count(tensor_at(args, 4)) == 1, "fill is not one count");
  return check.result();
}
