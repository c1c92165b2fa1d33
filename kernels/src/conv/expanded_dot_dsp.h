// Two pixels' activations sign-extended once (and the input offset added, when the products
// are not raw) into a small stack buffer, then multiplied by every pair of filters of a chunk:
// the pointwise loop of conv2d_dsp.h re-extended both pixels for every pair of filters.
// Per four bytes of K the loop loads the four extended halves with two LDRDs, so it is
// 4 loads, 4 sign extensions (the weights') and 8 dual multiply-accumulates for 16 MACs:
// 18 instructions with the loop instead of 22.
// A lone last pixel (odd pixel counts: every one-row band of five) is expanded alone, two
// words per four bytes, and multiplied by every pair of filters the same way: per four bytes
// one LDRD, 2 weight loads, 4 sign extensions and 4 dual multiply-accumulates for 8 MACs,
// 13 instructions with the loop; dot_rows_2 re-extended it for every pair of filters.
#ifndef GRAPHRT_KERNELS_CONV_EXPANDED_DOT_DSP_H_
#define GRAPHRT_KERNELS_CONV_EXPANDED_DOT_DSP_H_

#include <stddef.h>
#include <stdint.h>

#include "dsp_intrinsics.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// Patches of at most this many bytes are expanded: 4 words per four bytes and two pixels,
// a 512-byte buffer (KWS's pointwise layers are 64 channels deep; deeper ones keep dot_2x2).
// A lone pixel takes half of it.
constexpr size_t kMaxExpanded = 128;
constexpr size_t kExpandedWords = kMaxExpanded;

struct Sums2x2 {
  uint32_t p0c0, p0c1, p1c0, p1c1;  // pixel x filter
};

struct Sums1x2 {
  uint32_t c0, c1;  // filter
};

// The whole words of the patches x and x + k, as (x even, x odd, x+k even, x+k odd) halves
// per four bytes, the offset added to each when kOffset.
template <bool kOffset>
inline void expand_patches(const int8_t* x, size_t k, uint32_t offset2, uint32_t* to) {
  const int8_t* const words_end = x + (k & ~size_t{3});
  for (; x != words_end; x += 4, to += 4) {
    const uint32_t a = load4(x), b = load4(x + k);
    if (kOffset) {
      to[0] = sxtab16(offset2, a);
      to[1] = sxtab16_ror8(offset2, a);
      to[2] = sxtab16(offset2, b);
      to[3] = sxtab16_ror8(offset2, b);
    } else {
      to[0] = sxtb16(a);
      to[1] = sxtb16_ror8(a);
      to[2] = sxtb16(b);
      to[3] = sxtb16_ror8(b);
    }
  }
}

// The whole words of the one patch x, as (even, odd) halves per four bytes, the offset added
// to each when kOffset.
template <bool kOffset>
inline void expand_patch(const int8_t* x, size_t k, uint32_t offset2, uint32_t* to) {
  const int8_t* const words_end = x + (k & ~size_t{3});
  for (; x != words_end; x += 4, to += 2) {
    const uint32_t a = load4(x);
    if (kOffset) {
      to[0] = sxtab16(offset2, a);
      to[1] = sxtab16_ror8(offset2, a);
    } else {
      to[0] = sxtb16(a);
      to[1] = sxtb16_ror8(a);
    }
  }
}

