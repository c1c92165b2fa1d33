// Int8Arithmetic::finish (conv_arithmetic.h) for the DSP kernels: the same integers, with
// one 32x32->64 multiply-accumulate and a shift (ChannelRequantizer below). The argument
// checks prove every multiplier is in [0, INT32_MAX], so saturating_rounding_doubling_high_mul
// cannot saturate and its (p + nudge) / 2^31 truncated toward zero equals (p + 2^30) >> 31
// for both signs of p (depthwise_requantize.h derives it), a value that fits int32.
#ifndef GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_
#define GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_

#include <stddef.h>
#include <stdint.h>

#include "../quant_math.h"
#include "conv_arithmetic.h"
#include "dsp_intrinsics.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// One output channel's bias and requantization, worked out once and applied to many sums.
//
// For a right shift e >= 1 the two roundings fold into one 64-bit sum. With p = x * m and
// h = (p + 2^30) >> 31, rounding_divide_by_pot(h, e) = (h + 2^(e-1) - [h < 0]) >> e, which
// is (p + 2^30 + (2^(e-1) - [h < 0]) * 2^31) >> (31 + e) (floor of a floor); as 31 + e >= 32
// that is the high word of the sum shifted right by e - 1. [h < 0] may be replaced by
// [x < 0] (m >= 0): they differ only when p is in [-2^30, 0), where h = 0 and either
// correction leaves the quotient 0. So: SMLAL onto a per-channel 64-bit start, one of two by
// the sign of x, and one shift.
struct ChannelRequantizer {
  uint32_t bias;
  int32_t multiplier;
  int32_t left;          // shift > 0 ? shift : 0
  int32_t high_shift;    // right - 1 for right = -shift >= 1; -1 when there is no right shift
  uint32_t start_lo[2];  // 2^30 + 2^(30 + right), minus 2^31 in [1]: for x >= 0, x < 0
  int32_t start_hi[2];

  static ChannelRequantizer of(const conv::Int8Arithmetic& a, int32_t c) {
    const int32_t shift = a.shifts[c];
    const int32_t right = shift > 0 ? 0 : -shift;
    const uint64_t start = (uint64_t{1} << 30) + (uint64_t{1} << (30 + right));
    const uint64_t start_negative = start - (uint64_t{1} << 31);
    return {a.bias != nullptr ? static_cast<uint32_t>(a.bias[c]) : 0u,
            a.multipliers[c],
            shift > 0 ? shift : 0,
            right - 1,
            {static_cast<uint32_t>(start), static_cast<uint32_t>(start_negative)},
            {static_cast<int32_t>(start >> 32), static_cast<int32_t>(start_negative >> 32)}};
  }
  // multiply_by_quantized_multiplier(sum + bias, multiplier, shift).
  int32_t apply(uint32_t sum) const {
    const int32_t x = static_cast<int32_t>(sum + bias);
    if (__builtin_expect(high_shift < 0, 0)) return rounding_high_mul(static_cast<int32_t>(static_cast<uint32_t>(x) << left), multiplier);
    const int negative = x < 0 ? 1 : 0;
    return smlal_high(x, multiplier, start_lo[negative], start_hi[negative]) >> high_shift;
  }
};

// Channels [first, first + count) of `a` into `to` (for FastRequantizer, checked before).
template <class Requantizer>
inline void fill_requantizers(const conv::Int8Arithmetic& a, int32_t first, int32_t count, Requantizer* to) {
  for (int32_t i = 0; i < count; ++i) to[i] = Requantizer::of(a, first + i);
}

// The output zero point and activation clamp, copied out of the arithmetic once.
struct OutputStage {
  using Requantizer = ChannelRequantizer;
  int32_t offset, min, max;

  explicit OutputStage(const conv::Int8Arithmetic& a)
      : offset(a.output_offset), min(a.activation_min), max(a.activation_max) {}
  int8_t operator()(int32_t value) const {
    value = wrapping_add(value, offset);
    if (value < min) value = min;
    if (value > max) value = max;
    return static_cast<int8_t>(value);
  }
  // Channels [first, first + count) of `a` into `to`.
  static void fill_table(const conv::Int8Arithmetic& a, int32_t first, int32_t count, ChannelRequantizer* to) {
    fill_requantizers(a, first, count, to);
  }
  static bool has_pruned_filters() { return false; }
};

