// Shapes and window parameters of the convolution kernels (NHWC activations), and the
// filter taps that land inside the image, so loops visit only those and never test a tap.
#ifndef GRAPHRT_KERNELS_CONV_CONV_GEOMETRY_H_
#define GRAPHRT_KERNELS_CONV_CONV_GEOMETRY_H_

#include <stddef.h>
#include <stdint.h>

#include "../kernel_args.h"

namespace grt::kernels::conv {

// Upper bound of strides, dilations and paddings: far beyond any real model, and small
// enough that window coordinates computed in 64 bits cannot overflow.
constexpr int64_t kMaxWindowParameter = int64_t{1} << 16;

struct ConvGeometry {
  int32_t batches = 0;
  int32_t input_h = 0, input_w = 0, input_c = 0;
  int32_t filter_h = 0, filter_w = 0, filter_c = 0;
  int32_t output_h = 0, output_w = 0, output_c = 0;
  int32_t stride_h = 1, stride_w = 1;
  int32_t dilation_h = 1, dilation_w = 1;
  int32_t pad_top = 0, pad_left = 0;
};

// Dimension i of a tensor whose check proved it fits in int32.
inline int32_t dim(const DLTensor* t, int i) { return static_cast<int32_t>(t->shape[i]); }

// Sizes from the input (N,H,W,C), the filter (dims 1..3) and the output (N,H,W,C).
inline ConvGeometry geometry_of(const DLTensor* input, const DLTensor* filter, const DLTensor* output) {
  ConvGeometry g;
  g.batches = dim(input, 0);
  g.input_h = dim(input, 1);
  g.input_w = dim(input, 2);
  g.input_c = dim(input, 3);
  g.filter_h = dim(filter, 1);
  g.filter_w = dim(filter, 2);
  g.filter_c = dim(filter, 3);
  g.output_h = dim(output, 1);
  g.output_w = dim(output, 2);
  g.output_c = dim(output, 3);
  return g;
}

// Reads stride h/w, dilation h/w, pad top/left from six consecutive integer arguments.
inline void read_window(TVMValue* args, int first, ConvGeometry* g) {
  g->stride_h = static_cast<int32_t>(int_at(args, first));
  g->stride_w = static_cast<int32_t>(int_at(args, first + 1));
  g->dilation_h = static_cast<int32_t>(int_at(args, first + 2));
  g->dilation_w = static_cast<int32_t>(int_at(args, first + 3));
  g->pad_top = static_cast<int32_t>(int_at(args, first + 4));
  g->pad_left = static_cast<int32_t>(int_at(args, first + 5));
}

// Filter taps [begin, end) along one axis.
struct TapRange {
  int32_t begin = 0;
  int32_t end = 0;
};

// Taps t in [0, taps) with 0 <= origin + t * dilation < size: the ones TFLM does not skip
// as padding. dilation >= 1.
inline TapRange taps_inside(int64_t origin, int32_t dilation, int32_t taps, int32_t size) {
  if (dilation == 1) {  // no division (a library call for int64 on 32-bit cores)
    int64_t begin = origin >= 0 ? 0 : -origin;
    int64_t end = size - origin;
    if (end > taps) end = taps;
    if (end < 0) end = 0;
    if (begin > end) begin = end;
    return {static_cast<int32_t>(begin), static_cast<int32_t>(end)};
  }
  int64_t begin = origin >= 0 ? 0 : (-origin + dilation - 1) / dilation;
  int64_t end = size - origin <= 0 ? 0 : (size - origin + dilation - 1) / dilation;
  if (end > taps) end = taps;
  if (begin > end) begin = end;
  return {static_cast<int32_t>(begin), static_cast<int32_t>(end)};
}

// Output positions [begin, end) along one axis whose windows lie wholly inside the image
// (taps_inside gives all `taps` for each), so a loop over them tests no tap. stride and
// dilation >= 1, pad >= 0 and size < 2^31 (the argument checks), so o * stride - pad's
// highest value, `reach`, fits 32 unsigned bits: 32-bit divisions, one instruction on the M3
// and up, where 64-bit ones are library calls.
inline TapRange whole_windows(int32_t outputs, int32_t stride, int32_t dilation, int32_t pad, int32_t taps,
                              int32_t size) {
  const int64_t reach = int64_t{size} - 1 - int64_t{taps - 1} * dilation + pad;  // o * stride <= reach
  if (reach < 0 || outputs <= 0) return {};
  const uint32_t step = static_cast<uint32_t>(stride);
  int64_t begin = (static_cast<uint32_t>(pad) + step - 1) / step;  // o * stride >= pad
  int64_t end = reach > int64_t{UINT32_MAX} ? outputs : int64_t{static_cast<uint32_t>(reach) / step} + 1;
  if (end > outputs) end = outputs;
  if (begin > end) begin = end;
  return {static_cast<int32_t>(begin), static_cast<int32_t>(end)};
}

// A 1x1 filter with no padding whose every output pixel reads inside the image.
inline bool is_pointwise(const ConvGeometry& g) {
  return g.filter_h == 1 && g.filter_w == 1 && g.pad_top == 0 && g.pad_left == 0 &&
         (g.output_h == 0 || static_cast<int64_t>(g.output_h - 1) * g.stride_h < g.input_h) &&
         (g.output_w == 0 || static_cast<int64_t>(g.output_w - 1) * g.stride_w < g.input_w);
}

// Transposed convolution seen from one output coordinate: the taps t in [0, taps) for which
// an input coordinate i in [0, size) has i * stride + t == position + pad, visited as
// first, first + stride, ... up to last (inclusive); empty when first > last.
struct StridedTaps {
  int32_t first = 0;
  int32_t last = -1;
};

inline StridedTaps transposed_taps(int64_t shifted_position, int32_t stride, int32_t taps, int32_t size) {
  StridedTaps r;
  if (size <= 0 || taps <= 0) return r;
  const int64_t lowest = shifted_position - static_cast<int64_t>(size - 1) * stride;
  const int64_t low = lowest > 0 ? lowest : 0;
  const int64_t high = shifted_position < taps - 1 ? shifted_position : taps - 1;
  if (low > high) return r;
  const int64_t first = low + (shifted_position - low) % stride;
  if (first > high) return r;
  r.first = static_cast<int32_t>(first);
  r.last = static_cast<int32_t>(high);
  return r;
}

}  // namespace grt::kernels::conv

#endif  // GRAPHRT_KERNELS_CONV_CONV_GEOMETRY_H_
