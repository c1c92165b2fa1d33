// conv2d_s8 on the DSP extension (dsp_intrinsics.h): the convolution as a matrix product.
// Each output pixel reads a patch of K = KH * KW * Cin activations, laid out like a filter:
// for a pointwise filter the input pixel itself, otherwise gathered into a stack buffer with
// the padding written as the input zero point (which the input offset turns into 0, so it
// adds nothing, as TFLM's skipped taps do). Two pixels' patches times two filters make four
// sums sharing every load: per four bytes of K, 4 loads, 8 sign extensions and 8 dual
// multiply-accumulates for 16 MACs. With the importer's folded bias the products are raw
// int8 ones (SXTB16); without it SXTAB16 adds the input offset, at the cost of a register.
// The sums wrap like the portable path's and are requantized exactly as it does
// (dsp_requantize.h).
#ifndef GRAPHRT_KERNELS_CONV_CONV2D_DSP_H_
#define GRAPHRT_KERNELS_CONV_CONV2D_DSP_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "conv_arithmetic.h"
#include "conv_geometry.h"
#include "dot_rows_dsp.h"
#include "dsp_intrinsics.h"
#include "dsp_requantize.h"
#include "expanded_dot_dsp.h"
#include "filter_chunk_dsp.h"
#include "gather_patch_dsp.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// Two gathered patches live on the stack: up to kMaxPatch bytes each in the kernel's own
// frame (every layer of KWS, person_detect, VWW), larger ones up to kMaxLargePatch (a 3x3
// filter over 64 channels: ResNet-8's) in a frame of their own, entered only for them, so
// images without such layers keep the smaller stack. Larger patches take the portable loops.
constexpr size_t kMaxPatch = 144;
constexpr size_t kMaxLargePatch = 576;

// Four activations as (b0, b2) and (b1, b3) halves, plus the input offset when kOffset.
template <bool kOffset>
inline void expand_activations(uint32_t v, uint32_t offset2, uint32_t& even, uint32_t& odd) {
  if (kOffset) {
    even = sxtab16(offset2, v);
    odd = sxtab16_ror8(offset2, v);
  } else {
    even = sxtb16(v);
    odd = sxtb16_ror8(v);
  }
}

// Sums over i < k of (x_p[i] + offset) * w_c[i] for the patches x_0 = x, x_1 = x + k and
// the filters w_0 = w, w_1 = w + k (one register reaches the second of each pair); the
// offset (in both halves of `offset2`, pair_of) only when kOffset, else raw products.
template <bool kOffset>
inline Sums2x2 dot_2x2(const int8_t* x, const int8_t* w, size_t k, uint32_t offset2) {
  uint32_t s00 = 0, s01 = 0, s10 = 0, s11 = 0;
  const int8_t* const words_end = x + (k & ~size_t{3});
#if !defined(GRT_DSP_EMULATE)
  if (!kOffset && x != words_end) {
    // The loop below for raw products, by hand: GCC 12 keeps its bound on the stack and
    // reloads it every step (25 instructions instead of 22). Fourteen registers: the two
    // pointers, k, the step count, four sums, six halves. Leaves x and w at words_end.
    uint32_t steps = static_cast<uint32_t>(k >> 2);
    uint32_t a, b, a_even, b_even, u, u_even;
    __asm__(
        "1:\n\t"
        "ldr %[b], [%[x], %[k]]\n\t"
        "ldr %[a], [%[x]], #4\n\t"
        "sxtb16 %[a_even], %[a]\n\t"
        "sxtb16 %[a], %[a], ror #8\n\t"
        "sxtb16 %[b_even], %[b]\n\t"
        "sxtb16 %[b], %[b], ror #8\n\t"
        "ldr %[u], [%[w], %[k]]\n\t"
        "sxtb16 %[u_even], %[u]\n\t"
        "sxtb16 %[u], %[u], ror #8\n\t"
        "smlad %[s01], %[a_even], %[u_even], %[s01]\n\t"
        "smlad %[s01], %[a], %[u], %[s01]\n\t"
        "smlad %[s11], %[b_even], %[u_even], %[s11]\n\t"
        "smlad %[s11], %[b], %[u], %[s11]\n\t"
        "ldr %[u], [%[w]], #4\n\t"
        "sxtb16 %[u_even], %[u]\n\t"
        "sxtb16 %[u], %[u], ror #8\n\t"
        "smlad %[s00], %[a_even], %[u_even], %[s00]\n\t"
        "smlad %[s00], %[a], %[u], %[s00]\n\t"
        "smlad %[s10], %[b_even], %[u_even], %[s10]\n\t"
        "smlad %[s10], %[b], %[u], %[s10]\n\t"
        "subs %[steps], %[steps], #1\n\t"
        "bne 1b"
        : [x] "+r"(x), [w] "+r"(w), [steps] "+r"(steps), [s00] "+r"(s00), [s01] "+r"(s01), [s10] "+r"(s10),
          [s11] "+r"(s11), [a] "=&r"(a), [b] "=&r"(b), [a_even] "=&r"(a_even), [b_even] "=&r"(b_even), [u] "=&r"(u),
          [u_even] "=&r"(u_even)
        : [k] "r"(k)
        : "cc", "memory");
  }
#endif
  for (; x != words_end; x += 4, w += 4) {
    uint32_t a_even, a_odd, b_even, b_odd;
    expand_activations<kOffset>(load4(x), offset2, a_even, a_odd);
    expand_activations<kOffset>(load4(x + k), offset2, b_even, b_odd);
    const uint32_t u = load4(w);
    const uint32_t u_even = sxtb16(u), u_odd = sxtb16_ror8(u);
    s00 = smlad(a_odd, u_odd, smlad(a_even, u_even, s00));
    s10 = smlad(b_odd, u_odd, smlad(b_even, u_even, s10));
    const uint32_t v = load4(w + k);
    const uint32_t v_even = sxtb16(v), v_odd = sxtb16_ror8(v);
    s01 = smlad(a_odd, v_odd, smlad(a_even, v_even, s01));
    s11 = smlad(b_odd, v_odd, smlad(b_even, v_even, s11));
  }
  const int32_t offset = kOffset ? lo16(offset2) : 0;
  for (size_t i = 0; i < (k & 3); ++i) {
    const int32_t a = x[i] + offset, b = x[k + i] + offset;
    s00 += static_cast<uint32_t>(a * w[i]);
    s01 += static_cast<uint32_t>(a * w[k + i]);
    s10 += static_cast<uint32_t>(b * w[i]);
    s11 += static_cast<uint32_t>(b * w[k + i]);
  }
  return {s00, s01, s10, s11};
}