inline bool clamps_to_int8(const conv::Int8Arithmetic& a) {
  return a.activation_min == INT8_MIN && a.activation_max == INT8_MAX;
}

// The whole output step of one channel in eight instructions, for the layers where it is
// exact: a right shift e >= 1, a multiplier m >= 0, a full int8 clamp and
// |bias| + K * 255 * 128 < 2^30 for patches of K taps, so x = sum + bias and 2x fit int32
// (no sum wraps). Then
// h = (x * m + 2^30) >> 31 is SMMLAR's rounded high word of 2x * m, and as in
// ChannelRequantizer (with [x < 0] for [h < 0]) the result plus the output offset is
// (h + 2^(e-1) + offset * 2^e - [x < 0]) >> e: the offset times 2^e passes through the floor.
// SMMLAR adds the constant (|constant| < 2^30, checked, keeps every step in int32).
struct FastRequantizer {
  uint32_t bias;
  int32_t multiplier;
  int32_t constant;  // 2^(e-1) + output_offset * 2^e
  int32_t shift;     // e

  // Channel c of `a`, which fast_requantize_applies accepted (the constant fits int32).
  static FastRequantizer of(const conv::Int8Arithmetic& a, int32_t c) {
    const int32_t e = -a.shifts[c];
    const uint32_t constant = (1u << (e - 1)) + (static_cast<uint32_t>(a.output_offset) << e);
    return {a.bias != nullptr ? static_cast<uint32_t>(a.bias[c]) : 0u, a.multipliers[c], static_cast<int32_t>(constant), e};
  }
  // The output `value` whatever the sum (multiplier 0, no shift): a pruned filter's.
  static FastRequantizer constant_output(int8_t value) { return {0u, 0, value, 0}; }
  int8_t apply(uint32_t sum) const {
#if defined(GRT_DSP_EMULATE)
    const int32_t x = static_cast<int32_t>(sum + bias);
    const int32_t h = smmlar(static_cast<int32_t>(static_cast<uint32_t>(x) << 1), multiplier, constant);
    return static_cast<int8_t>(ssat8((h + (x >> 31)) >> shift));
#else
    // The same with two LDRDs for the four fields: in C, GCC 12 loads a whole table row of
    // them ahead and spills (about 14 instructions per output instead of 8).
    uint32_t b, m, c, e, x, h;
    __asm__(
        "ldrd %[b], %[m], [%[self]]\n\t"
        "ldrd %[c], %[e], [%[self], #8]\n\t"
        "add %[x], %[sum], %[b]\n\t"
        "lsl %[h], %[x], #1\n\t"
        "smmlar %[h], %[h], %[m], %[c]\n\t"
        "add %[h], %[h], %[x], asr #31\n\t"
        "asr %[h], %[h], %[e]\n\t"
        "ssat %[h], #8, %[h]"
        : [b] "=&r"(b), [m] "=&r"(m), [c] "=&r"(c), [e] "=&r"(e), [x] "=&r"(x), [h] "=&r"(h)
        : [self] "r"(this), [sum] "r"(sum)
        : "memory");
    return static_cast<int8_t>(h);
#endif
  }
};

