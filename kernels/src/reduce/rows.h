// Kernels that work row by row along the last dimension (LOG_SOFTMAX, L2_NORMALIZATION):
// the input and output share a shape of rank >= 1, and each row of `depth` elements is
// transformed on its own.
#ifndef GRAPHRT_KERNELS_REDUCE_ROWS_H_
#define GRAPHRT_KERNELS_REDUCE_ROWS_H_

#include <stdint.h>

#include "../kernel_args.h"

namespace grt::kernels::reduce {

// Calls row(in, out, depth) for each row of argument 0 (input) and argument 1 (output).
template <typename T, typename Row>
inline void for_each_row(TVMValue* args, Row&& row) {
  const DLTensor* x = tensor_at(args, 0);
  const T* in = data_of<const T>(x);
  T* out = data_of<T>(tensor_at(args, 1));
  const int64_t depth = x->shape[x->ndim - 1];
  if (depth == 0) return;
  const int64_t rows = element_count(x) / depth;
  for (int64_t r = 0; r < rows; ++r) row(in + r * depth, out + r * depth, depth);
}

// Checks that arguments 0 and 1 are tensors of one shape, rank >= 1, indexable with int.
inline void check_rows(ArgCheck& check, TVMValue* args) {
  if (!check.ok()) return;
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* y = tensor_at(args, 1);
  bool same = x->ndim == y->ndim;
  for (int d = 0; same && d < x->ndim; ++d) same = x->shape[d] == y->shape[d];
  check.expect(x->ndim >= 1, "input must have rank >= 1")
      .expect(same, "output must have the input's shape")
      .expect(element_count(x) <= INT32_MAX, "input is too large");
}

// The check of a float32 row kernel: 0 in X, 1 out Y, nothing else.
inline int check_float_rows(const char* name, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(2).tensor(0, ElementType::kFloat32).tensor(1, ElementType::kFloat32);
  check_rows(check, args);
  return check.result();
}

}  // namespace grt::kernels::reduce

#endif  // GRAPHRT_KERNELS_REDUCE_ROWS_H_
