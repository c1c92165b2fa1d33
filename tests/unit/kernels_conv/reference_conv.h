// The tests' own statement of TFLM's reference convolutions: the same loops as TFLM writes
// them (every tap tested against the image bounds, transpose conv scattering into a
// scratch output), independent of the kernels' tap ranges and gather loop.
#ifndef GRAPHRT_TESTS_KERNELS_CONV_REFERENCE_CONV_H_
#define GRAPHRT_TESTS_KERNELS_CONV_REFERENCE_CONV_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace grt::test::ref {

struct Nhwc {
  int n = 1, h = 1, w = 1, c = 1;
  explicit Nhwc(const std::vector<int64_t>& s) : n(int(s[0])), h(int(s[1])), w(int(s[2])), c(int(s[3])) {}
  int at(int b, int y, int x, int ch) const { return ((b * h + y) * w + x) * c + ch; }
  int size() const { return n * h * w * c; }
};

struct Window {
  int stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1, pad_top = 0, pad_left = 0;
};

// gemmlowp's SaturatingRoundingDoublingHighMul and RoundingDivideByPOT, and TFLM's two
// MultiplyByQuantizedMultiplier overloads.
inline int32_t doubling_high_mul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const int64_t ab = int64_t{a} * b;
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  return int32_t((ab + nudge) / (int64_t{1} << 31));
}
inline int32_t divide_by_pot(int32_t x, int exponent) {
  const int32_t mask = int32_t((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}
inline int32_t requantize32(int32_t x, int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  return divide_by_pot(doubling_high_mul(x * (1 << left), multiplier), right);
}
inline int32_t requantize64(int64_t x, int32_t multiplier, int shift) {
  const int32_t reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  const int64_t total_shift = 15 - shift;
  return int32_t((x * reduced + (int64_t{1} << (total_shift - 1))) >> total_shift);
}

// Sums of CONV_2D (grouped); product(input_index, filter_index) gives one term.
template <typename Acc, typename Product>
std::vector<Acc> conv2d_sums(const Nhwc& in, const Nhwc& filter, const Nhwc& out, const Window& win, Product product) {
  std::vector<Acc> sums(size_t(out.size()));
  const int groups = in.c / filter.c;
  const int per_group = out.c / groups;
  for (int b = 0; b < out.n; ++b)
    for (int oy = 0; oy < out.h; ++oy)
      for (int ox = 0; ox < out.w; ++ox)
        for (int oc = 0; oc < out.c; ++oc) {
          Acc acc = 0;
          for (int fy = 0; fy < filter.h; ++fy)
            for (int fx = 0; fx < filter.w; ++fx) {
              const int iy = oy * win.stride_h - win.pad_top + win.dilation_h * fy;
              const int ix = ox * win.stride_w - win.pad_left + win.dilation_w * fx;
              if (iy < 0 || iy >= in.h || ix < 0 || ix >= in.w) continue;
              for (int ic = 0; ic < filter.c; ++ic)
                acc += product(in.at(b, iy, ix, ic + (oc / per_group) * filter.c), filter.at(oc, fy, fx, ic));
            }
          sums[size_t(out.at(b, oy, ox, oc))] = acc;
        }
  return sums;
}

// Sums of DEPTHWISE_CONV_2D; the filter is [1, KH, KW, out.c].
template <typename Acc, typename Product>
std::vector<Acc> depthwise_sums(const Nhwc& in, const Nhwc& filter, const Nhwc& out, const Window& win, Product product) {
  std::vector<Acc> sums(size_t(out.size()));
  const int multiplier = out.c / in.c;
  for (int b = 0; b < out.n; ++b)
    for (int oy = 0; oy < out.h; ++oy)
      for (int ox = 0; ox < out.w; ++ox)
        for (int ic = 0; ic < in.c; ++ic)
          for (int m = 0; m < multiplier; ++m) {
            const int oc = m + ic * multiplier;
            Acc acc = 0;
            for (int fy = 0; fy < filter.h; ++fy)
              for (int fx = 0; fx < filter.w; ++fx) {
                const int iy = oy * win.stride_h - win.pad_top + win.dilation_h * fy;
                const int ix = ox * win.stride_w - win.pad_left + win.dilation_w * fx;
                if (iy < 0 || iy >= in.h || ix < 0 || ix >= in.w) continue;
                acc += product(in.at(b, iy, ix, ic), filter.at(0, fy, fx, oc));
              }
            sums[size_t(out.at(b, oy, ox, oc))] = acc;
          }
  return sums;
}

// Sums of TRANSPOSE_CONV, scattered as TFLM does; the filter is [out.c, KH, KW, in.c].
template <typename Acc, typename Product>
std::vector<Acc> transpose_conv_sums(const Nhwc& in, const Nhwc& filter, const Nhwc& out, const Window& win,
                                     Product product) {
  std::vector<Acc> scratch(size_t(out.size()), 0);
  for (int b = 0; b < in.n; ++b)
    for (int iy = 0; iy < in.h; ++iy)
      for (int ix = 0; ix < in.w; ++ix)
        for (int ic = 0; ic < in.c; ++ic)
          for (int fy = 0; fy < filter.h; ++fy)
            for (int fx = 0; fx < filter.w; ++fx)
              for (int oc = 0; oc < out.c; ++oc) {
                const int ox = ix * win.stride_w - win.pad_left + fx;
                const int oy = iy * win.stride_h - win.pad_top + fy;
                if (ox < 0 || ox >= out.w || oy < 0 || oy >= out.h) continue;
                scratch[size_t(out.at(b, oy, ox, oc))] += product(in.at(b, iy, ix, ic), filter.at(oc, fy, fx, ic));
              }
  return scratch;
}

}  // namespace grt::test::ref

#endif  // GRAPHRT_TESTS_KERNELS_CONV_REFERENCE_CONV_H_
