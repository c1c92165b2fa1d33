// Fixed-point arithmetic that TensorFlow Lite Micro's reference kernels use for
// requantization, reproduced bit for bit (same rounding, same saturation), so integer
// outputs match TFLM byte for byte.
#ifndef GRAPHRT_KERNELS_QUANT_MATH_H_
#define GRAPHRT_KERNELS_QUANT_MATH_H_

#include <stdint.h>

namespace grt::kernels {

// The range of an int8 (sizeof 1) or int16 quantized type.
template <typename T>
constexpr int32_t quantized_min() {
  return sizeof(T) == 1 ? INT8_MIN : INT16_MIN;
}
template <typename T>
constexpr int32_t quantized_max() {
  return sizeof(T) == 1 ? INT8_MAX : INT16_MAX;
}

// Two's-complement wrap-around, as TFLM's int32 arithmetic behaves on its targets where the
// C++ it is written in would overflow (and be undefined): same bits, defined behaviour.
inline int32_t wrapping_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrapping_sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
inline int32_t wrapping_mul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

// High 32 bits of 2*a*b, rounded to nearest (ties away from zero); saturates the one
// overflowing case (INT32_MIN * INT32_MIN).
inline int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == b && a == INT32_MIN) return INT32_MAX;
  const int64_t product = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = product >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  // Division (not shift) so the quotient truncates toward zero, as the reference does.
  return static_cast<int32_t>((product + nudge) / (int64_t{1} << 31));
}

// x / 2^exponent rounded to nearest, ties away from zero. exponent in [0, 31].
inline int32_t rounding_divide_by_pot(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// x * multiplier * 2^shift, multiplier a Q31 value; the int8 path of every TFLM kernel.
inline int32_t multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift) {
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  return rounding_divide_by_pot(
      saturating_rounding_doubling_high_mul(static_cast<int32_t>(static_cast<uint32_t>(x) << left_shift), multiplier),
      right_shift);
}

// The 64-bit accumulator variant used by TFLM's int16x8 kernels: the multiplier is
// reduced to 16 bits and one rounding shift is applied. shift in [-31, 7].
inline int32_t multiply_by_quantized_multiplier(int64_t x, int32_t multiplier, int shift) {
  const int32_t reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  const int total_shift = 15 - shift;
  const int64_t rounded = x * static_cast<int64_t>(reduced) + (int64_t{1} << (total_shift - 1));
  return static_cast<int32_t>(rounded >> total_shift);
}

}  // namespace grt::kernels

#endif  // GRAPHRT_KERNELS_QUANT_MATH_H_
