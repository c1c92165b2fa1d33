// fully_connected_s8 on the Cortex-M DSP extension (../conv/dsp_intrinsics.h): four weight
// rows at a time (then two, then one) share each load of four activations, expanded once
// into even and odd pairs with the input offset added (SXTAB16), each row's four weights
// sign-extended (SXTB16) and summed with two dual multiply-accumulates: 15 loads and
// extensions and 8 multiply-accumulate instructions per 16 MACs. The filter offset's share, filter_offset * sum(x + input
// offset), is added per row as the portable kernel does; the sums wrap as it does and the
// bias, requantization (any multiplier sign) and clamp are its own. Activation vectors up
// to kMaxExpandedDepth are expanded once per vector, not once per four rows.
#ifndef GRAPHRT_KERNELS_DENSE_FULLY_CONNECTED_DSP_H_
#define GRAPHRT_KERNELS_DENSE_FULLY_CONNECTED_DSP_H_

#include <stddef.h>
#include <stdint.h>

#include "../conv/dot_rows_dsp.h"
#include "../conv/dsp_intrinsics.h"
#include "../quant_math.h"
#include "dense_args.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// What fully_connected_s8 reads from its arguments.
struct FullyConnectedS8 {
  const int8_t* input;    // [batches, depth]
  const int8_t* weights;  // [units, depth]
  dense::UnitScales scales;
  const int32_t* bias;  // [units] or null
  int32_t batches, units, depth;
  int32_t input_offset, filter_offset, output_offset, activation_min, activation_max;
};

#if !defined(GRT_DSP_EMULATE)
// One word of activations (x_even, x_odd: four values as two halfword pairs) against four
// rows' weights, the body both loops below share: rows 1 and 0 through w (row 1 a step on),
// rows 3 and 2 through w2, both pointers four bytes on.
#define GRT_FC_FOUR_ROWS_OF_ONE_WORD                 \
  "ldr %[u], [%[w], %[step]]\n\t"                   \
  "sxtb16 %[u_even], %[u]\n\t"                      \
  "sxtb16 %[u], %[u], ror #8\n\t"                   \
  "smlad %[a1], %[x_even], %[u_even], %[a1]\n\t"    \
  "smlad %[a1], %[x_odd], %[u], %[a1]\n\t"          \
  "ldr %[u], [%[w]], #4\n\t"                        \
  "sxtb16 %[u_even], %[u]\n\t"                      \
  "sxtb16 %[u], %[u], ror #8\n\t"                   \
  "smlad %[a0], %[x_even], %[u_even], %[a0]\n\t"    \
  "smlad %[a0], %[x_odd], %[u], %[a0]\n\t"          \
  "ldr %[u], [%[w2], %[step]]\n\t"                  \
  "sxtb16 %[u_even], %[u]\n\t"                      \
  "sxtb16 %[u], %[u], ror #8\n\t"                   \
  "smlad %[a3], %[x_even], %[u_even], %[a3]\n\t"    \
  "smlad %[a3], %[x_odd], %[u], %[a3]\n\t"          \
  "ldr %[u], [%[w2]], #4\n\t"                       \
  "sxtb16 %[u_even], %[u]\n\t"                      \
  "sxtb16 %[u], %[u], ror #8\n\t"                   \
  "smlad %[a2], %[x_even], %[u_even], %[a2]\n\t"    \
  "smlad %[a2], %[x_odd], %[u], %[a2]\n\t"
#endif

