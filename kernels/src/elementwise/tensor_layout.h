// Shape helpers shared by the elementwise and data-movement kernels: row-major strides,
// element sizes, and an odometer over the outer dimensions of a tensor.
#ifndef GRAPHRT_KERNELS_ELEMENTWISE_TENSOR_LAYOUT_H_
#define GRAPHRT_KERNELS_ELEMENTWISE_TENSOR_LAYOUT_H_

#include <stdint.h>

#include "../kernel_args.h"

namespace grt::kernels::elementwise {

// The loader accepts tensors of up to 8 dimensions; every kernel here handles them all.
constexpr int kMaxRank = 8;

// Bytes of one element, as the runtime sizes tensors.
inline int64_t element_bytes(const DLTensor* t) {
  return (static_cast<int64_t>(t->dtype.bits) * t->dtype.lanes + 7) / 8;
}

inline bool same_dtype(const DLTensor* a, const DLTensor* b) {
  return a->dtype.code == b->dtype.code && a->dtype.bits == b->dtype.bits && a->dtype.lanes == b->dtype.lanes;
}

inline bool same_shape(const DLTensor* a, const DLTensor* b) {
  if (a->ndim != b->ndim) return false;
  for (int i = 0; i < a->ndim; ++i) {
    if (a->shape[i] != b->shape[i]) return false;
  }
  return true;
}

// Data-movement kernels copy elements as opaque 1, 2, 4 or 8 byte units.
inline bool movable_element(const DLTensor* t) {
  const int64_t size = element_bytes(t);
  return size == 1 || size == 2 || size == 4 || size == 8;
}

// Row-major strides in elements; strides[ndim - 1] == 1.
inline void row_major_strides(const DLTensor* t, int64_t* strides) {
  int64_t stride = 1;
  for (int i = t->ndim - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= t->shape[i];
  }
}

// Reads element i of a constant int32 IntArray.
inline int32_t int_array_at(const DLTensor* array, int i) { return data_of<const int32_t>(array)[i]; }

// Counts through the index space of `extents` (row-major, last index fastest). Returns
// false once every index has wrapped back to zero.
inline bool next_index(int rank, const int64_t* extents, int64_t* index) {
  for (int d = rank - 1; d >= 0; --d) {
    if (++index[d] < extents[d]) return true;
    index[d] = 0;
  }
  return false;
}

// Calls body.run<Storage>() with an unsigned integer type as wide as one element, so
// data-movement kernels are written once for every element size.
template <typename Body>
inline void with_element_storage(int64_t bytes, Body& body) {
  switch (bytes) {
    case 1: body.template run<uint8_t>(); break;
    case 2: body.template run<uint16_t>(); break;
    case 4: body.template run<uint32_t>(); break;
    case 8: body.template run<uint64_t>(); break;
    default: break;
  }
}

}  // namespace grt::kernels::elementwise

#endif  // GRAPHRT_KERNELS_ELEMENTWISE_TENSOR_LAYOUT_H_
