// Binary elementwise operations with NumPy/TFLite broadcasting: shapes are aligned on the
// right, and a dimension of 1 repeats along the other operand's dimension. The element
// results do not depend on the visiting order, so this matches TFLM's broadcast loops.
#ifndef GRAPHRT_KERNELS_ELEMENTWISE_BROADCAST_H_
#define GRAPHRT_KERNELS_ELEMENTWISE_BROADCAST_H_

#include <stdint.h>

#include "tensor_layout.h"

namespace grt::kernels::elementwise {

// True when out's shape is exactly the broadcast of a's and b's shapes.
inline bool broadcast_shapes_match(const DLTensor* a, const DLTensor* b, const DLTensor* out) {
  if (out->ndim > kMaxRank || a->ndim > out->ndim || b->ndim > out->ndim) return false;
  for (int d = 0; d < out->ndim; ++d) {
    const int64_t o = out->shape[d];
    const int a_axis = d - (out->ndim - a->ndim);
    const int b_axis = d - (out->ndim - b->ndim);
    const int64_t ad = a_axis >= 0 ? a->shape[a_axis] : 1;
    const int64_t bd = b_axis >= 0 ? b->shape[b_axis] : 1;
    if (ad != o && ad != 1) return false;
    if (bd != o && bd != 1) return false;
    if (ad != o && bd != o) return false;  // both 1 but out larger: nothing to broadcast to
  }
  return true;
}

// Strides (in elements) with which an operand is read along each output dimension: zero
// where it broadcasts.
inline void broadcast_strides(const DLTensor* operand, const DLTensor* out, int64_t* strides) {
  int64_t own[kMaxRank];
  row_major_strides(operand, own);
  for (int d = 0; d < out->ndim; ++d) {
    const int axis = d - (out->ndim - operand->ndim);
    strides[d] = (axis < 0 || operand->shape[axis] == 1) ? 0 : own[axis];
  }
}

// out[i] = op(a[ia], b[ib]) for every output element; shapes passed broadcast_shapes_match.
template <typename In, typename Out, typename Op>
inline void broadcast_binary(const DLTensor* a, const DLTensor* b, DLTensor* out, const Op& op) {
  const In* a_data = data_of<const In>(a);
  const In* b_data = data_of<const In>(b);
  Out* out_data = data_of<Out>(out);
  const int64_t count = element_count(out);
  if (count == 0) return;
  if (same_shape(a, out) && same_shape(b, out)) {
    for (int64_t i = 0; i < count; ++i) out_data[i] = op(a_data[i], b_data[i]);
    return;
  }
  if (out->ndim == 0) {
    out_data[0] = op(a_data[0], b_data[0]);
    return;
  }
  int64_t a_strides[kMaxRank];
  int64_t b_strides[kMaxRank];
  broadcast_strides(a, out, a_strides);
  broadcast_strides(b, out, b_strides);
  const int outer_rank = out->ndim - 1;
  const int64_t inner = out->shape[outer_rank];
  const int64_t a_inner = a_strides[outer_rank];
  const int64_t b_inner = b_strides[outer_rank];
  int64_t index[kMaxRank] = {};
  do {
    int64_t a_offset = 0;
    int64_t b_offset = 0;
    for (int d = 0; d < outer_rank; ++d) {
      a_offset += index[d] * a_strides[d];
      b_offset += index[d] * b_strides[d];
    }
    const In* a_row = a_data + a_offset;
    const In* b_row = b_data + b_offset;
    for (int64_t i = 0; i < inner; ++i) out_data[i] = op(a_row[i * a_inner], b_row[i * b_inner]);
    out_data += inner;
  } while (next_index(outer_rank, out->shape, index));
}

}  // namespace grt::kernels::elementwise

#endif  // GRAPHRT_KERNELS_ELEMENTWISE_BROADCAST_H_
