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

// One output channel's bias and requantization, loaded once and applied to several sums.
struct ChannelRequantizer {
  uint32_t bias;
  int32_t multiplier;
  int32_t left;   // shift > 0 ? shift : 0
  int32_t right;  // shift > 0 ? 0 : -shift

  static ChannelRequantizer of(const conv::Int8Arithmetic& a, int32_t c) {
    const int32_t shift = a.shifts[c];
    return {a.bias != nullptr ? static_cast<uint32_t>(a.bias[c]) : 0u, a.multipliers[c], shift > 0 ? shift : 0,
            shift > 0 ? 0 : -shift};
  }
  // multiply_by_quantized_multiplier(sum + bias, multiplier, shift).
  int32_t apply(uint32_t sum) const {
    const int32_t shifted = static_cast<int32_t>((sum + bias) << left);
    return rounding_divide_by_pot(rounding_high_mul(shifted, multiplier), right);
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

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_
