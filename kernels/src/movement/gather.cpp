// GATHER (and EMBEDDING_LOOKUP, a gather of rows), for any element size, as TFLM's
// reference.
//
// gather takes:
//   0 in X, 1 in indices (int32), 2 out Y (X's dtype)
//   3 Int axis                   (0 <= axis < rank X)
//   4 Int batch_dims             (0 <= batch_dims <= axis, batch_dims <= rank indices; the
//                                 first batch_dims dimensions of X and indices agree)
// Y's shape is X.shape[:axis] + indices.shape[batch_dims:] + X.shape[axis + 1:], and
// Y[b, o, c, i] = X[b, o, indices[b, c], i]: b over the batch dimensions, o over X's others
// before axis, c over indices' dimensions after the batch ones, i over X's after axis.
// Indices may be computed at run time, so the kernel refuses one outside [0, X.shape[axis])
// rather than read out of bounds (TFLM only asserts it in debug builds).
#include <string.h>

#include "../elementwise/tensor_layout.h"
#include "../kernel_args.h"

namespace grt::kernels::movement {
namespace {

int64_t product(const DLTensor* t, int first, int last) {
  int64_t n = 1;
  for (int d = first; d < last; ++d) n *= t->shape[d];
  return n;
}

// Y's shape is the one gather produces.
bool gathered_shape(const DLTensor* x, const DLTensor* indices, const DLTensor* y, int axis, int batch_dims) {
  if (y->ndim != x->ndim + indices->ndim - 1 - batch_dims) return false;
  int o = 0;
  for (int d = 0; d < axis; ++d) {
    if (y->shape[o++] != x->shape[d]) return false;
  }
  for (int d = batch_dims; d < indices->ndim; ++d) {
    if (y->shape[o++] != indices->shape[d]) return false;
  }
  for (int d = axis + 1; d < x->ndim; ++d) {
    if (y->shape[o++] != x->shape[d]) return false;
  }
  return true;
}

}  // namespace
}  // namespace grt::kernels::movement

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(gather) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using grt::kernels::movement::product;
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* indices = tensor_at(args, 1);
  DLTensor* out = tensor_at(args, 2);
  const int axis = static_cast<int>(int_at(args, 3));
  const int batch_dims = static_cast<int>(int_at(args, 4));
  const int64_t batches = product(x, 0, batch_dims);
  const int64_t outer = product(x, batch_dims, axis);
  const int64_t axis_size = x->shape[axis];
  const int64_t coords = product(indices, batch_dims, indices->ndim);
  const size_t row = static_cast<size_t>(product(x, axis + 1, x->ndim) * grt::kernels::elementwise::element_bytes(x));
  const uint8_t* source = data_of<const uint8_t>(x);
  const int32_t* index = data_of<const int32_t>(indices);
  uint8_t* y = data_of<uint8_t>(out);
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t o = 0; o < outer; ++o) {
      const uint8_t* block = source + static_cast<size_t>((b * outer + o) * axis_size) * row;
      for (int64_t c = 0; c < coords; ++c) {
        const int32_t i = index[b * coords + c];
        if (i < 0 || i >= axis_size) {
          TVMAPISetLastError("gather: an index is out of range");
          return -1;
        }
        memcpy(y, block + static_cast<size_t>(i) * row, row);
        y += row;
      }
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(gather) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  using namespace grt::kernels::elementwise;
  ArgCheck check("gather", args, type_codes, num_args);
  check.count(5).any_tensor(0).tensor(1, ElementType::kInt32).any_tensor(2);
  if (!check.ok()) return check.result();
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* indices = tensor_at(args, 1);
  const DLTensor* out = tensor_at(args, 2);
  check.expect(x->ndim >= 1 && x->ndim <= kMaxRank, "input rank is not 1 to 8")
      .expect(same_dtype(x, out), "input and output dtypes differ")
      .integer(3, 0, x->ndim - 1);
  if (!check.ok()) return check.result();
  const int axis = static_cast<int>(int_at(args, 3));
  check.integer(4, 0, axis < indices->ndim ? axis : indices->ndim);
  if (!check.ok()) return check.result();
  const int batch_dims = static_cast<int>(int_at(args, 4));
  for (int d = 0; d < batch_dims; ++d) {
    check.expect(x->shape[d] == indices->shape[d], "input and indices differ in a batch dimension");
  }
  check.expect(movement::gathered_shape(x, indices, out, axis, batch_dims), "output shape is not the gathered shape");
  return check.result();
}