// The filters `first` and first + 1 of the chunk times the patches x and x + k: output
// pixels out0 and out1 (the same pixel twice when out1 == out0). `expanded` (or null) holds
// expand_patches' words of x.
template <bool kOffset, class Stage>
__attribute__((always_inline)) inline void pair_times_patches(const int8_t* x, const int8_t* filter, size_t k, int32_t first,
                                                              const FilterChunk<typename Stage::Requantizer>& chunk,
                                                              uint32_t offset2, const Stage& stage, int8_t* out0,
                                                              int8_t* out1, const uint32_t* expanded) {
  const int8_t* w = filter + static_cast<size_t>(first) * k;
  const Sums2x2 s = expanded != nullptr ? dot_2x2_expanded(expanded, x, w, k, kOffset ? lo16(offset2) : 0)
                                        : dot_2x2<kOffset>(x, w, k, offset2);
  const auto& r0 = chunk.table[first - chunk.lo];
  const auto& r1 = chunk.table[first - chunk.lo + 1];
  // Each filter's two outputs, then their stores (a store may alias the table).
  const int8_t v00 = finish(r0, s.p0c0, stage), v10 = finish(r0, s.p1c0, stage);
  out0[first] = v00;
  out1[first] = v10;
  const int8_t v01 = finish(r1, s.p0c1, stage), v11 = finish(r1, s.p1c1, stage);
  out0[first + 1] = v01;
  out1[first + 1] = v11;
}

// Every pair of the chunk's filters times the patches x and x + k (pair_times_patches).
template <bool kOffset, class Stage>
__attribute__((always_inline)) inline void filters_times_patches(const int8_t* x, const int8_t* filter, size_t k,
                                                                 const FilterChunk<typename Stage::Requantizer>& chunk,
                                                                 uint32_t offset2, const Stage& output_stage, int8_t* out0,
                                                                 int8_t* out1, const uint32_t* expanded) {
  const Stage stage = output_stage;
  for (int32_t oc = chunk.lo; oc < chunk.end; oc += 2) {
    const int32_t first = oc + 1 < chunk.end ? oc : chunk.end - 2;
    pair_times_patches<kOffset, Stage>(x, filter, k, first, chunk, offset2, stage, out0, out1, expanded);
  }
}

// The listed pairs only (list_pairs), and the others' outputs.
template <bool kOffset, class Stage>
__attribute__((always_inline)) inline void listed_filters_times_patches(
    const int8_t* x, const int8_t* filter, size_t k, const FilterChunk<typename Stage::Requantizer>& chunk,
    const ChunkPairs& pairs, uint32_t offset2, const Stage& output_stage, int8_t* out0, int8_t* out1,
    const uint32_t* expanded) {
  const Stage stage = output_stage;
  for (int32_t i = 0; i < pairs.pair_count; ++i) {
    pair_times_patches<kOffset, Stage>(x, filter, k, chunk.lo + pairs.pairs[i], chunk, offset2, stage, out0, out1, expanded);
  }
  write_constant_outputs(pairs, chunk.lo, out0);
  write_constant_outputs(pairs, chunk.lo, out1);
}

