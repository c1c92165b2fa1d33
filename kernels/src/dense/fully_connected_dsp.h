// fully_connected_s8 on the Cortex-M DSP extension (../conv/dsp_intrinsics.h): two weight
// rows at a time share each load of four activations, expanded once into even and odd
// pairs with the input offset added (SXTAB16), each row's four weights sign-extended
// (SXTB16) and summed with two dual multiply-accumulates: 5 loads and extensions and 4
// MACs instructions per 8 MACs. The filter offset's share, filter_offset * sum(x + input
// offset), is added per row as the portable kernel does; the sums wrap as it does and the
// bias, requantization (any multiplier sign) and clamp are its own.
#ifndef GRAPHRT_KERNELS_DENSE_FULLY_CONNECTED_DSP_H_
#define GRAPHRT_KERNELS_DENSE_FULLY_CONNECTED_DSP_H_

#include <stddef.h>
#include <stdint.h>

#include "../conv/dsp_intrinsics.h"
#include "../quant_math.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// What fully_connected_s8 reads from its arguments.
struct FullyConnectedS8 {
  const int8_t* input;    // [batches, depth]
  const int8_t* weights;  // [units, depth]
  const int32_t* bias;    // [units] or null
  const int32_t* multipliers;
  const int32_t* shifts;
  bool per_channel;  // else one multiplier and shift for every unit
  int32_t batches, units, depth;
  int32_t input_offset, filter_offset, output_offset, activation_min, activation_max;
};

// sum over k < depth of (x[k] + offset) * w_j[k] for the rows w_0 = w and w_1 = w + step
// (step 0: the same row twice).
inline void dot_rows_2(const int8_t* x, const int8_t* w, size_t depth, size_t step, uint32_t offset2, uint32_t* s0,
                       uint32_t* s1) {
  uint32_t a0 = 0, a1 = 0;
  const int8_t* const words_end = x + (depth & ~size_t{3});
  for (; x != words_end; x += 4, w += 4) {
    const uint32_t v = load4(x);
    const uint32_t x_even = sxtab16(offset2, v), x_odd = sxtab16_ror8(offset2, v);
    const uint32_t u = load4(w);
    a0 = smlad(x_odd, sxtb16_ror8(u), smlad(x_even, sxtb16(u), a0));
    const uint32_t t = load4(w + step);
    a1 = smlad(x_odd, sxtb16_ror8(t), smlad(x_even, sxtb16(t), a1));
  }
  const int32_t offset = lo16(offset2);
  for (size_t i = 0; i < (depth & 3); ++i) {
    a0 += static_cast<uint32_t>((x[i] + offset) * w[i]);
    a1 += static_cast<uint32_t>((x[i] + offset) * w[step + i]);
  }
  *s0 = a0;
  *s1 = a1;
}

inline int8_t fully_connected_output(const FullyConnectedS8& p, int32_t unit, uint32_t sum) {
  if (p.bias != nullptr) sum += static_cast<uint32_t>(p.bias[unit]);
  const int32_t channel = p.per_channel ? unit : 0;
  int32_t value = multiply_by_quantized_multiplier(static_cast<int32_t>(sum), p.multipliers[channel], p.shifts[channel]);
  value = wrapping_add(value, p.output_offset);
  if (value < p.activation_min) value = p.activation_min;
  if (value > p.activation_max) value = p.activation_max;
  return static_cast<int8_t>(value);
}

inline void fully_connected_s8(const FullyConnectedS8& p, int8_t* output) {
  const size_t depth = static_cast<size_t>(p.depth);
  const uint32_t offset2 = pair_of(p.input_offset);
  for (int32_t b = 0; b < p.batches; ++b, output += p.units) {
    const int8_t* x = p.input + static_cast<size_t>(b) * depth;
    // filter_offset * sum(x + input_offset): every unit's share of the filter offset.
    uint32_t offset_part = 0;
    if (p.filter_offset != 0) {
      uint32_t row_sum = 0;
      for (size_t k = 0; k < depth; ++k) row_sum += static_cast<uint32_t>(x[k] + p.input_offset);
      offset_part = static_cast<uint32_t>(p.filter_offset) * row_sum;
    }
    int32_t u = 0;
    for (; u + 2 <= p.units; u += 2) {
      uint32_t s0, s1;
      dot_rows_2(x, p.weights + static_cast<size_t>(u) * depth, depth, depth, offset2, &s0, &s1);
      output[u] = fully_connected_output(p, u, s0 + offset_part);
      output[u + 1] = fully_connected_output(p, u + 1, s1 + offset_part);
    }
    if (u < p.units) {  // an odd last row: computed twice
      uint32_t s0, s1;
      dot_rows_2(x, p.weights + static_cast<size_t>(u) * depth, depth, 0, offset2, &s0, &s1);
      output[u] = fully_connected_output(p, u, s0 + offset_part);
    }
  }
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_DENSE_FULLY_CONNECTED_DSP_H_
