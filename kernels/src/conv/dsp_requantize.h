// Int8Arithmetic::finish (conv_arithmetic.h) for the DSP kernels: the same integers, with
// one 32x32->64 multiply (rounding_high_mul) and 32-bit steps after it. The argument checks prove every
// multiplier is in [0, INT32_MAX], so saturating_rounding_doubling_high_mul cannot saturate
// and its (p + nudge) / 2^31 truncated toward zero equals (p + 2^30) >> 31 for both signs of
// p (depthwise_requantize.h derives it), a value that fits int32.
#ifndef GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_
#define GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_

#include <stdint.h>

#include "../quant_math.h"
#include "conv_arithmetic.h"
#include "dsp_intrinsics.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// One output channel's bias and requantization, worked out once and applied to many sums.
struct ChannelRequantizer {
  uint32_t bias;
  int32_t multiplier;
  int32_t left;   // shift > 0 ? shift : 0
  int32_t right;  // shift > 0 ? 0 : -shift
  int32_t mask;   // 2^right - 1: rounding_divide_by_pot's remainder mask
  int32_t half;   // mask >> 1: its threshold for a non-negative value

  static ChannelRequantizer of(const conv::Int8Arithmetic& a, int32_t c) {
    const int32_t shift = a.shifts[c];
    const int32_t right = shift > 0 ? 0 : -shift;
    const int32_t mask = static_cast<int32_t>((uint32_t{1} << right) - 1u);
    return {a.bias != nullptr ? static_cast<uint32_t>(a.bias[c]) : 0u, a.multipliers[c], shift > 0 ? shift : 0,
            right, mask, mask >> 1};
  }
  // multiply_by_quantized_multiplier(sum + bias, multiplier, shift): rounding_divide_by_pot
  // with its mask and threshold precomputed.
  int32_t apply(uint32_t sum) const {
    const int32_t shifted = static_cast<int32_t>((sum + bias) << left);
    const int32_t high = rounding_high_mul(shifted, multiplier);
    const int32_t threshold = half + static_cast<int32_t>(static_cast<uint32_t>(high) >> 31);
    return (high >> right) + ((high & mask) > threshold ? 1 : 0);
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
