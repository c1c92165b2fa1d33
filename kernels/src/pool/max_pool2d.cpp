// MAX_POOL_2D over NHWC, as TFLM's reference kernels (reference/pooling.h,
// reference/integer_ops/pooling.h): windows are clipped to the input, the maximum starts
// from the type's lowest value, then the fused activation's range clamps it. Quantized
// max pooling needs no requantization: TFLM requires the input's scale and zero point on
// the output.
//
// max_pool2d_s8, max_pool2d_s16 take:
//   0 in X [N, H, W, C], 1 out Y [N, OH, OW, C] (int8 / int16)
//   2 Int stride_h, 3 Int stride_w, 4 Int filter_h, 5 Int filter_w (all >= 1)
//   6 Int pad_top, 7 Int pad_left (>= 0, below the filter size, so no window is empty)
//   8 Int act_min, 9 Int act_max (within the type, act_min <= act_max)
// max_pool2d_f32 takes the same with float32 tensors and 8 Float act_min, 9 Float act_max.
#include <stdint.h>

#include "pool_window.h"

namespace grt::kernels::pool {
namespace {

template <typename T>
struct Lowest;
template <>
struct Lowest<int8_t> {
  static constexpr int8_t value = INT8_MIN;
};
template <>
struct Lowest<int16_t> {
  static constexpr int16_t value = INT16_MIN;
};
template <>
struct Lowest<float> {
  static constexpr float value = -3.40282347e+38f;
};

// std::max(max, x) then std::min(std::max(max, act_min), act_max), as the reference.
template <typename T>
void max_pool(TVMValue* args, T act_min, T act_max) {
  const Pool2d p = read_pool2d(args);
  const T* input = data_of<const T>(tensor_at(args, 0));
  T* output = data_of<T>(tensor_at(args, 1));
  const int row_stride = p.in_w * p.channels;
  for (int batch = 0; batch < p.batches; ++batch) {
    const T* image = input + batch * p.in_h * row_stride;
    for (int out_y = 0; out_y < p.out_h; ++out_y) {
      for (int out_x = 0; out_x < p.out_w; ++out_x) {
        const Window w = window_at(p, out_y, out_x);
        T* out = output + ((batch * p.out_h + out_y) * p.out_w + out_x) * p.channels;
        for (int c = 0; c < p.channels; ++c) out[c] = Lowest<T>::value;
        for (int in_y = w.y0; in_y < w.y1; ++in_y) {
          for (int in_x = w.x0; in_x < w.x1; ++in_x) {
            const T* x = image + in_y * row_stride + in_x * p.channels;
            for (int c = 0; c < p.channels; ++c) out[c] = out[c] < x[c] ? x[c] : out[c];
          }
        }
        for (int c = 0; c < p.channels; ++c) {
          const T raised = out[c] < act_min ? act_min : out[c];
          out[c] = act_max < raised ? act_max : raised;
        }
      }
    }
  }
}

int check_quantized(const char* name, ElementType type, int64_t low, int64_t high, TVMValue* args, int* codes,
                    int count) {
  ArgCheck check(name, args, codes, count);
  check.count(10).tensor(0, type, 4).tensor(1, type, 4);
  check_pool2d_args(check);
  check.integer(8, low, high).integer(9, low, high);
  if (check.ok()) check.expect(int_at(args, 8) <= int_at(args, 9), "act_min exceeds act_max");
  check_pool2d_geometry(check, args);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::pool

using grt::kernels::ElementType;
using grt::kernels::int_at;
using grt::kernels::real_at;

GRT_KERNEL_FUNCTION(max_pool2d_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  grt::kernels::pool::max_pool<int8_t>(args, static_cast<int8_t>(int_at(args, 8)),
                                       static_cast<int8_t>(int_at(args, 9)));
  return 0;
}

GRT_CHECK_FUNCTION(max_pool2d_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::pool::check_quantized("max_pool2d_s8", ElementType::kInt8, INT8_MIN, INT8_MAX, args, type_codes,
                                             num_args);
}

GRT_KERNEL_FUNCTION(max_pool2d_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  grt::kernels::pool::max_pool<int16_t>(args, static_cast<int16_t>(int_at(args, 8)),
                                        static_cast<int16_t>(int_at(args, 9)));
  return 0;
}

GRT_CHECK_FUNCTION(max_pool2d_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::pool::check_quantized("max_pool2d_s16", ElementType::kInt16, INT16_MIN, INT16_MAX, args,
                                             type_codes, num_args);
}

GRT_KERNEL_FUNCTION(max_pool2d_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  grt::kernels::pool::max_pool<float>(args, static_cast<float>(real_at(args, 8)), static_cast<float>(real_at(args, 9)));
  return 0;
}

GRT_CHECK_FUNCTION(max_pool2d_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::pool::check_float_pool2d("max_pool2d_f32", args, type_codes, num_args);
}
