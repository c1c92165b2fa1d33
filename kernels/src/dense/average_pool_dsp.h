// average_pool2d_s8 on the DSP extension (../conv/dsp_intrinsics.h): a window's sums for
// four channels per load, SXTAB16 adding them into two registers of 16-bit lanes, channels
// (c, c + 2) and (c + 1, c + 3). A window of at most 256 positions keeps every sum inside
// int16 (256 x -128 = -2^15), so the lanes hold the exact sums the portable kernel makes;
// larger filters are declined. Leftover channels are summed one by one. The average
// rounds half away from zero as TFLM's reference does.
#ifndef GRAPHRT_KERNELS_DENSE_AVERAGE_POOL_DSP_H_
#define GRAPHRT_KERNELS_DENSE_AVERAGE_POOL_DSP_H_

#include <stdint.h>

#include "../conv/dsp_intrinsics.h"
#include "../pool/pool_window.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

constexpr int kMaxLaneWindow = 256;

inline int8_t rounded_average(int32_t sum, int32_t count, int32_t act_min, int32_t act_max) {
  int32_t value = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
  if (value < act_min) value = act_min;
  if (value > act_max) value = act_max;
  return static_cast<int8_t>(value);
}

// One output pixel: the window w of `image` (one batch) into out[0, channels).
inline void average_pixel(const pool::Pool2d& p, const int8_t* image, const pool::Window& w, int8_t* out,
                          int32_t act_min, int32_t act_max) {
  const int32_t count = w.count();
  const int row_stride = p.in_w * p.channels;
  const int8_t* const first = image + w.y0 * row_stride + w.x0 * p.channels;
  const int cols = w.x1 - w.x0;
  int c = 0;
  for (; c + 4 <= p.channels; c += 4) {
    uint32_t even = 0, odd = 0;
    const int8_t* row = first + c;
    for (int y = w.y0; y < w.y1; ++y, row += row_stride) {
      const int8_t* x = row;
      for (int i = 0; i < cols; ++i, x += p.channels) {
        const uint32_t v = load4(x);
        even = sxtab16(even, v);
        odd = sxtab16_ror8(odd, v);
      }
    }
    out[c] = rounded_average(lo16(even), count, act_min, act_max);
    out[c + 1] = rounded_average(lo16(odd), count, act_min, act_max);
    out[c + 2] = rounded_average(hi16(even), count, act_min, act_max);
    out[c + 3] = rounded_average(hi16(odd), count, act_min, act_max);
  }
  for (; c < p.channels; ++c) {
    int32_t sum = 0;
    const int8_t* row = first + c;
    for (int y = w.y0; y < w.y1; ++y, row += row_stride) {
      for (int i = 0; i < cols; ++i) sum += row[i * p.channels];
    }
    out[c] = rounded_average(sum, count, act_min, act_max);
  }
}

// average_pool2d_s8 when the filter has at most kMaxLaneWindow positions; false (nothing
// written) otherwise.
inline bool average_pool2d_s8(const pool::Pool2d& p, const int8_t* input, int8_t* output, int32_t act_min,
                              int32_t act_max) {
  if (p.filter_h > kMaxLaneWindow || p.filter_h * p.filter_w > kMaxLaneWindow) return false;
  const int image_size = p.in_h * p.in_w * p.channels;
  for (int b = 0; b < p.batches; ++b) {
    for (int out_y = 0; out_y < p.out_h; ++out_y) {
      for (int out_x = 0; out_x < p.out_w; ++out_x, output += p.channels) {
        average_pixel(p, input + b * image_size, pool::window_at(p, out_y, out_x), output, act_min, act_max);
      }
    }
  }
  return true;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_DENSE_AVERAGE_POOL_DSP_H_
