// The geometry shared by the 2-D pooling kernels (MAX_POOL_2D, L2_POOL_2D, and the dense
// family's AVERAGE_POOL_2D):
// arguments 0 in X [N, H, W, C], 1 out Y [N, OH, OW, C], 2 stride_h, 3 stride_w,
// 4 filter_h, 5 filter_w, 6 pad_top, 7 pad_left; each output position's window clipped to
// the input as TFLM's reference pooling clips it. RESIZE_BILINEAR shares the NHWC pair check.
#ifndef GRAPHRT_KERNELS_POOL_POOL_WINDOW_H_
#define GRAPHRT_KERNELS_POOL_POOL_WINDOW_H_

#include <stdint.h>

#include "../kernel_args.h"

namespace grt::kernels::pool {

struct Pool2d {
  int batches, in_h, in_w, channels, out_h, out_w;
  int stride_h, stride_w, filter_h, filter_w, pad_top, pad_left;
};

inline Pool2d read_pool2d(TVMValue* args) {
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* y = tensor_at(args, 1);
  Pool2d p;
  p.batches = static_cast<int>(x->shape[0]);
  p.in_h = static_cast<int>(x->shape[1]);
  p.in_w = static_cast<int>(x->shape[2]);
  p.channels = static_cast<int>(x->shape[3]);
  p.out_h = static_cast<int>(y->shape[1]);
  p.out_w = static_cast<int>(y->shape[2]);
  p.stride_h = static_cast<int>(int_at(args, 2));
  p.stride_w = static_cast<int>(int_at(args, 3));
  p.filter_h = static_cast<int>(int_at(args, 4));
  p.filter_w = static_cast<int>(int_at(args, 5));
  p.pad_top = static_cast<int>(int_at(args, 6));
  p.pad_left = static_cast<int>(int_at(args, 7));
  return p;
}

// Input rows [y0, y1) and columns [x0, x1) under one output position's filter.
struct Window {
  int y0, y1, x0, x1;
  int count() const { return (y1 - y0) * (x1 - x0); }
};

inline Window window_at(const Pool2d& p, int out_y, int out_x) {
  const int top = out_y * p.stride_h - p.pad_top;
  const int left = out_x * p.stride_w - p.pad_left;
  Window w;
  w.y0 = top < 0 ? 0 : top;
  w.y1 = top + p.filter_h > p.in_h ? p.in_h : top + p.filter_h;
  w.x0 = left < 0 ? 0 : left;
  w.x1 = left + p.filter_w > p.in_w ? p.in_w : left + p.filter_w;
  return w;
}

// Strides, filter (at most max_filter a side) and padding (arguments 2 to 7) as integers in
// sane ranges.
inline void check_pool2d_args(ArgCheck& check, int64_t max_filter = 4096) {
  constexpr int64_t kMaxStep = 1 << 20;
  check.integer(2, 1, kMaxStep)
      .integer(3, 1, kMaxStep)
      .integer(4, 1, max_filter)
      .integer(5, 1, max_filter)
      .integer(6, 0, kMaxStep)
      .integer(7, 0, kMaxStep);
}

// Input 0 and output 1 (NHWC) agree in batches and channels and are small enough to index
// with int.
inline void check_nhwc_pair(ArgCheck& check, TVMValue* args) {
  if (!check.ok()) return;
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* y = tensor_at(args, 1);
  check
      .expect(x->shape[0] == y->shape[0] && x->shape[3] == y->shape[3],
              "input and output differ in batches or channels")
      .expect(element_count(x) <= INT32_MAX && element_count(y) <= INT32_MAX, "tensors are too large");
}

// check_nhwc_pair, and every window overlaps the input (an empty window has no maximum and
// no mean).
inline void check_pool2d_geometry(ArgCheck& check, TVMValue* args) {
  check_nhwc_pair(check, args);
  if (!check.ok()) return;
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* y = tensor_at(args, 1);
  check.expect(x->shape[1] >= 1 && x->shape[2] >= 1, "input must have a non-empty image");
  if (!check.ok()) return;
  const int64_t out_h = y->shape[1], out_w = y->shape[2];
  const int64_t pad_top = int_at(args, 6), pad_left = int_at(args, 7);
  check.expect(pad_top < int_at(args, 4) && pad_left < int_at(args, 5), "padding must be smaller than the filter")
      .expect(out_h == 0 || (out_h - 1) * int_at(args, 2) - pad_top < x->shape[1],
              "the last output row's window misses the input")
      .expect(out_w == 0 || (out_w - 1) * int_at(args, 3) - pad_left < x->shape[2],
              "the last output column's window misses the input")
      .expect(out_h * int_at(args, 2) + int_at(args, 4) <= INT32_MAX &&
                  out_w * int_at(args, 3) + int_at(args, 5) <= INT32_MAX,
              "window positions overflow");
}

// The whole check of a float32 pooling kernel: tensors, window, activation range.
inline int check_float_pool2d(const char* name, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(10).tensor(0, ElementType::kFloat32, 4).tensor(1, ElementType::kFloat32, 4);
  check_pool2d_args(check);
  check.real(8).real(9);
  if (check.ok()) check.expect(!(real_at(args, 9) < real_at(args, 8)), "act_min exceeds act_max");
  check_pool2d_geometry(check, args);
  return check.result();
}

}  // namespace grt::kernels::pool

#endif  // GRAPHRT_KERNELS_POOL_POOL_WINDOW_H_
