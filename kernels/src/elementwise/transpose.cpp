// TRANSPOSE, for any element size.
//
// transpose takes:
//   0 in X, 1 out Y            (same dtype and rank)
//   2 IntArray permutation     (rank entries, a permutation of 0..rank-1;
//                               Y.shape[i] == X.shape[permutation[i]])
// Y[i0, ..., in] = X at index j with j[permutation[k]] = ik.
#include "../kernel_args.h"
#include "tensor_layout.h"

namespace grt::kernels::elementwise {
namespace {

struct TransposeBody {
  const DLTensor* in;
  DLTensor* out;
  const DLTensor* permutation;

  template <typename Storage>
  void run() {
    const int64_t count = element_count(out);
    if (count == 0) return;
    const Storage* in_data = data_of<const Storage>(in);
    Storage* out_data = data_of<Storage>(out);
    const int rank = out->ndim;
    if (rank == 0) {
      out_data[0] = in_data[0];
      return;
    }
    int64_t in_strides[kMaxRank];
    row_major_strides(in, in_strides);
    // Input stride taken by one step along each output dimension.
    int64_t step[kMaxRank];
    for (int d = 0; d < rank; ++d) step[d] = in_strides[int_array_at(permutation, d)];
    const int outer_rank = rank - 1;
    const int64_t row = out->shape[outer_rank];
    const int64_t row_step = step[outer_rank];
    int64_t index[kMaxRank] = {};
    do {
      int64_t offset = 0;
      for (int d = 0; d < outer_rank; ++d) offset += index[d] * step[d];
      const Storage* source = in_data + offset;
      for (int64_t i = 0; i < row; ++i) out_data[i] = source[i * row_step];
      out_data += row;
    } while (next_index(outer_rank, out->shape, index));
  }
};

}  // namespace
}  // namespace grt::kernels::elementwise

using grt::kernels::ArgCheck;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(transpose) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  DLTensor* in = tensor_at(args, 0);
  grt::kernels::elementwise::TransposeBody body{in, tensor_at(args, 1), tensor_at(args, 2)};
  grt::kernels::elementwise::with_element_storage(grt::kernels::elementwise::element_bytes(in), body);
  return 0;
}

GRT_CHECK_FUNCTION(transpose) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  using namespace grt::kernels::elementwise;
  ArgCheck check("transpose", args, type_codes, num_args);
  check.count(3);
  if (check.ok()) {
    check.any_tensor(0).any_tensor(1).tensor(2, ElementType::kInt32, 1);
  }
  if (!check.ok()) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 1);
  const DLTensor* permutation = tensor_at(args, 2);
  check.expect(same_dtype(in, out), "input and output dtypes differ")
      .expect(movable_element(in), "element size is not 1, 2, 4 or 8 bytes")
      .expect(in->ndim == out->ndim && in->ndim <= kMaxRank, "input and output ranks differ")
      .expect(permutation->shape[0] == in->ndim, "permutation has not one entry per dimension");
  bool seen[kMaxRank] = {};
  for (int d = 0; check.ok() && d < in->ndim; ++d) {
    const int32_t source = int_array_at(permutation, d);
    check.expect(source >= 0 && source < in->ndim && !seen[source], "permutation is not a permutation");
    if (!check.ok()) break;
    seen[source] = true;
    check.expect(out->shape[d] == in->shape[source], "output shape is not the permuted input shape");
  }
  return check.result();
}
