// Framer: a stream of samples cut into overlapping frames of frame_size samples, one every
// frame_step samples (TFLM's signal library Framer). Samples carry over from run to run.
//
// signal_framer takes:
//   0 in X int16 [..., N * step] (N steps of new samples per row),
//   1 out Y int16 [..., N, frame_size], 2 out valid bool [] (false when any frame of this run
//     had too few samples yet: its output is zeros),
//   3 out pending int16 [R, capacity] (State: each row's samples not yet consumed, oldest
//     first; capacity = frame_size rounded up to a multiple of frame_step),
//   4 out fill int32 [1] (State: how many samples `pending` holds, the same for every row;
//     frame_size - frame_step at init with prefill, else 0),
//   5 int frame_size, 6 int frame_step
// Per frame: append step samples; with frame_size of them, emit the oldest frame_size and
// drop the oldest step. TFLM keeps them in a circular buffer; a linear one holds the same.
#include "../kernel_args.h"

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

namespace {

int64_t framer_capacity(int64_t size, int64_t step) { return (size + step - 1) / step * step; }

}  // namespace

GRT_KERNEL_FUNCTION(signal_framer) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* in = tensor_at(args, 0);
  const int16_t* x = data_of<const int16_t>(in);
  int16_t* y = data_of<int16_t>(tensor_at(args, 1));
  uint8_t* valid = data_of<uint8_t>(tensor_at(args, 2));
  int16_t* pending = data_of<int16_t>(tensor_at(args, 3));
  int32_t* fill = data_of<int32_t>(tensor_at(args, 4));
  const int64_t size = int_at(args, 5);
  const int64_t step = int_at(args, 6);
  const int64_t capacity = framer_capacity(size, step);
  const int64_t row_length = in->shape[in->ndim - 1];
  const int64_t rows = element_count(in) / row_length;
  const int64_t frames = row_length / step;
  bool all_valid = true;
  // Appending step samples must stay inside capacity: a fill the kernel cannot have written
  // (a corrupt blob's initial value) restarts empty rather than writing out of bounds.
  if (*fill < 0 || *fill > capacity - step) *fill = 0;
  int64_t count = *fill;
  for (int64_t r = 0; r < rows; ++r, pending += capacity) {
    count = *fill;
    for (int64_t f = 0; f < frames; ++f, x += step, y += size) {
      for (int64_t i = 0; i < step; ++i) pending[count + i] = x[i];
      count += step;
      if (count < size) {
        all_valid = false;
        for (int64_t i = 0; i < size; ++i) y[i] = 0;
        continue;
      }
      for (int64_t i = 0; i < size; ++i) y[i] = pending[i];
      for (int64_t i = step; i < count; ++i) pending[i - step] = pending[i];
      count -= step;
    }
  }
  *fill = static_cast<int32_t>(count);
  *valid = all_valid ? 1 : 0;
  return 0;
}

GRT_CHECK_FUNCTION(signal_framer) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_framer", args, type_codes, num_args);
  check.count(7)
      .tensor(0, ElementType::kInt16)
      .tensor(1, ElementType::kInt16)
      .tensor(2, ElementType::kBool, 0)
      .tensor(3, ElementType::kInt16)
      .tensor(4, ElementType::kInt32)
      .integer(5, 1, INT32_MAX)
      .integer(6, 1, INT32_MAX);
  if (!check.ok()) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 1);
  const int64_t size = int_at(args, 5);
  const int64_t step = int_at(args, 6);
  check.expect(in->ndim >= 1 && out->ndim == in->ndim + 1, "output rank is not input rank + 1");
  if (!check.ok()) return check.result();
  const int64_t row_length = in->shape[in->ndim - 1];
  check.expect(row_length >= step && row_length % step == 0, "input rows are not a whole number of frame_steps");
  if (!check.ok()) return check.result();
  const int64_t rows = element_count(in) / row_length;
  const int64_t frames = row_length / step;
  check.expect(out->shape[out->ndim - 1] == size && out->shape[out->ndim - 2] == frames && element_count(out) == rows * frames * size,
               "output is not frame_size samples per frame_step of input")
      .expect(element_count(tensor_at(args, 3)) == rows * framer_capacity(size, step), "pending samples do not fit the frames")
      .expect(element_count(tensor_at(args, 4)) == 1, "fill is not one count");
  return check.result();
}
