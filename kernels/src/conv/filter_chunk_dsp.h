// The convolution's filters in chunks (conv2d_dsp.h): each chunk's requantizers worked out
// once into a stack table, and for the pointwise loop the pairs of filters that need sums,
// pruned filters' pairs skipped with their outputs written instead (their sums are all 0).
#ifndef GRAPHRT_KERNELS_CONV_FILTER_CHUNK_DSP_H_
#define GRAPHRT_KERNELS_CONV_FILTER_CHUNK_DSP_H_

#include <stdint.h>

#include "conv_arithmetic.h"
#include "dsp_requantize.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// Filters per pass over the image: their requantizers sit in a stack table.
constexpr int32_t kConvChunk = 16;

// One chunk of filters [lo, end) (at least two) and their requantizers. Filters go in
// pairs; an odd count's last pair overlaps the one before it, whose outputs are written
// again (the same bytes).
template <class Requantizer>
struct FilterChunk {
  Requantizer table[kConvChunk];
  int32_t lo = 0, end = 0;
};

// For the pointwise loop, a chunk's pairs worth computing, by their first filter (from lo),
// and the outputs of the others (list_pairs). Apart from FilterChunk: the gathered loops,
// deeper in the stack, keep only the chunk.
struct ChunkPairs {
  int32_t pair_count = 0, constant_count = 0;
  uint8_t pairs[kConvChunk / 2];
  uint8_t constant_filters[kConvChunk];  // from lo
  int8_t constant_outputs[kConvChunk];
};

// The chunk of filters starting at `first` (a lone last filter pairs with the one before
// it) and its requantizers.
template <class Stage>
inline void fill_chunk(const conv::Int8Arithmetic& a, int32_t first, int32_t output_c, const Stage& stage,
                       FilterChunk<typename Stage::Requantizer>* chunk) {
  chunk->end = output_c - first < kConvChunk ? output_c : first + kConvChunk;
  chunk->lo = chunk->end - first == 1 ? first - 1 : first;
  stage.fill_table(a, chunk->lo, chunk->end - chunk->lo, chunk->table);
}

// The chunk's pairs that need sums, and the outputs of those that do not: both requantizers
// of multiplier 0, which give one output whatever the sum (pruned filters get such
// requantizers: FastOutputStage). Without pruned filters, every pair, in order.
template <class Stage>
inline void list_pairs(const Stage& stage, const FilterChunk<typename Stage::Requantizer>& chunk, ChunkPairs* to) {
  const int32_t count = chunk.end - chunk.lo;
  to->pair_count = to->constant_count = 0;
  const bool skips = stage.has_pruned_filters();
  for (int32_t i = 0; i < count; i += 2) {
    const int32_t first = i + 1 < count ? i : count - 2;
    if (!skips || (chunk.table[first].multiplier | chunk.table[first + 1].multiplier) != 0) {
      to->pairs[to->pair_count++] = static_cast<uint8_t>(first);
      continue;
    }
    for (int32_t f = first; f < first + 2; ++f) {
      to->constant_filters[to->constant_count] = static_cast<uint8_t>(f);
      to->constant_outputs[to->constant_count++] = finish(chunk.table[f], 0u, stage);
    }
  }
}

// The outputs of a chunk's pairs that need no sums, for one pixel (filters from `lo`).
inline void write_constant_outputs(const ChunkPairs& pairs, int32_t lo, int8_t* out) {
  for (int32_t i = 0; i < pairs.constant_count; ++i) out[lo + pairs.constant_filters[i]] = pairs.constant_outputs[i];
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_CONV_FILTER_CHUNK_DSP_H_
