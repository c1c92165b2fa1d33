// The run dot products of conv2d_dot.h (see there).
#include "conv2d_dot.h"

namespace grt::kernels::conv {

// ---- int8 activations + offset, int8 weights: sums wrap as uint32 ----
// (x + offset) is in [-255, 255], so each product fits int16 x int16 -> int32 exactly.

void conv2d_dot4_s8(const int8_t* x, const int8_t* w, size_t filter_stride, int16_t offset, size_t n, uint32_t* acc) {
  const int8_t* w1 = w + filter_stride;
  const int8_t* w2 = w1 + filter_stride;
  const int8_t* w3 = w2 + filter_stride;
  uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const size_t vectorized = n & ~size_t{15};
  for (size_t i = 0; i < vectorized; ++i) {
    const int16_t xi = static_cast<int16_t>(x[i] + offset);
    a0 += static_cast<uint32_t>(xi * static_cast<int16_t>(w[i]));
    a1 += static_cast<uint32_t>(xi * static_cast<int16_t>(w1[i]));
    a2 += static_cast<uint32_t>(xi * static_cast<int16_t>(w2[i]));
    a3 += static_cast<uint32_t>(xi * static_cast<int16_t>(w3[i]));
  }
  for (size_t i = vectorized; i < n; ++i) {
    const int32_t xi = x[i] + offset;
    a0 += static_cast<uint32_t>(xi * w[i]);
    a1 += static_cast<uint32_t>(xi * w1[i]);
    a2 += static_cast<uint32_t>(xi * w2[i]);
    a3 += static_cast<uint32_t>(xi * w3[i]);
  }
  acc[0] += a0;
  acc[1] += a1;
  acc[2] += a2;
  acc[3] += a3;
}

void conv2d_dot1_s8(const int8_t* x, const int8_t* w, int16_t offset, size_t n, uint32_t* acc) {
  uint32_t a = 0;
  const size_t vectorized = n & ~size_t{15};
  for (size_t i = 0; i < vectorized; ++i) {
    const int16_t xi = static_cast<int16_t>(x[i] + offset);
    a += static_cast<uint32_t>(xi * static_cast<int16_t>(w[i]));
  }
  for (size_t i = vectorized; i < n; ++i) a += static_cast<uint32_t>((x[i] + offset) * w[i]);
  *acc += a;
}

// ---- int16 activations (zero point 0), int8 weights: int64 sums ----
// Each product is below 2^22 in magnitude, so int32 partial sums over at most
// kInt16Chunk products are exact.
constexpr size_t kInt16Chunk = 256;

void conv2d_dot4_s16(const int16_t* x, const int8_t* w, size_t filter_stride, size_t n, int64_t* acc) {
  const int8_t* w1 = w + filter_stride;
  const int8_t* w2 = w1 + filter_stride;
  const int8_t* w3 = w2 + filter_stride;
  for (size_t start = 0; start < n; start += kInt16Chunk) {
    const size_t count = n - start < kInt16Chunk ? n - start : kInt16Chunk;
    const int16_t* xs = x + start;
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    const size_t vectorized = count & ~size_t{15};
    for (size_t i = 0; i < vectorized; ++i) {
      const int16_t xi = xs[i];
      a0 += xi * static_cast<int16_t>(w[start + i]);
      a1 += xi * static_cast<int16_t>(w1[start + i]);
      a2 += xi * static_cast<int16_t>(w2[start + i]);
      a3 += xi * static_cast<int16_t>(w3[start + i]);
    }
    for (size_t i = vectorized; i < count; ++i) {
      const int32_t xi = xs[i];
      a0 += xi * w[start + i];
      a1 += xi * w1[start + i];
      a2 += xi * w2[start + i];
      a3 += xi * w3[start + i];
    }
    acc[0] += a0;
    acc[1] += a1;
    acc[2] += a2;
    acc[3] += a3;
  }
}

void conv2d_dot1_s16(const int16_t* x, const int8_t* w, size_t n, int64_t* acc) {
  for (size_t start = 0; start < n; start += kInt16Chunk) {
    const size_t count = n - start < kInt16Chunk ? n - start : kInt16Chunk;
    int32_t a = 0;
    const size_t vectorized = count & ~size_t{15};
    for (size_t i = 0; i < vectorized; ++i) a += x[start + i] * static_cast<int16_t>(w[start + i]);
    for (size_t i = vectorized; i < count; ++i) a += x[start + i] * w[start + i];
    *acc += a;
  }
}

// ---- float: four partial sums per channel (lanes i mod 4), added pairwise at the end ----
// The order differs from TFLM's strictly sequential sum by rounding only.

void conv2d_dot4_f32(const float* x, const float* w, size_t filter_stride, size_t n, float* acc) {
  const float* w1 = w + filter_stride;
  const float* w2 = w1 + filter_stride;
  const float* w3 = w2 + filter_stride;
  float a0[4] = {0, 0, 0, 0}, a1[4] = {0, 0, 0, 0}, a2[4] = {0, 0, 0, 0}, a3[4] = {0, 0, 0, 0};
  const size_t vectorized = n & ~size_t{3};
  for (size_t i = 0; i < vectorized; i += 4) {
    for (size_t l = 0; l < 4; ++l) {
      const float xi = x[i + l];
      a0[l] += xi * w[i + l];
      a1[l] += xi * w1[i + l];
      a2[l] += xi * w2[i + l];
      a3[l] += xi * w3[i + l];
    }
  }
  float s0 = (a0[0] + a0[1]) + (a0[2] + a0[3]);
  float s1 = (a1[0] + a1[1]) + (a1[2] + a1[3]);
  float s2 = (a2[0] + a2[1]) + (a2[2] + a2[3]);
  float s3 = (a3[0] + a3[1]) + (a3[2] + a3[3]);
  for (size_t i = vectorized; i < n; ++i) {
    s0 += x[i] * w[i];
    s1 += x[i] * w1[i];
    s2 += x[i] * w2[i];
    s3 += x[i] * w3[i];
  }
  acc[0] += s0;
  acc[1] += s1;
  acc[2] += s2;
  acc[3] += s3;
}

void conv2d_dot1_f32(const float* x, const float* w, size_t n, float* acc) {
  float a[4] = {0, 0, 0, 0};
  const size_t vectorized = n & ~size_t{3};
  for (size_t i = 0; i < vectorized; i += 4) {
    for (size_t l = 0; l < 4; ++l) a[l] += x[i + l] * w[i + l];
  }
  float s = (a[0] + a[1]) + (a[2] + a[3]);
  for (size_t i = vectorized; i < n; ++i) s += x[i] * w[i];
  *acc += s;
}

}  // namespace grt::kernels::conv
