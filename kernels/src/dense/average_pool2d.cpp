// AVERAGE_POOL_2D over NHWC, bit-exact with TFLM's reference kernels
// (reference/integer_ops/pooling.h, reference/pooling.h): windows are clipped to the input,
// padded positions are not counted, int8 averages round half away from zero.
//
// average_pool2d_s8 arguments:
//   0 in X int8 [N, H, W, C]
//   1 out Y int8 [N, OH, OW, C]
//   2 Int stride_h, 3 Int stride_w, 4 Int filter_h, 5 Int filter_w (all >= 1)
//   6 Int pad_top, 7 Int pad_left (>= 0, below the filter size, so no window is empty)
//   8 Int act_min, 9 Int act_max: -128 <= act_min <= act_max <= 127
//
// average_pool2d_f32 arguments: as above with float32 tensors and 8 Float act_min,
// 9 Float act_max.
//
// On cores with the DSP extension average_pool2d_s8 with filters of up to 256 positions
// runs average_pool_dsp.h.
#include <stdint.h>

#include "../pool/pool_window.h"
#include "average_pool_dsp.h"
#include "dense_args.h"

namespace {

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace dense = grt::kernels::dense;
namespace pool = grt::kernels::pool;
using pool::Pool2d;
using pool::Window;

// The reference's rounding average of an int8 window sum (half away from zero), clamped.
struct Int8Average {
  using Element = int8_t;
  using Sum = int32_t;
  int32_t count;
  int32_t act_min, act_max;
  int8_t operator()(int32_t acc) const { return static_cast<int8_t>(dense::clamp_int(dense::rounded_average(acc, count), act_min, act_max)); }
};

struct FloatAverage {
  using Element = float;
  using Sum = float;
  float count;
  float act_min, act_max;
  float operator()(float total) const { return dense::clamp_float(total / count, act_min, act_max); }
};

// kBlock channels from `first` of one output pixel: per channel the window is summed row by
// row, left to right (the reference's order, so float sums are bit-identical), kBlock
// contiguous channels at a time.
template <int kBlock, class Average>
inline void pool_block(const Pool2d& p, const typename Average::Element* image, const Window& w, int first,
                       typename Average::Element* out, const Average& average) {
  typename Average::Sum sums[kBlock];
  for (int j = 0; j < kBlock; ++j) sums[j] = 0;
  const int row_stride = p.in_w * p.channels;
  for (int in_y = w.y0; in_y < w.y1; ++in_y) {
    const typename Average::Element* row = image + in_y * row_stride + first;
    for (int in_x = w.x0; in_x < w.x1; ++in_x) {
      const typename Average::Element* x = row + in_x * p.channels;
      for (int j = 0; j < kBlock; ++j) sums[j] += x[j];
    }
  }
  for (int j = 0; j < kBlock; ++j) out[first + j] = average(sums[j]);
}

template <class Average>
void pool_channels(const Pool2d& p, const typename Average::Element* image, const Window& w,
                   typename Average::Element* out, const Average& average) {
  int c = 0;
  for (; c + 16 <= p.channels; c += 16) pool_block<16>(p, image, w, c, out, average);
  if (c + 8 <= p.channels) {
    pool_block<8>(p, image, w, c, out, average);
    c += 8;
  }
  for (; c < p.channels; ++c) pool_block<1>(p, image, w, c, out, average);
}

// 2048 a side bounds every int8 window sum well inside int32.
constexpr int64_t kMaxFilter = 2048;

}  // namespace

GRT_KERNEL_FUNCTION(average_pool2d_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const Pool2d p = pool::read_pool2d(args);
  const int32_t act_min = static_cast<int32_t>(grt::kernels::int_at(args, 8));
  const int32_t act_max = static_cast<int32_t>(grt::kernels::int_at(args, 9));
  const int8_t* input = grt::kernels::data_of<const int8_t>(grt::kernels::tensor_at(args, 0));
  int8_t* output = grt::kernels::data_of<int8_t>(grt::kernels::tensor_at(args, 1));
#if GRT_KERNELS_DSP
  if (grt::kernels::dsp::average_pool2d_s8(p, input, output, act_min, act_max)) return 0;
#endif
  const int row_stride = p.in_w * p.channels;

  for (int batch = 0; batch < p.batches; ++batch) {
    const int8_t* image = input + batch * p.in_h * row_stride;
    for (int out_y = 0; out_y < p.out_h; ++out_y) {
      for (int out_x = 0; out_x < p.out_w; ++out_x) {
        const Window w = pool::window_at(p, out_y, out_x);
        const int32_t count = w.count();
        int8_t* out = output + ((batch * p.out_h + out_y) * p.out_w + out_x) * p.channels;
        const Int8Average average{count, act_min, act_max};
        pool_channels(p, image, w, out, average);
      }
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(average_pool2d_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("average_pool2d_s8", args, type_codes, num_args);
  check.count(10).tensor(0, ElementType::kInt8, 4).tensor(1, ElementType::kInt8, 4);
  pool::check_pool2d_args(check, kMaxFilter);
  check.integer(8, -128, 127).integer(9, -128, 127);
  if (check.ok()) check.expect(grt::kernels::int_at(args, 8) <= grt::kernels::int_at(args, 9), "act_min exceeds act_max");
  pool::check_pool2d_geometry(check, args);
  return check.result();
}

GRT_KERNEL_FUNCTION(average_pool2d_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const Pool2d p = pool::read_pool2d(args);
  const float act_min = static_cast<float>(grt::kernels::real_at(args, 8));
  const float act_max = static_cast<float>(grt::kernels::real_at(args, 9));
  const float* input = grt::kernels::data_of<const float>(grt::kernels::tensor_at(args, 0));
  float* output = grt::kernels::data_of<float>(grt::kernels::tensor_at(args, 1));
  const int row_stride = p.in_w * p.channels;

  for (int batch = 0; batch < p.batches; ++batch) {
    const float* image = input + batch * p.in_h * row_stride;
    for (int out_y = 0; out_y < p.out_h; ++out_y) {
      for (int out_x = 0; out_x < p.out_w; ++out_x) {
        const Window w = pool::window_at(p, out_y, out_x);
        const float count = static_cast<float>(w.count());
        float* out = output + ((batch * p.out_h + out_y) * p.out_w + out_x) * p.channels;
        const FloatAverage average{count, act_min, act_max};
        pool_channels(p, image, w, out, average);
      }
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(average_pool2d_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("average_pool2d_f32", args, type_codes, num_args);
  check.count(10).tensor(0, ElementType::kFloat32, 4).tensor(1, ElementType::kFloat32, 4);
  pool::check_pool2d_args(check, kMaxFilter);
  check.real(8).real(9);
  if (check.ok()) check.expect(!(grt::kernels::real_at(args, 9) < grt::kernels::real_at(args, 8)), "act_min exceeds act_max");
  pool::check_pool2d_geometry(check, args);
  return check.result();
}