// dot_2x2's four sums from expand_patches' words `e` (the patches x and x + k, which the
// leftover bytes, k not a multiple of 4, are read from) and the filters w and w + k.
inline Sums2x2 dot_2x2_expanded(const uint32_t* e, const int8_t* x, const int8_t* w, size_t k, int32_t offset) {
  uint32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0;
  const size_t words = k >> 2;
  const int8_t* w_tail = w + (words << 2);
#if !defined(GRT_DSP_EMULATE)
  if (words != 0) {
    // By hand, as dot_2x2's loop: fourteen registers, the two pointers, k, the step count,
    // four sums, four activation halves and two weight halves.
    uint32_t steps = static_cast<uint32_t>(words);
    uint32_t a_even, a_odd, b_even, b_odd, u, u_even;
    __asm__(
        "1:\n\t"
        "ldrd %[a_even], %[a_odd], [%[e]], #8\n\t"
        "ldrd %[b_even], %[b_odd], [%[e]], #8\n\t"
        "ldr %[u], [%[w], %[k]]\n\t"
        "sxtb16 %[u_even], %[u]\n\t"
        "sxtb16 %[u], %[u], ror #8\n\t"
        "smlad %[s01], %[a_even], %[u_even], %[s01]\n\t"
        "smlad %[s01], %[a_odd], %[u], %[s01]\n\t"
        "smlad %[s11], %[b_even], %[u_even], %[s11]\n\t"
        "smlad %[s11], %[b_odd], %[u], %[s11]\n\t"
        "ldr %[u], [%[w]], #4\n\t"
        "sxtb16 %[u_even], %[u]\n\t"
        "sxtb16 %[u], %[u], ror #8\n\t"
        "smlad %[s00], %[a_even], %[u_even], %[s00]\n\t"
        "smlad %[s00], %[a_odd], %[u], %[s00]\n\t"
        "smlad %[s10], %[b_even], %[u_even], %[s10]\n\t"
        "smlad %[s10], %[b_odd], %[u], %[s10]\n\t"
        "subs %[steps], %[steps], #1\n\t"
        "bne 1b"
        : [e] "+r"(e), [w] "+r"(w), [steps] "+r"(steps), [s00] "+r"(s00), [s01] "+r"(s01), [s10] "+r"(s10),
          [s11] "+r"(s11), [a_even] "=&r"(a_even), [a_odd] "=&r"(a_odd), [b_even] "=&r"(b_even),
          [b_odd] "=&r"(b_odd), [u] "=&r"(u), [u_even] "=&r"(u_even)
        : [k] "r"(k)
        : "cc", "memory");
  }
#else
  for (size_t i = 0; i < words; ++i, e += 4, w += 4) {
    const uint32_t u = load4(w), v = load4(w + k);
    const uint32_t u_even = sxtb16(u), u_odd = sxtb16_ror8(u);
    const uint32_t v_even = sxtb16(v), v_odd = sxtb16_ror8(v);
    s00 = smlad(e[1], u_odd, smlad(e[0], u_even, s00));
    s10 = smlad(e[3], u_odd, smlad(e[2], u_even, s10));
    s01 = smlad(e[1], v_odd, smlad(e[0], v_even, s01));
    s11 = smlad(e[3], v_odd, smlad(e[2], v_even, s11));
  }
#endif
  const int8_t* x_tail = x + (words << 2);
  for (size_t i = 0; i < (k & 3); ++i) {
    const int32_t a = x_tail[i] + offset, b = x_tail[k + i] + offset;
    s00 += static_cast<uint32_t>(a * w_tail[i]);
    s01 += static_cast<uint32_t>(a * w_tail[k + i]);
    s10 += static_cast<uint32_t>(b * w_tail[i]);
    s11 += static_cast<uint32_t>(b * w_tail[k + i]);
  }
  return {s00, s01, s10, s11};
}

// The sums over i < k of (x[i] + offset) * w_c[i] for the filters w_0 = w and w_1 = w + k,
// from expand_patch's words `e` of the patch x (which the leftover bytes, k not a multiple
// of 4, are read from).
inline Sums1x2 dot_1x2_expanded(const uint32_t* e, const int8_t* x, const int8_t* w, size_t k, int32_t offset) {
  uint32_t s0 = 0, s1 = 0;
  const size_t words = k >> 2;
  const int8_t* w_tail = w + (words << 2);
#if !defined(GRT_DSP_EMULATE)
  if (words != 0) {
    // By hand, as dot_2x2_expanded's loop: ten registers, the two pointers, k, the step
    // count, two sums, two activation halves and two weight halves.
    uint32_t steps = static_cast<uint32_t>(words);
    uint32_t a_even, a_odd, u, u_even;
    __asm__(
        "1:\n\t"
        "ldrd %[a_even], %[a_odd], [%[e]], #8\n\t"
        "ldr %[u], [%[w], %[k]]\n\t"
        "sxtb16 %[u_even], %[u]\n\t"
        "sxtb16 %[u], %[u], ror #8\n\t"
        "smlad %[s1], %[a_even], %[u_even], %[s1]\n\t"
        "smlad %[s1], %[a_odd], %[u], %[s1]\n\t"
        "ldr %[u], [%[w]], #4\n\t"
        "sxtb16 %[u_even], %[u]\n\t"
        "sxtb16 %[u], %[u], ror #8\n\t"
        "smlad %[s0], %[a_even], %[u_even], %[s0]\n\t"
        "smlad %[s0], %[a_odd], %[u], %[s0]\n\t"
        "subs %[steps], %[steps], #1\n\t"
        "bne 1b"
        : [e] "+r"(e), [w] "+r"(w), [steps] "+r"(steps), [s0] "+r"(s0), [s1] "+r"(s1), [a_even] "=&r"(a_even),
          [a_odd] "=&r"(a_odd), [u] "=&r"(u), [u_even] "=&r"(u_even)
        : [k] "r"(k)
        : "cc", "memory");
  }
#else
  for (size_t i = 0; i < words; ++i, e += 2, w += 4) {
    const uint32_t u = load4(w), v = load4(w + k);
    s0 = smlad(e[1], sxtb16_ror8(u), smlad(e[0], sxtb16(u), s0));
    s1 = smlad(e[1], sxtb16_ror8(v), smlad(e[0], sxtb16(v), s1));
  }
#endif
  const int8_t* x_tail = x + (words << 2);
  for (size_t i = 0; i < (k & 3); ++i) {
    const int32_t a = x_tail[i] + offset;
    s0 += static_cast<uint32_t>(a * w_tail[i]);
    s1 += static_cast<uint32_t>(a * w_tail[k + i]);
  }
  return {s0, s1};
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_EXPANDED_DOT_DSP_H_