// Four channels' sums through FastRequantizer (r[0..3]), packed into one word, byte k from
// channel k. On the core one block: the four requantizers addressed from one pointer (in C,
// GCC 12 keeps a pointer per channel and spills them) and no sign extension before packing.
inline uint32_t fast_requantize4(const FastRequantizer* r, uint32_t s0, uint32_t s1, uint32_t s2, uint32_t s3) {
#if defined(GRT_DSP_EMULATE)
  return bytes_of(r[0].apply(s0), r[1].apply(s1), r[2].apply(s2), r[3].apply(s3));
#else
  static_assert(sizeof(FastRequantizer) == 16, "the block below addresses requantizers 16 bytes apart");
#define GRT_FAST_REQUANTIZE(sum, at)                 \
  "ldrd %[b], %[m], [%[r], #" at "]\n\t"            \
  "ldrd %[c], %[e], [%[r], #" at " + 8]\n\t"        \
  "add %[" sum "], %[" sum "], %[b]\n\t"            \
  "lsl %[h], %[" sum "], #1\n\t"                    \
  "smmlar %[h], %[h], %[m], %[c]\n\t"               \
  "add %[h], %[h], %[" sum "], asr #31\n\t"         \
  "asr %[h], %[h], %[e]\n\t"                        \
  "ssat %[h], #8, %[h]\n\t"
  uint32_t b, m, c, e, h, word;
  __asm__(GRT_FAST_REQUANTIZE("s0", "0") "uxtb %[word], %[h]\n\t"
          GRT_FAST_REQUANTIZE("s1", "16") "bfi %[word], %[h], #8, #8\n\t"
          GRT_FAST_REQUANTIZE("s2", "32") "bfi %[word], %[h], #16, #8\n\t"
          GRT_FAST_REQUANTIZE("s3", "48") "orr %[word], %[word], %[h], lsl #24"
          : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [b] "=&r"(b), [m] "=&r"(m), [c] "=&r"(c),
            [e] "=&r"(e), [h] "=&r"(h), [word] "=&r"(word)
          : [r] "r"(r)
          : "memory");
#undef GRT_FAST_REQUANTIZE
  return word;
#endif
}

// What FastRequantizer asks of each channel (above: e >= 1, m >= 0, |bias| + taps * 255 *
// 128 < 2^30, |2^(e-1) + offset * 2^e| < 2^30), with the layer's part worked out once:
// every call of a kernel asks it of every channel, and a band plan calls each layer once per
// row (64-bit arithmetic per channel cost about 2.6 K instructions a call for KWS's 64
// channels on the M4). The constant is 2^(e-1) * (1 + 2 * offset): with v = |1 + 2 * offset|
// of L bits, v * 2^(e-1) < 2^30 exactly when e <= 31 - L, so the exponents that keep it
// inside 2^30 are 1 to `most_e` = 31 - L (none when L > 30).
struct FastRequantizeBounds {
  int32_t most_e = 0;      // 0: no exponent qualifies
  int32_t bias_limit = 0;  // |bias| < bias_limit; 0: no bias qualifies

  FastRequantizeBounds(const conv::Int8Arithmetic& a, size_t taps) {
    constexpr int64_t kLimit = int64_t{1} << 30;
    const int64_t products = static_cast<int64_t>(taps) * 255 * 128;
    if (taps < (size_t{1} << 24) && products < kLimit) bias_limit = static_cast<int32_t>(kLimit - products);
    const int64_t odd = 1 + 2 * static_cast<int64_t>(a.output_offset);
    const uint64_t v = static_cast<uint64_t>(odd < 0 ? -odd : odd);  // odd: never 0
    const int32_t bits = 64 - __builtin_clzll(v);
    most_e = bits > 30 ? 0 : 31 - bits;
  }
  // Whether channel c of `a` (whose clamp is the whole int8 range) meets the conditions.
  bool admits(const conv::Int8Arithmetic& a, int32_t c) const {
    const uint32_t shift = ~static_cast<uint32_t>(a.shifts[c]);
    const uint32_t bias = (a.bias != nullptr ? static_cast<uint32_t>(a.bias[c]) : 0u) + static_cast<uint32_t>(bias_limit - 1);
    return bias_limit > 0 && a.multipliers[c] >= 0 && shift < static_cast<uint32_t>(most_e) &&
           bias < static_cast<uint32_t>(2 * bias_limit - 1);
  }
};