// The same for four rows w + j * step (j < 4): one activation load and its two extensions
// serve four rows, 23 instructions per 16 MACs.
inline void dot_rows_4(const int8_t* x, const int8_t* w, size_t depth, size_t step, uint32_t offset2, uint32_t* sums) {
  uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const int8_t* const words_end = x + (depth & ~size_t{3});
  const size_t step2 = 2 * step, step3 = 3 * step;
#if !defined(GRT_DSP_EMULATE)
  if (x != words_end) {
    // The loop below by hand: GCC 12 keeps the steps and the bound on the stack (30
    // instructions instead of 25). Fourteen registers: the activations, two row pointers
    // (rows 0 and 2, each with its next row a step on), the step, the bound, the offset,
    // four sums, four halves. Leaves x at words_end and w four bytes per word on.
    const int8_t* w2 = w + step2;
    uint32_t x_even, x_odd, u, u_even;
    __asm__(
        "1:\n\t"
        "ldr %[x_odd], [%[x]], #4\n\t"
        "sxtab16 %[x_even], %[offset2], %[x_odd]\n\t"
        "sxtab16 %[x_odd], %[offset2], %[x_odd], ror #8\n\t"
        GRT_FC_FOUR_ROWS_OF_ONE_WORD
        "cmp %[x], %[end]\n\t"
        "bne 1b"
        : [x] "+r"(x), [w] "+r"(w), [w2] "+r"(w2), [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3),
          [x_even] "=&r"(x_even), [x_odd] "=&r"(x_odd), [u] "=&r"(u), [u_even] "=&r"(u_even)
        : [step] "r"(step), [end] "r"(words_end), [offset2] "r"(offset2)
        : "cc", "memory");
  }
#endif
  for (; x != words_end; x += 4, w += 4) {
    const uint32_t v = load4(x);
    const uint32_t x_even = sxtab16(offset2, v), x_odd = sxtab16_ror8(offset2, v);
    uint32_t u = load4(w);
    a0 = smlad(x_odd, sxtb16_ror8(u), smlad(x_even, sxtb16(u), a0));
    u = load4(w + step);
    a1 = smlad(x_odd, sxtb16_ror8(u), smlad(x_even, sxtb16(u), a1));
    u = load4(w + step2);
    a2 = smlad(x_odd, sxtb16_ror8(u), smlad(x_even, sxtb16(u), a2));
    u = load4(w + step3);
    a3 = smlad(x_odd, sxtb16_ror8(u), smlad(x_even, sxtb16(u), a3));
  }
  const int32_t offset = lo16(offset2);
  for (size_t i = 0; i < (depth & 3); ++i) {
    const int32_t xi = x[i] + offset;
    a0 += static_cast<uint32_t>(xi * w[i]);
    a1 += static_cast<uint32_t>(xi * w[step + i]);
    a2 += static_cast<uint32_t>(xi * w[step2 + i]);
    a3 += static_cast<uint32_t>(xi * w[step3 + i]);
  }
  sums[0] = a0;
  sums[1] = a1;
  sums[2] = a2;
  sums[3] = a3;
}

// Activation vectors of up to this depth (and from kMinExpandedDepth, below) are expanded
// once (expand_activations) into a 1,280-byte stack buffer that every group of four rows
// reads: AD's 640-wide layers.
constexpr size_t kMaxExpandedDepth = 640;

// The whole words of x as (even, odd) halves with the input offset added, two words per
// four activations.
inline void expand_activations(const int8_t* x, size_t depth, uint32_t offset2, uint32_t* to) {
  const int8_t* const words_end = x + (depth & ~size_t{3});
  for (; x != words_end; x += 4, to += 2) {
    const uint32_t v = load4(x);
    to[0] = sxtab16(offset2, v);
    to[1] = sxtab16_ror8(offset2, v);
  }
}

// dot_rows_4 over expand_activations' words `e` (x for the leftover bytes): one LDRD
// instead of a load and two extensions, 23 instructions per 16 MACs.
inline void dot_rows_4_expanded(const uint32_t* e, const int8_t* x, const int8_t* w, size_t depth, size_t step,
                                int32_t offset, uint32_t* sums) {
  uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const size_t words = depth >> 2;
  const uint32_t* const e_end = e + 2 * words;
  const size_t step2 = 2 * step, step3 = 3 * step;
#if !defined(GRT_DSP_EMULATE)
  if (e != e_end) {
    // As dot_rows_4's loop, thirteen registers. Leaves w four bytes per word on.
    const int8_t* w2 = w + step2;
    uint32_t x_even, x_odd, u, u_even;
    __asm__(
        "1:\n\t"
        "ldrd %[x_even], %[x_odd], [%[e]], #8\n\t"
        GRT_FC_FOUR_ROWS_OF_ONE_WORD
        "cmp %[e], %[end]\n\t"
        "bne 1b"
        : [e] "+r"(e), [w] "+r"(w), [w2] "+r"(w2), [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3),
          [x_even] "=&r"(x_even), [x_odd] "=&r"(x_odd), [u] "=&r"(u), [u_even] "=&r"(u_even)
        : [step] "r"(step), [end] "r"(e_end)
        : "cc", "memory");
  }
#else
  for (; e != e_end; e += 2, w += 4) {
    uint32_t u = load4(w);
    a0 = smlad(e[1], sxtb16_ror8(u), smlad(e[0], sxtb16(u), a0));
    u = load4(w + step);
    a1 = smlad(e[1], sxtb16_ror8(u), smlad(e[0], sxtb16(u), a1));
    u = load4(w + step2);
    a2 = smlad(e[1], sxtb16_ror8(u), smlad(e[0], sxtb16(u), a2));
    u = load4(w + step3);
    a3 = smlad(e[1], sxtb16_ror8(u), smlad(e[0], sxtb16(u), a3));
  }
#endif
  x += words << 2;
  for (size_t i = 0; i < (depth & 3); ++i) {
    const int32_t xi = x[i] + offset;
    a0 += static_cast<uint32_t>(xi * w[i]);
    a1 += static_cast<uint32_t>(xi * w[step + i]);
    a2 += static_cast<uint32_t>(xi * w[step2 + i]);
    a3 += static_cast<uint32_t>(xi * w[step3 + i]);
  }
  sums[0] = a0;
  sums[1] = a1;
  sums[2] = a2;
  sums[3] = a3;
}