// The chunk's listed pairs times the one patch x, and the others' outputs: output pixel
// `out`. For a lone last pixel, which a pair of patches would compute twice. `expanded` (or
// null: dot_rows_2 re-extends x for every pair) holds expand_patch's words of x.
template <bool kOffset, class Stage>
inline void filters_times_patch(const int8_t* x, const int8_t* filter, size_t k,
                                const FilterChunk<typename Stage::Requantizer>& chunk, const ChunkPairs& pairs,
                                uint32_t offset2, const Stage& output_stage, int8_t* out, const uint32_t* expanded) {
  const Stage stage = output_stage;
  for (int32_t i = 0; i < pairs.pair_count; ++i) {
    const int32_t first = chunk.lo + pairs.pairs[i];
    const int8_t* w = filter + static_cast<size_t>(first) * k;
    uint32_t s0, s1;
    if (expanded != nullptr) {
      const Sums1x2 s = dot_1x2_expanded(expanded, x, w, k, kOffset ? lo16(offset2) : 0);
      s0 = s.c0;
      s1 = s.c1;
    } else {
      dot_rows_2(x, w, k, k, offset2, &s0, &s1);
    }
    const int8_t v0 = finish(chunk.table[first - chunk.lo], s0, stage), v1 = finish(chunk.table[first - chunk.lo + 1], s1, stage);
    out[first] = v0;
    out[first + 1] = v1;
  }
  write_constant_outputs(pairs, chunk.lo, out);
}

// Two pixels' patches gathered side by side into `patches` (2 * k bytes), once for every
// chunk of filters, and sign-extended into `expanded` when it is not null. One copy, called
// with either buffer below.
template <bool kOffset, class Stage>
__attribute__((noinline)) void conv2d_gathered(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter,
                                               int8_t* output, const conv::Int8Arithmetic& a, const Stage& stage, size_t k,
                                               int8_t* patches, uint32_t* expanded) {
  const uint32_t offset2 = kOffset ? pair_of(a.input_offset) : 0u;
  const size_t pitch = static_cast<size_t>(g.output_c);
  const size_t pixels = static_cast<size_t>(g.batches) * g.output_h * g.output_w;
  FilterChunk<typename Stage::Requantizer> chunk;
  const int8_t pad = static_cast<int8_t>(-a.input_offset);  // the checks keep it in int8
  const bool one_chunk = g.output_c <= kConvChunk;  // then the table is made once
  if (one_chunk) fill_chunk(a, 0, g.output_c, stage, &chunk);
  PixelCursor at;
  for (size_t p = 0; p < pixels; p += 2) {
    const bool two = p + 1 < pixels;
    gather_patch(g, input, at, pad, patches);
    at.next(g);
    if (two) {
      gather_patch(g, input, at, pad, patches + k);
      at.next(g);
    } else {
      memcpy(patches + k, patches, k);  // a lone last pixel, computed twice
    }
    if (expanded != nullptr) expand_patches<kOffset>(patches, k, offset2, expanded);
    int8_t* out = output + p * pitch;
    for (int32_t first = 0; first < g.output_c; first += kConvChunk) {
      if (!one_chunk) fill_chunk(a, first, g.output_c, stage, &chunk);
      filters_times_patches<kOffset, Stage>(patches, filter, k, chunk, offset2, stage, out, two ? out + pitch : out,
                                            expanded);
    }
  }
}

// The two buffers, each in a frame of its own that only its patch sizes enter; the small
// patches are also expanded (expanded_dot_dsp.h) when they fit.
template <bool kOffset, class Stage>
__attribute__((noinline)) void conv2d_small_patches(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter,
                                                    int8_t* output, const conv::Int8Arithmetic& a, const Stage& stage,
                                                    size_t k) {
  int8_t patches[2 * kMaxPatch];
  uint32_t expanded[kExpandedWords];
  const bool expand = k >= 4 && k <= kMaxExpanded;
  conv2d_gathered<kOffset, Stage>(g, input, filter, output, a, stage, k, patches, expand ? expanded : nullptr);
}
template <bool kOffset, class Stage>
__attribute__((noinline)) void conv2d_large_patches(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter,
                                                    int8_t* output, const conv::Int8Arithmetic& a, const Stage& stage,
                                                    size_t k) {
  int8_t patches[2 * kMaxLargePatch];
  conv2d_gathered<kOffset, Stage>(g, input, filter, output, a, stage, k, patches, nullptr);
}

