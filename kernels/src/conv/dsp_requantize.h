// Int8Arithmetic::finish (conv_arithmetic.h) for the DSP kernels: the same integers, with
// one 32x32->64 multiply and 32-bit steps after it. The argument checks prove every
// multiplier is in [0, INT32_MAX], so saturating_rounding_doubling_high_mul cannot saturate
// and its (p + nudge) / 2^31 truncated toward zero equals (p + 2^30) >> 31 for both signs of
// p (depthwise_requantize.h derives it), a value that fits int32.
#ifndef GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_
#define GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_

#include <stdint.h>

#include "../quant_math.h"
#include "conv_arithmetic.h"

namespace grt::kernels::dsp {

// Channel `c`'s output for a wrapping sum of products (bias not yet added).
inline int8_t requantize_channel(const conv::Int8Arithmetic& a, uint32_t sum, int32_t c) {
  if (a.bias != nullptr) sum += static_cast<uint32_t>(a.bias[c]);
  const int32_t shift = a.shifts[c];
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  const int32_t shifted = static_cast<int32_t>(sum << left);
  const int32_t high =
      static_cast<int32_t>((static_cast<int64_t>(shifted) * a.multipliers[c] + (int64_t{1} << 30)) >> 31);
  int32_t value = wrapping_add(rounding_divide_by_pot(high, right), a.output_offset);
  if (value < a.activation_min) value = a.activation_min;
  if (value > a.activation_max) value = a.activation_max;
  return static_cast<int8_t>(value);
}

}  // namespace grt::kernels::dsp

#endif  // GRAPHRT_KERNELS_CONV_DSP_REQUANTIZE_H_
