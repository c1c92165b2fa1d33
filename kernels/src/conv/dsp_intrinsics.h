// The Cortex-M DSP extension's SIMD instructions the fast int8 kernels use (ARMv7E-M: M4,
// M7; ARMv8-M mainline with DSP: M33), chosen at compile time from __ARM_FEATURE_DSP.
//
// GRT_KERNELS_DSP is 1 where the *_dsp.h inner loops are compiled: on such a core, or on a
// host that defines GRT_DSP_EMULATE (tests only), where each instruction is its C statement
// below, so the DSP loops' logic runs and is tested on the host too. Cores without the
// extension, and hosts, keep the portable kernels.
//
// Lanes: a uint32_t holds two int16 halves, `lo` = bits 0-15, `hi` = bits 16-31. Four int8
// bytes b0..b3 (b0 lowest) expand to (b0, b2) by sxtb16 and to (b1, b3) by sxtb16_ror8; the
// same split of the weights pairs every activation with its weight, so no repacking is
// needed before a dual multiply-accumulate.
#ifndef GRAPHRT_KERNELS_CONV_DSP_INTRINSICS_H_
#define GRAPHRT_KERNELS_CONV_DSP_INTRINSICS_H_

#include <stdint.h>
#include <string.h>

#if defined(GRT_DSP_EMULATE)
#define GRT_KERNELS_DSP 1
#elif defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && !defined(GRT_KERNELS_PORTABLE)
#define GRT_KERNELS_DSP 1
#include <arm_acle.h>
#else
#define GRT_KERNELS_DSP 0
#endif

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// Four bytes from any address (one unaligned LDR on the core).
inline uint32_t load4(const int8_t* p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}
// Four bytes to any address (one unaligned STR on the core).
inline void store_word(int8_t* p, uint32_t v) { memcpy(p, &v, sizeof v); }
#if defined(GRT_DSP_EMULATE)
// Bytes 0 to 3 of a word from the low bytes of four values.
inline uint32_t bytes_of(int32_t b0, int32_t b1, int32_t b2, int32_t b3) {
  return (static_cast<uint32_t>(b0) & 0xFFu) | ((static_cast<uint32_t>(b1) & 0xFFu) << 8) |
         ((static_cast<uint32_t>(b2) & 0xFFu) << 16) | (static_cast<uint32_t>(b3) << 24);
}
#else
// UXTB, two BFIs and an ORR (GCC 12 makes nine instructions of the C above).
inline uint32_t bytes_of(int32_t b0, int32_t b1, int32_t b2, int32_t b3) {
  uint32_t word;
  __asm__(
      "uxtb %0, %1\n\t"
      "bfi %0, %2, #8, #8\n\t"
      "bfi %0, %3, #16, #8\n\t"
      "orr %0, %0, %4, lsl #24"
      : "=&r"(word)
      : "r"(b0), "r"(b1), "r"(b2), "r"(b3));
  return word;
}
#endif

// Both halves of a register holding `value` (an int16), the operand of sxtab16.
inline uint32_t pair_of(int32_t value) {
  const uint32_t half = static_cast<uint32_t>(value) & 0xFFFFu;
  return half | (half << 16);
}

inline int32_t lo16(uint32_t v) { return static_cast<int16_t>(static_cast<uint16_t>(v)); }
inline int32_t hi16(uint32_t v) { return static_cast<int16_t>(static_cast<uint16_t>(v >> 16)); }

#if defined(GRT_DSP_EMULATE)

inline int32_t byte_at(uint32_t v, int i) { return static_cast<int8_t>(static_cast<uint8_t>(v >> (8 * i))); }
inline uint32_t halves(int32_t lo, int32_t hi) {
  return (static_cast<uint32_t>(lo) & 0xFFFFu) | (static_cast<uint32_t>(hi) << 16);
}