// Whether FastRequantizer applies to every output channel of `a` (patches of `taps`). The
// channels' conditions as unsigned ranges, their worst cases gathered over all channels with
// no early exit (a branch per condition and channel cost more than the loads):
// ~shift = -shift - 1 in [0, most_e), bias + limit - 1 in [0, 2 * limit - 1), and every
// multiplier's sign bit clear.
inline bool fast_requantize_applies(const conv::Int8Arithmetic& a, int32_t channels, size_t taps) {
  if (!clamps_to_int8(a)) return false;
  const FastRequantizeBounds bounds(a, taps);
  if (bounds.bias_limit == 0) return channels <= 0;  // no bias fits
  const int32_t* const multipliers = a.multipliers;
  const int32_t* const shifts = a.shifts;
  const int32_t* const bias = a.bias;
  const uint32_t bias_base = static_cast<uint32_t>(bounds.bias_limit - 1);
  uint32_t signs = 0, worst_shift = 0, worst_bias = bias_base;  // no bias: 0 + limit - 1
  for (int32_t c = 0; c < channels; ++c) {
    signs |= static_cast<uint32_t>(multipliers[c]);
    const uint32_t shift = ~static_cast<uint32_t>(shifts[c]);
    worst_shift = shift > worst_shift ? shift : worst_shift;
    if (bias != nullptr) {
      const uint32_t b = static_cast<uint32_t>(bias[c]) + bias_base;
      worst_bias = b > worst_bias ? b : worst_bias;
    }
  }
  return channels <= 0 || ((signs >> 31) == 0 && worst_shift < static_cast<uint32_t>(bounds.most_e) &&
                           worst_bias < static_cast<uint32_t>(2 * bounds.bias_limit - 1));
}

// Whether every filter of `filters` (`taps` consecutive bytes each) that FastRequantizer
// cannot requantize has only zero weights. Such a pruned filter (65 % of VWW's pointwise
// filters) makes every sum 0, so its output is one value whatever the input
// (FastOutputStage::fill_table). Only failing channels are read, each up to its first
// nonzero word.
inline bool only_pruned_filters_fail(const conv::Int8Arithmetic& a, int32_t channels, size_t taps, const int8_t* filters) {
  if (!clamps_to_int8(a)) return false;
  const FastRequantizeBounds bounds(a, taps);
  for (int32_t c = 0; c < channels; ++c) {
    if (bounds.admits(a, c)) continue;
    const int8_t* w = filters + static_cast<size_t>(c) * taps;
    uint32_t any = 0;
    size_t i = 0;
    for (; i + 4 <= taps && any == 0; i += 4) any = load4(w + i);
    for (; i < taps && any == 0; ++i) any = static_cast<uint8_t>(w[i]);
    if (any != 0) return false;
  }
  return true;
}

// FastRequantizer's stage: it clamps and offsets the output itself. With `pruned_taps`
// (the patch size; 0: none), the channels FastRequantizer cannot take have pruned filters
// (only_pruned_filters_fail): their requantizer gives the exact output of a sum of 0
// whatever the sum. One word: the kernels keep copies of their stage.
struct FastOutputStage {
  using Requantizer = FastRequantizer;
  size_t pruned_taps;

  explicit FastOutputStage(const conv::Int8Arithmetic&, size_t pruned_patch_taps = 0) : pruned_taps(pruned_patch_taps) {}
  bool has_pruned_filters() const { return pruned_taps != 0; }
  // Channels [first, first + count) of `a` into `to`.
  void fill_table(const conv::Int8Arithmetic& a, int32_t first, int32_t count, FastRequantizer* to) const {
    if (pruned_taps != 0) {
      fill_pruned_layer_table(a, first, count, pruned_taps, to);
      return;
    }
    fill_requantizers(a, first, count, to);
  }
  // Out of line: the pruned channels' exact arithmetic would otherwise deepen the frame of
  // every kernel that fills a table.
  __attribute__((noinline)) static void fill_pruned_layer_table(const conv::Int8Arithmetic& a, int32_t first, int32_t count,
                                                                size_t taps, FastRequantizer* to) {
    const FastRequantizeBounds bounds(a, taps);
    for (int32_t i = 0; i < count; ++i) {
      const int32_t c = first + i;
      to[i] = bounds.admits(a, c)
                  ? FastRequantizer::of(a, c)
                  : FastRequantizer::constant_output(OutputStage(a)(ChannelRequantizer::of(a, c).apply(0)));
    }
  }
};

// The output step of one channel: exact with any parameters (ChannelRequantizer and the
// layer's clamp), or FastRequantizer where it applies (it holds the clamp).
template <class Stage>
inline int8_t finish(const ChannelRequantizer& r, uint32_t sum, const Stage& stage) {
  return stage(r.apply(sum));
}
template <class Stage>
inline int8_t finish(const FastRequantizer& r, uint32_t sum, const Stage&) {
  return r.apply(sum);
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_
