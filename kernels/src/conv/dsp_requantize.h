// Int8Arithmetic::finish (conv_arithmetic.h) for the DSP kernels: the same integers, with
// one 32x32->64 multiply-accumulate and a shift (ChannelRequantizer below). The argument
// checks prove every multiplier is in [0, INT32_MAX], so saturating_rounding_doubling_high_mul
// cannot saturate and its (p + nudge) / 2^31 truncated toward zero equals (p + 2^30) >> 31
// for both signs of p (depthwise_requantize.h derives it), a value that fits int32.
#ifndef GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_
#define GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_

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

// The output zero point and activation clamp, copied out of the arithmetic once.
struct OutputStage {
  int32_t offset, min, max;

  explicit OutputStage(const conv::Int8Arithmetic& a)
      : offset(a.output_offset), min(a.activation_min), max(a.activation_max) {}
  int8_t operator()(int32_t value) const {
    value = wrapping_add(value, offset);
    if (value < min) value = min;
    if (value > max) value = max;
    return static_cast<int8_t>(value);
  }
};

// The same when the clamp is the whole int8 range (every layer of the MLPerf Tiny models
// and person_detect): one saturating instruction.
struct FullRangeOutputStage {
  int32_t offset;

  explicit FullRangeOutputStage(const conv::Int8Arithmetic& a) : offset(a.output_offset) {}
  int8_t operator()(int32_t value) const { return static_cast<int8_t>(ssat8(wrapping_add(value, offset))); }
};

inline bool clamps_to_int8(const conv::Int8Arithmetic& a) {
  return a.activation_min == INT8_MIN && a.activation_max == INT8_MAX;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_
