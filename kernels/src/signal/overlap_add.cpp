// OverlapAdd: frames of frame_size samples added into a running buffer that advances by
// frame_step samples per frame; what leaves the buffer is the output (TFLM's signal library
// OverlapAdd). int16 sums saturate; float32 sums do not.
//
// signal_overlap_add_s16 / signal_overlap_add_f32 take:
//   0 in X T [..., N, S] (N frames of S samples), 1 out Y T [..., N * step],
//   2 out buffer T [R, S] (State: one buffer per row R = size / (N * S); zeros at init and
//     after grt_reset_state), 3 int frame_step [1, S]
// Per frame: buffer += frame; emit buffer[0, step); shift the buffer down by step, zero-filled.
#include "../kernel_args.h"

namespace grt::kernels::signal {
namespace {

inline int16_t accumulate(int16_t a, int16_t b) {
  const int32_t sum = static_cast<int32_t>(a) + b;
  return static_cast<int16_t>(sum < INT16_MIN ? INT16_MIN : (sum > INT16_MAX ? INT16_MAX : sum));
}
inline float accumulate(float a, float b) { return a + b; }

template <typename T>
void overlap_add(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const T* x = data_of<const T>(in);
  T* y = data_of<T>(tensor_at(args, 1));
  T* buffer = data_of<T>(tensor_at(args, 2));
  const int64_t step = int_at(args, 3);
  const int64_t size = in->shape[in->ndim - 1];
  const int64_t frames = in->shape[in->ndim - 2];
  const int64_t rows = size * frames == 0 ? 0 : element_count(in) / (size * frames);
  for (int64_t r = 0; r < rows; ++r, buffer += size) {
    for (int64_t f = 0; f < frames; ++f, x += size, y += step) {
      for (int64_t i = 0; i < size; ++i) buffer[i] = accumulate(buffer[i], x[i]);
      for (int64_t i = 0; i < step; ++i) y[i] = buffer[i];
      for (int64_t i = step; i < size; ++i) buffer[i - step] = buffer[i];
      for (int64_t i = size - step; i < size; ++i) buffer[i] = T{0};
    }
  }
}

int check_overlap_add(const char* name, ElementType type, TVMValue* args, int* type_codes, int num_args) {
  ArgCheck check(name, args, type_codes, num_args);
  check.count(4).tensor(0, type).tensor(1, type).tensor(2, type).integer(3, 1, INT32_MAX);
  if (!check.ok()) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 1);
  check.expect(in->ndim >= 2 && out->ndim == in->ndim - 1, "input rank is not output rank + 1 (at least 2)");
  if (!check.ok()) return check.result();
  const int64_t size = in->shape[in->ndim - 1];
  const int64_t frames = in->shape[in->ndim - 2];
  const int64_t step = int_at(args, 3);
  check.expect(size > 0 && frames > 0, "input has no frames").expect(step <= size, "frame_step is larger than the frames");
  if (!check.ok()) return check.result();
  const int64_t rows = element_count(in) / (size * frames);
  check.expect(out->shape[out->ndim - 1] == frames * step && element_count(out) == rows * frames * step,
               "output is not frame_step samples per input frame")
      .expect(element_count(tensor_at(args, 2)) == rows * size, "buffer is not one frame per row");
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::signal

GRT_KERNEL_FUNCTION(signal_overlap_add_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  grt::kernels::signal::overlap_add<int16_t>(args);
  return 0;
}

GRT_CHECK_FUNCTION(signal_overlap_add_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::signal::check_overlap_add("signal_overlap_add_s16", grt::kernels::ElementType::kInt16, args,
                                                          type_codes, num_args);
}

GRT_KERNEL_FUNCTION(signal_overlap_add_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  grt::kernels::signal::overlap_add<float>(args);
  return 0;
}

GRT_CHECK_FUNCTION(signal_overlap_add_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::signal::check_overlap_add("signal_overlap_add_f32", grt::kernels::ElementType::kFloat32, args,
                                                        type_codes, num_args);
}