inline uint32_t sxtb16(uint32_t v) { return halves(byte_at(v, 0), byte_at(v, 2)); }
inline uint32_t sxtb16_ror8(uint32_t v) { return halves(byte_at(v, 1), byte_at(v, 3)); }
// Each half of `a` plus the sign-extended byte: 16-bit wrapping adds.
inline uint32_t sxtab16(uint32_t a, uint32_t v) { return halves(lo16(a) + byte_at(v, 0), hi16(a) + byte_at(v, 2)); }
inline uint32_t sxtab16_ror8(uint32_t a, uint32_t v) { return halves(lo16(a) + byte_at(v, 1), hi16(a) + byte_at(v, 3)); }
// acc + lo*lo + hi*hi, wrapping (the core sets the Q flag and wraps the same way).
inline uint32_t smlad(uint32_t a, uint32_t b, uint32_t acc) {
  return acc + static_cast<uint32_t>(lo16(a) * lo16(b)) + static_cast<uint32_t>(hi16(a) * hi16(b));
}
inline uint32_t smlabb(uint32_t a, uint32_t b, uint32_t acc) { return acc + static_cast<uint32_t>(lo16(a) * lo16(b)); }
inline uint32_t smlatt(uint32_t a, uint32_t b, uint32_t acc) { return acc + static_cast<uint32_t>(hi16(a) * hi16(b)); }
// The larger of each pair of signed bytes (SSUB8 sets the GE flags, SEL picks by them).
inline uint32_t max_s8x4(uint32_t a, uint32_t b) {
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) {
    const int32_t x = byte_at(a, i), y = byte_at(b, i);
    r |= static_cast<uint32_t>(static_cast<uint8_t>(x >= y ? x : y)) << (8 * i);
  }
  return r;
}
// The smaller of each pair of signed bytes (SSUB8, then SEL with the operands swapped).
inline uint32_t min_s8x4(uint32_t a, uint32_t b) { return max_s8x4(a, b) ^ a ^ b; }
// x clamped to [-128, 127] (SSAT #8).
inline int32_t ssat8(int32_t x) { return x < -128 ? -128 : (x > 127 ? 127 : x); }
// The high word of (hi:lo) + x * m, a 64-bit signed sum (SMLAL).
inline int32_t smlal_high(int32_t x, int32_t m, uint32_t lo, int32_t hi) {
  const uint64_t start = (static_cast<uint64_t>(static_cast<uint32_t>(hi)) << 32) | lo;
  const uint64_t sum = start + static_cast<uint64_t>(static_cast<int64_t>(x) * m);
  return static_cast<int32_t>(static_cast<uint32_t>(sum >> 32));
}
// (x * m + 2^30) >> 31 in 64 bits, which fits int32 for m in [0, INT32_MAX].
inline int32_t rounding_high_mul(int32_t x, int32_t m) {
  return static_cast<int32_t>((static_cast<int64_t>(x) * m + (int64_t{1} << 30)) >> 31);
}
// a + the high word of x * m + 2^31 (SMMLAR: the rounded most significant word).
inline int32_t smmlar(int32_t x, int32_t m, int32_t a) {
  const uint64_t sum = (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) +
                       static_cast<uint64_t>(static_cast<int64_t>(x) * m) + (uint64_t{1} << 31);
  return static_cast<int32_t>(static_cast<uint32_t>(sum >> 32));
}

#else  // the core's instructions

inline uint32_t sxtb16(uint32_t v) { return static_cast<uint32_t>(__sxtb16(static_cast<int8x4_t>(v))); }
// GCC 12 does not fold a rotation into SXTB16/SXTAB16, so the rotated forms are written out.
inline uint32_t sxtb16_ror8(uint32_t v) {
  uint32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}
inline uint32_t sxtab16(uint32_t a, uint32_t v) {
  return static_cast<uint32_t>(__sxtab16(static_cast<int16x2_t>(a), static_cast<int8x4_t>(v)));
}
inline uint32_t sxtab16_ror8(uint32_t a, uint32_t v) {
  uint32_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(v));
  return r;
}
inline uint32_t smlad(uint32_t a, uint32_t b, uint32_t acc) {
  return static_cast<uint32_t>(
      __smlad(static_cast<int16x2_t>(a), static_cast<int16x2_t>(b), static_cast<int32_t>(acc)));
}
inline uint32_t smlabb(uint32_t a, uint32_t b, uint32_t acc) {
  return static_cast<uint32_t>(__smlabb(static_cast<int32_t>(a), static_cast<int32_t>(b), static_cast<int32_t>(acc)));
}
inline uint32_t smlatt(uint32_t a, uint32_t b, uint32_t acc) {
  return static_cast<uint32_t>(__smlatt(static_cast<int32_t>(a), static_cast<int32_t>(b), static_cast<int32_t>(acc)));
}
inline int32_t ssat8(int32_t x) { return __ssat(x, 8); }
// One asm statement: nothing may change the GE flags between the two.
inline uint32_t max_s8x4(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("ssub8 %0, %1, %2\n\tsel %0, %1, %2" : "=&r"(r) : "r"(a), "r"(b) : "cc");
  return r;
}
inline uint32_t min_s8x4(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("ssub8 %0, %1, %2\n\tsel %0, %2, %1" : "=&r"(r) : "r"(a), "r"(b) : "cc");
  return r;
}
inline int32_t smlal_high(int32_t x, int32_t m, uint32_t lo, int32_t hi) {
  __asm__("smlal %0, %1, %2, %3" : "+r"(lo), "+r"(hi) : "r"(x), "r"(m));
  return hi;
}
inline int32_t smmlar(int32_t x, int32_t m, int32_t a) {
  int32_t r;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(m), "r"(a));
  return r;
}
// GCC 12 widens the int32 operands into a 64x64 multiply here; SMULL and four more.
inline int32_t rounding_high_mul(int32_t x, int32_t m) {
  uint32_t lo, hi;
  __asm__(
      "smull %0, %1, %2, %3\n\t"
      "adds %0, %0, #0x40000000\n\t"
      "adc %1, %1, #0\n\t"
      "lsrs %0, %0, #31\n\t"
      "orr %0, %0, %1, lsl #1"
      : "=&r"(lo), "=&r"(hi)
      : "r"(x), "r"(m)
      : "cc");
  return static_cast<int32_t>(lo);
}

#endif

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_DSP_INTRINSICS_H_
