// Integer helpers of the audio front end, with the exact rounding of TFLM's signal library
// (signal/src: msb, square_root, log): the kernels here must match it bit for bit.
#ifndef GRAPHRT_KERNELS_SIGNAL_SIGNAL_MATH_H_
#define GRAPHRT_KERNELS_SIGNAL_SIGNAL_MATH_H_

#include <stdint.h>

namespace grt::kernels::signal {

// Bits needed to write x; TFLM's GCC build answers 32 (64) for zero, and so do these.
inline uint32_t most_significant_bit32(uint32_t x) { return x == 0 ? 32u : 32u - static_cast<uint32_t>(__builtin_clz(x)); }
inline uint32_t most_significant_bit64(uint64_t x) { return x == 0 ? 64u : 64u - static_cast<uint32_t>(__builtin_clzll(x)); }

// Digit-by-digit integer square root, rounded up when the remainder exceeds the root.
inline uint16_t sqrt32(uint32_t num) {
  if (num == 0) return 0;
  uint32_t root = 0;
  const int top = static_cast<int>(32 - most_significant_bit32(num)) | 1;
  uint32_t bit = 1u << (31 - top);
  for (int steps = (31 - top) / 2 + 1; steps > 0; --steps) {
    if (num >= root + bit) {
      num -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  if (num > root && root != 0xFFFF) ++root;
  return static_cast<uint16_t>(root);
}

// Values below 2^32 take the 32-bit path, as TFLM's does (it differs by one near 2^32).
inline uint32_t sqrt64(uint64_t num) {
  if ((num >> 32) == 0) return sqrt32(static_cast<uint32_t>(num));
  uint64_t root = 0;
  const int top = static_cast<int>(64 - most_significant_bit64(num)) | 1;
  uint64_t bit = uint64_t{1} << (63 - top);
  for (int steps = (63 - top) / 2 + 1; steps > 0; --steps) {
    if (num >= root + bit) {
      num -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  if (num > root && root != 0xFFFFFFFFu) ++root;
  return static_cast<uint32_t>(root);
}

// ln(x) * out_scale / 2^16 in fixed point: log2 from the leading bit plus a 128-segment
// correction table over the fraction, times ln(2) as 45426 / 2^16.
uint32_t log32(uint32_t x, uint32_t out_scale);

}  // namespace grt::kernels::signal

#endif  // GRAPHRT_KERNELS_SIGNAL_SIGNAL_MATH_H_
