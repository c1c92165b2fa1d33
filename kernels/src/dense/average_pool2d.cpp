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
#include <stdint.h>

#include "dense_args.h"

namespace {

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace dense = grt::kernels::dense;

// Sizes and hyper-parameters, read once per call.
struct Pool {
  int batches, in_h, in_w, channels, out_h, out_w;
  int stride_h, stride_w, filter_h, filter_w, pad_top, pad_left;
};

Pool read_pool(TVMValue* args) {
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  const DLTensor* y = grt::kernels::tensor_at(args, 1);
  Pool p;
  p.batches = static_cast<int>(x->shape[0]);
  p.in_h = static_cast<int>(x->shape[1]);
  p.in_w = static_cast<int>(x->shape[2]);
  p.channels = static_cast<int>(x->shape[3]);
  p.out_h = static_cast<int>(y->shape[1]);
  p.out_w = static_cast<int>(y->shape[2]);
  p.stride_h = static_cast<int>(grt::kernels::int_at(args, 2));
  p.stride_w = static_cast<int>(grt::kernels::int_at(args, 3));
  p.filter_h = static_cast<int>(grt::kernels::int_at(args, 4));
  p.filter_w = static_cast<int>(grt::kernels::int_at(args, 5));
  p.pad_top = static_cast<int>(grt::kernels::int_at(args, 6));
  p.pad_left = static_cast<int>(grt::kernels::int_at(args, 7));
  return p;
}

// The part of one output position's window that lies inside the input: rows [y0, y1),
// columns [x0, x1), in input coordinates.
struct Window {
  int y0, y1, x0, x1;
  int count() const { return (y1 - y0) * (x1 - x0); }
};

inline Window window_at(const Pool& p, int out_y, int out_x) {
  const int origin_y = out_y * p.stride_h - p.pad_top;
  const int origin_x = out_x * p.stride_w - p.pad_left;
  Window w;
  w.y0 = origin_y > 0 ? origin_y : 0;
  w.y1 = origin_y + p.filter_h < p.in_h ? origin_y + p.filter_h : p.in_h;
  w.x0 = origin_x > 0 ? origin_x : 0;
  w.x1 = origin_x + p.filter_w < p.in_w ? origin_x + p.filter_w : p.in_w;
  return w;
}

// The reference's rounding average of an int8 window sum (half away from zero), clamped.
struct Int8Average {
  using Element = int8_t;
  using Sum = int32_t;
  int32_t count;
  int32_t act_min, act_max;
  int8_t operator()(int32_t acc) const {
    acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
    return static_cast<int8_t>(dense::clamp_int(acc, act_min, act_max));
  }
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
inline void pool_block(const Pool& p, const typename Average::Element* image, const Window& w, int first,
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
void pool_channels(const Pool& p, const typename Average::Element* image, const Window& w,
                   typename Average::Element* out, const Average& average) {
  int c = 0;
  for (; c + 16 <= p.channels; c += 16) pool_block<16>(p, image, w, c, out, average);
  if (c + 8 <= p.channels) {
    pool_block<8>(p, image, w, c, out, average);
    c += 8;
  }
  for (; c < p.channels; ++c) pool_block<1>(p, image, w, c, out, average);
}

// Every window must overlap the input (the reference fails on an empty window, and the
// average would divide by zero), and no index arithmetic may overflow.
void check_pool_geometry(ArgCheck& check, TVMValue* args) {
  if (!check.ok()) return;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  const DLTensor* y = grt::kernels::tensor_at(args, 1);
  check.expect(x->shape[0] == y->shape[0] && x->shape[3] == y->shape[3], "input and output differ in batches or channels")
      .expect(dense::fits_int(grt::kernels::element_count(x)) && dense::fits_int(grt::kernels::element_count(y)),
              "tensors are too large")
      .expect(x->shape[1] >= 1 && x->shape[2] >= 1, "input must have a non-empty image");
  if (!check.ok()) return;
  const int64_t in_h = x->shape[1], in_w = x->shape[2], out_h = y->shape[1], out_w = y->shape[2];
  const int64_t stride_h = grt::kernels::int_at(args, 2), stride_w = grt::kernels::int_at(args, 3);
  const int64_t filter_h = grt::kernels::int_at(args, 4), filter_w = grt::kernels::int_at(args, 5);
  const int64_t pad_top = grt::kernels::int_at(args, 6), pad_left = grt::kernels::int_at(args, 7);
  check.expect(pad_top < filter_h && pad_left < filter_w, "padding must be smaller than the filter")
      .expect(out_h == 0 || (out_h - 1) * stride_h - pad_top < in_h, "the last output row's window misses the input")
      .expect(out_w == 0 || (out_w - 1) * stride_w - pad_left < in_w, "the last output column's window misses the input")
      .expect(out_h * stride_h + filter_h <= INT32_MAX && out_w * stride_w + filter_w <= INT32_MAX, "window positions overflow");
}

void check_pool_args(ArgCheck& check) {
  constexpr int64_t kLimit = 1 << 20;  // bounds every window sum well inside int32
  check.integer(2, 1, kLimit)
      .integer(3, 1, kLimit)
      .integer(4, 1, 2048)
      .integer(5, 1, 2048)
      .integer(6, 0, kLimit)
      .integer(7, 0, kLimit);
}

}  // namespace

GRT_KERNEL_FUNCTION(average_pool2d_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const Pool p = read_pool(args);
  const int32_t act_min = static_cast<int32_t>(grt::kernels::int_at(args, 8));
  const int32_t act_max = static_cast<int32_t>(grt::kernels::int_at(args, 9));
  const int8_t* input = grt::kernels::data_of<const int8_t>(grt::kernels::tensor_at(args, 0));
  int8_t* output = grt::kernels::data_of<int8_t>(grt::kernels::tensor_at(args, 1));
  const int row_stride = p.in_w * p.channels;

  for (int batch = 0; batch < p.batches; ++batch) {
    const int8_t* image = input + batch * p.in_h * row_stride;
    for (int out_y = 0; out_y < p.out_h; ++out_y) {
      for (int out_x = 0; out_x < p.out_w; ++out_x) {
        const Window w = window_at(p, out_y, out_x);
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
  check_pool_args(check);
  check.integer(8, -128, 127).integer(9, -128, 127);
  if (check.ok()) check.expect(grt::kernels::int_at(args, 8) <= grt::kernels::int_at(args, 9), "act_min exceeds act_max");
  check_pool_geometry(check, args);
  return check.result();
}

GRT_KERNEL_FUNCTION(average_pool2d_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const Pool p = read_pool(args);
  const float act_min = static_cast<float>(grt::kernels::real_at(args, 8));
  const float act_max = static_cast<float>(grt::kernels::real_at(args, 9));
  const float* input = grt::kernels::data_of<const float>(grt::kernels::tensor_at(args, 0));
  float* output = grt::kernels::data_of<float>(grt::kernels::tensor_at(args, 1));
  const int row_stride = p.in_w * p.channels;

  for (int batch = 0; batch < p.batches; ++batch) {
    const float* image = input + batch * p.in_h * row_stride;
    for (int out_y = 0; out_y < p.out_h; ++out_y) {
      for (int out_x = 0; out_x < p.out_w; ++out_x) {
        const Window w = window_at(p, out_y, out_x);
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
  check_pool_args(check);
  check.real(8).real(9);
  if (check.ok()) check.expect(!(grt::kernels::real_at(args, 9) < grt::kernels::real_at(args, 8)), "act_min exceeds act_max");
  check_pool_geometry(check, args);
  return check.result();
}