inline int8_t fully_connected_output(const FullyConnectedS8& p, int32_t unit, uint32_t sum) {
  return dense::fully_connected_unit_s8(sum, p.bias, unit, p.scales.multiplier(unit), p.scales.shift(unit), p.output_offset,
                                        p.activation_min, p.activation_max);
}

// Every batch's units, from activations expanded into `expanded` when it is not null.
__attribute__((noinline)) inline void fully_connected_rows(const FullyConnectedS8& p, int8_t* output,
                                                           uint32_t* expanded) {
  const size_t depth = static_cast<size_t>(p.depth);
  const uint32_t offset2 = pair_of(p.input_offset);
  const bool expand = expanded != nullptr;
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
    if (expand) expand_activations(x, depth, offset2, expanded);
    for (; u + 4 <= p.units; u += 4) {
      uint32_t s[4];
      const int8_t* w = p.weights + static_cast<size_t>(u) * depth;
      if (expand) {
        dot_rows_4_expanded(expanded, x, w, depth, depth, p.input_offset, s);
      } else {
        dot_rows_4(x, w, depth, depth, offset2, s);
      }
      for (int32_t j = 0; j < 4; ++j) output[u + j] = fully_connected_output(p, u + j, s[j] + offset_part);
    }
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

// The expansion's buffer in a frame of its own, entered only by layers deep and wide enough
// to repay it (AD's: at least 128 deep, 8 units), so that small models keep a shallow stack.
constexpr int32_t kMinExpandedDepth = 128;
__attribute__((noinline)) inline void fully_connected_expanded(const FullyConnectedS8& p, int8_t* output) {
  uint32_t expanded[kMaxExpandedDepth / 2];
  fully_connected_rows(p, output, expanded);
}

inline void fully_connected_s8(const FullyConnectedS8& p, int8_t* output) {
  if (p.depth >= kMinExpandedDepth && p.depth <= static_cast<int32_t>(kMaxExpandedDepth) && p.units >= 8) {
    fully_connected_expanded(p, output);
  } else {
    fully_connected_rows(p, output, nullptr);
  }
}

// fully_connected_sum_s8's part (fully_connected_parts.cpp): `length` input elements x
// against every unit's row of w from the same column on (rows `depth` apart), four rows and
// then two at a time as above, added to `sums` (or replacing them). The sums wrap as the
// portable part's do, so the parts of a band plan still give the whole layer's bytes.
inline void fully_connected_sums(const int8_t* x, const int8_t* w, size_t depth, int32_t units, size_t length,
                                 int32_t input_offset, int32_t filter_offset, bool accumulate, uint32_t* sums) {
  uint32_t offset_part = 0;
  if (filter_offset != 0) {
    uint32_t row_sum = 0;
    for (size_t k = 0; k < length; ++k) row_sum += static_cast<uint32_t>(x[k] + input_offset);
    offset_part = static_cast<uint32_t>(filter_offset) * row_sum;
  }
  const uint32_t offset2 = pair_of(input_offset);
  const auto add = [&](int32_t u, uint32_t part) { sums[u] = (accumulate ? sums[u] : 0u) + part + offset_part; };
  int32_t u = 0;
  for (; u + 4 <= units; u += 4) {
    uint32_t s[4];
    dot_rows_4(x, w + static_cast<size_t>(u) * depth, length, depth, offset2, s);
    for (int32_t j = 0; j < 4; ++j) add(u + j, s[j]);
  }
  for (; u + 2 <= units; u += 2) {
    uint32_t s0, s1;
    dot_rows_2(x, w + static_cast<size_t>(u) * depth, length, depth, offset2, &s0, &s1);
    add(u, s0);
    add(u + 1, s1);
  }
  if (u < units) {  // an odd last row: computed twice
    uint32_t s0, s1;
    dot_rows_2(x, w + static_cast<size_t>(u) * depth, length, 0, offset2, &s0, &s1);
    add(u, s0);
  }
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#undef GRT_FC_FOUR_ROWS_OF_ONE_WORD

#endif  // GRAPHRT_KERNELS_DENSE_FULLY_CONNECTED_DSP_H_
