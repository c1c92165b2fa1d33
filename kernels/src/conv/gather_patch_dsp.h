// A convolution's patches gathered for the DSP matrix product (conv2d_dsp.h): output pixels
// walked in memory order, each one's window copied filter-ordered onto the stack, the
// padding written as the input zero point (which the input offset turns into 0).
#ifndef GRAPHRT_KERNELS_CONV_GATHER_PATCH_DSP_H_
#define GRAPHRT_KERNELS_CONV_GATHER_PATCH_DSP_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "conv_geometry.h"
#include "dsp_intrinsics.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// Walks the output pixels (batch, row, column) in memory order.
struct PixelCursor {
  int32_t b = 0, y = 0, x = 0;
  void next(const conv::ConvGeometry& g) {
    if (++x < g.output_w) return;
    x = 0;
    if (++y < g.output_h) return;
    y = 0;
    ++b;
  }
};

// Bytes [0, n) of `to` from `from`, or set to `fill` when `from` is null: short runs (a
// filter row of a one-channel input) by a byte loop, cheaper than a library call.
inline void copy_or_fill(int8_t* to, const int8_t* from, size_t n, int8_t fill) {
  if (n > 16) {
    if (from != nullptr) {
      memcpy(to, from, n);
    } else {
      memset(to, fill, n);
    }
    return;
  }
  for (size_t i = 0; i < n; ++i) to[i] = from != nullptr ? from[i] : fill;
}

// The patch of output pixel `at`, filter-ordered (rows, columns, channels), into `patch`.
inline void gather_patch(const conv::ConvGeometry& g, const int8_t* input, const PixelCursor& at, int8_t pad,
                         int8_t* patch) {
  const size_t channels = static_cast<size_t>(g.input_c);
  const size_t row_bytes = static_cast<size_t>(g.filter_w) * channels;
  const int8_t* image = input + static_cast<size_t>(at.b) * g.input_h * g.input_w * channels;
  const int64_t origin_y = static_cast<int64_t>(at.y) * g.stride_h - g.pad_top;
  const int64_t origin_x = static_cast<int64_t>(at.x) * g.stride_w - g.pad_left;
  const conv::TapRange rows = conv::taps_inside(origin_y, g.dilation_h, g.filter_h, g.input_h);
  const conv::TapRange cols = conv::taps_inside(origin_x, g.dilation_w, g.filter_w, g.input_w);
  const size_t image_row = static_cast<size_t>(g.input_w) * channels;
  if (g.dilation_w == 1 && rows.begin == 0 && rows.end == g.filter_h && cols.begin == 0 && cols.end == g.filter_w) {
    // The whole window inside (most pixels): one run per filter row.
    const int8_t* from = image + static_cast<size_t>(origin_y) * image_row + static_cast<size_t>(origin_x) * channels;
    const size_t row_step = static_cast<size_t>(g.dilation_h) * image_row;
    for (int32_t fy = 0; fy < g.filter_h; ++fy, patch += row_bytes, from += row_step) {
      if (row_bytes > 16) {
        memcpy(patch, from, row_bytes);
      } else {
        for (size_t i = 0; i < row_bytes; ++i) patch[i] = from[i];
      }
    }
    return;
  }
  for (int32_t fy = 0; fy < g.filter_h; ++fy, patch += row_bytes) {
    if (fy < rows.begin || fy >= rows.end || cols.begin >= cols.end) {
      copy_or_fill(patch, nullptr, row_bytes, pad);
      continue;
    }
    const int32_t in_y = static_cast<int32_t>(origin_y + static_cast<int64_t>(fy) * g.dilation_h);
    const int8_t* row = image + static_cast<size_t>(in_y) * image_row;
    const size_t before = static_cast<size_t>(cols.begin) * channels;
    const size_t inside_end = static_cast<size_t>(cols.end) * channels;
    copy_or_fill(patch, nullptr, before, pad);
    const int32_t first_x = static_cast<int32_t>(origin_x + static_cast<int64_t>(cols.begin) * g.dilation_w);
    if (g.dilation_w == 1) {
      copy_or_fill(patch + before, row + static_cast<size_t>(first_x) * channels, inside_end - before, pad);
    } else {
      for (int32_t fx = cols.begin; fx < cols.end; ++fx) {
        const int32_t in_x = first_x + (fx - cols.begin) * g.dilation_w;
        copy_or_fill(patch + static_cast<size_t>(fx) * channels, row + static_cast<size_t>(in_x) * channels, channels, pad);
      }
    }
    copy_or_fill(patch + inside_end, nullptr, row_bytes - inside_end, pad);
  }
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_GATHER_PATCH_DSP_H_
