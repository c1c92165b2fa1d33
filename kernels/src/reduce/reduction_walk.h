// The walk every reduction kernel (MEAN, SUM, REDUCE_MAX/MIN, ARG_MAX/MIN) takes through its
// input, precomputed by the importer as two IntArrays of (extent, input stride) pairs:
//   kept     the output's dimensions, row-major: output element n is the n-th kept position
//   reduced  the dimensions folded into each output element, row-major
// Adjacent dimensions of the same kind are merged and size-1 dimensions dropped by the
// importer, so both walks are short. Visiting the reduced positions in row-major order is
// the order TFLM's reference accumulates in, which float sums depend on.
#ifndef GRAPHRT_KERNELS_REDUCE_REDUCTION_WALK_H_
#define GRAPHRT_KERNELS_REDUCE_REDUCTION_WALK_H_

#include <stdint.h>

#include "../kernel_args.h"

namespace grt::kernels::reduce {

// The loader accepts tensors of up to 8 dimensions, so no walk is longer.
constexpr int kMaxWalkRank = 8;

struct Walk {
  int rank = 0;
  int64_t extent[kMaxWalkRank] = {};
  int64_t stride[kMaxWalkRank] = {};
};

// An IntArray of (extent, stride) pairs; its check (check_walk) already ran.
inline Walk read_walk(const DLTensor* pairs) {
  Walk w;
  const int32_t* v = data_of<const int32_t>(pairs);
  w.rank = static_cast<int>(element_count(pairs) / 2);
  for (int d = 0; d < w.rank; ++d) {
    w.extent[d] = v[2 * d];
    w.stride[d] = v[2 * d + 1];
  }
  return w;
}

// How many positions the walk visits (1 for an empty walk: a single position). Capped just
// above INT32_MAX, so checks of arbitrary walks cannot overflow.
inline int64_t walk_positions(const Walk& w) {
  constexpr int64_t kCap = int64_t{INT32_MAX} + 1;
  int64_t n = 1;
  for (int d = 0; d < w.rank; ++d) {
    n *= w.extent[d];
    if (n > kCap) n = kCap;
  }
  return n;
}

// The largest offset the walk reaches (0 when it visits one position), capped as above.
inline int64_t walk_reach(const Walk& w) {
  constexpr int64_t kCap = int64_t{INT32_MAX} + 1;
  int64_t reach = 0;
  for (int d = 0; d < w.rank; ++d) {
    if (w.extent[d] > 0) reach += (w.extent[d] - 1) * w.stride[d];
    if (reach > kCap) reach = kCap;
  }
  return reach;
}

// Calls visit(offset) for every position of the walk in row-major order, offsets relative
// to base.
template <typename Visit>
inline void walk_offsets(const Walk& w, int64_t base, Visit&& visit) {
  if (w.rank == 0) {
    visit(base);
    return;
  }
  for (int d = 0; d < w.rank; ++d) {
    if (w.extent[d] == 0) return;
  }
  const int last = w.rank - 1;
  const int64_t inner_extent = w.extent[last];
  const int64_t inner_stride = w.stride[last];
  int64_t index[kMaxWalkRank] = {};
  for (;;) {
    int64_t row = base;
    for (int d = 0; d < last; ++d) row += index[d] * w.stride[d];
    for (int64_t i = 0; i < inner_extent; ++i) visit(row + i * inner_stride);
    int d = last - 1;
    for (; d >= 0; --d) {
      if (++index[d] < w.extent[d]) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

// Checks a walk argument: an int32 IntArray of (extent >= 0, stride >= 0) pairs, at most
// kMaxWalkRank of them.
inline void check_walk(ArgCheck& check, TVMValue* args, int i) {
  check.tensor(i, ElementType::kInt32, 1);
  if (!check.ok()) return;
  const DLTensor* pairs = tensor_at(args, i);
  const int64_t n = element_count(pairs);
  check.expect(n % 2 == 0 && n / 2 <= kMaxWalkRank, "a walk must hold at most 8 (extent, stride) pairs");
  if (!check.ok()) return;
  check.expect(n == 0 || pairs->data != nullptr, "a walk must be a constant");
  if (!check.ok()) return;
  const int32_t* v = data_of<const int32_t>(pairs);
  for (int64_t k = 0; k < n; ++k) check.expect(v[k] >= 0, "a walk's extents and strides must not be negative");
}

// Checks arguments 0 (input), 1 (output), 2 (kept walk) and 3 (reduced walk) of a
// reduction: the kept positions are the output's elements and every position read lies
// inside the input. The reduced walk may have at most max_reduced_rank dimensions.
inline void check_reduction(ArgCheck& check, TVMValue* args, int max_reduced_rank = kMaxWalkRank) {
  check_walk(check, args, 2);
  check_walk(check, args, 3);
  if (!check.ok()) return;
  const Walk kept = read_walk(tensor_at(args, 2));
  const Walk reduced = read_walk(tensor_at(args, 3));
  const int64_t in_count = element_count(tensor_at(args, 0));
  const int64_t out_count = element_count(tensor_at(args, 1));
  check.expect(in_count <= INT32_MAX && out_count <= INT32_MAX, "input is too large")
      .expect(reduced.rank <= max_reduced_rank, "the reduced walk has too many dimensions")
      .expect(walk_positions(kept) == out_count, "the kept walk must visit every output element");
  if (!check.ok()) return;
  const bool reads = walk_positions(kept) > 0 && walk_positions(reduced) > 0;
  check.expect(!reads || walk_reach(kept) + walk_reach(reduced) < in_count, "the walks reach past the input");
}

}  // namespace grt::kernels::reduce

#endif  // GRAPHRT_KERNELS_REDUCE_REDUCTION_WALK_H_