// A pointwise filter with stride 1 over the whole image reads its patches in place
// (consecutive pixels are k = Cin apart; an odd last pixel goes alone: a one-row band of
// five pixels would otherwise compute six), chunk by chunk of filters over the image;
// patches of 4 to kMaxExpanded bytes are sign-extended once per chunk and pixel pair, or
// lone pixel (expanded_dot_dsp.h).
template <bool kOffset, class Stage>
__attribute__((noinline)) void conv2d_in_place(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter,
                                               int8_t* output, const conv::Int8Arithmetic& a, const Stage& stage, size_t k) {
  const uint32_t offset2 = kOffset ? pair_of(a.input_offset) : 0u;
  const size_t pitch = static_cast<size_t>(g.output_c);
  const size_t pixels = static_cast<size_t>(g.batches) * g.output_h * g.output_w;
  FilterChunk<typename Stage::Requantizer> chunk;
  ChunkPairs pairs;
  uint32_t expanded[kExpandedWords];
  const bool expand = k >= 4 && k <= kMaxExpanded;
  for (int32_t first = 0; first < g.output_c; first += kConvChunk) {
    fill_chunk(a, first, g.output_c, stage, &chunk);
    list_pairs(stage, chunk, &pairs);
    const bool any_sums = pairs.pair_count != 0;
    for (size_t p = 0; p + 1 < pixels; p += 2) {
      int8_t* out = output + p * pitch;
      const int8_t* x = input + p * k;
      if (expand && any_sums) expand_patches<kOffset>(x, k, offset2, expanded);
      listed_filters_times_patches<kOffset, Stage>(x, filter, k, chunk, pairs, offset2, stage, out, out + pitch,
                                                   expand ? expanded : nullptr);
    }
    if (pixels % 2 != 0) {
      const int8_t* x = input + (pixels - 1) * k;
      if (expand && any_sums) expand_patch<kOffset>(x, k, offset2, expanded);
      filters_times_patch<kOffset, Stage>(x, filter, k, chunk, pairs, offset2, stage, output + (pixels - 1) * pitch,
                                          expand ? expanded : nullptr);
    }
  }
}

// The output pixels two at a time, the filters in chunks: in place, or gathered.
template <bool kOffset, class Stage>
inline void conv2d_pixel_pairs(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter, int8_t* output,
                               const conv::Int8Arithmetic& a, const Stage& stage, bool in_place, size_t k) {
  if (in_place) {
    conv2d_in_place<kOffset, Stage>(g, input, filter, output, a, stage, k);
  } else if (k <= kMaxPatch) {
    conv2d_small_patches<kOffset, Stage>(g, input, filter, output, a, stage, k);
  } else {
    conv2d_large_patches<kOffset, Stage>(g, input, filter, output, a, stage, k);
  }
}

// conv2d_s8 with one group and at least two filters; false (nothing written) otherwise, or
// when a patch that must be gathered is too large (above). `folded_bias` (may be
// null: the importer's argument 16) holds bias + input_offset * sum of each filter, so the
// products are raw int8 ones and the patches' padding (the input zero point) still adds
// nothing.
__attribute__((always_inline)) inline bool conv2d_s8(const conv::ConvGeometry& g, const int8_t* input, const int8_t* filter,
                                                     int8_t* output, const conv::Int8Arithmetic& a, const int32_t* folded_bias) {
  if (g.filter_c != g.input_c || g.output_c < 2) return false;
  const size_t k = static_cast<size_t>(g.filter_h) * g.filter_w * g.input_c;
  const size_t pixels = static_cast<size_t>(g.batches) * g.output_h * g.output_w;
  const bool in_place = conv::is_pointwise(g) && g.stride_h == 1 && g.stride_w == 1 && g.output_h == g.input_h &&
                        g.output_w == g.input_w && pixels >= 2;
  // A pointwise filter not read in place (strided, or one pixel: person_detect's last
  // layer) gathers what the portable loops read in place: worth it only for small patches.
  const size_t max_patch = conv::is_pointwise(g) ? kMaxPatch : kMaxLargePatch;
  if (!in_place && k > max_patch) return false;
  if (folded_bias != nullptr) {
    conv::Int8Arithmetic folded = a;
    folded.bias = folded_bias;
    if (fast_requantize_applies(folded, g.output_c, k)) {
      conv2d_pixel_pairs<false>(g, input, filter, output, folded, FastOutputStage(folded), in_place, k);
    } else if (only_pruned_filters_fail(folded, g.output_c, k, filter)) {
      conv2d_pixel_pairs<false>(g, input, filter, output, folded, FastOutputStage(folded, k), in_place, k);
    } else {
      conv2d_pixel_pairs<false>(g, input, filter, output, folded, OutputStage(folded), in_place, k);
    }
  } else {
    conv2d_pixel_pairs<true>(g, input, filter, output, a, OutputStage(a), in_place, k);
  }
  return true;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_CONV2D_DSP_H_
