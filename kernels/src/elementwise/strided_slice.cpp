// STRIDED_SLICE, for any element size. The importer resolves TFLite's begin/end/strides and
// masks (as TFLM's strided-slice logic does) into plain per-dimension walks, so the kernel
// only iterates.
//
// strided_slice takes:
//   0 in X, 1 out Y              (same dtype; Y has prod(count) elements, any shape, so
//                                 shrunk axes simply vanish from Y)
//   2 IntArray begin[rank X]     (first index read along each dimension of X)
//   3 IntArray stride[rank X]    (step along each dimension, non-zero, may be negative)
//   4 IntArray count[rank X]     (indices read along each dimension, >= 0)
// Y is written in row-major order of the walk: X[begin + i * stride] over all i < count.
#include <string.h>

#include "../kernel_args.h"
#include "tensor_layout.h"

namespace grt::kernels::elementwise {
namespace {

struct StridedSliceBody {
  const DLTensor* in;
  DLTensor* out;
  const DLTensor* begin;
  const DLTensor* stride;
  const DLTensor* count;

  template <typename Storage>
  void run() {
    const int rank = in->ndim;
    int64_t counts[kMaxRank];
    for (int d = 0; d < rank; ++d) {
      counts[d] = int_array_at(count, d);
      if (counts[d] == 0) return;
    }
    const Storage* in_data = data_of<const Storage>(in);
    Storage* out_data = data_of<Storage>(out);
    if (rank == 0) {
      out_data[0] = in_data[0];
      return;
    }
    int64_t in_strides[kMaxRank];
    row_major_strides(in, in_strides);
    int64_t start = 0;
    int64_t step[kMaxRank];
    for (int d = 0; d < rank; ++d) {
      start += int_array_at(begin, d) * in_strides[d];
      step[d] = int_array_at(stride, d) * in_strides[d];
    }
    const int outer_rank = rank - 1;
    const int64_t row = counts[outer_rank];
    const int64_t row_step = step[outer_rank];
    int64_t index[kMaxRank] = {};
    do {
      int64_t offset = start;
      for (int d = 0; d < outer_rank; ++d) offset += index[d] * step[d];
      const Storage* source = in_data + offset;
      if (row_step == 1) {
        memcpy(out_data, source, static_cast<size_t>(row) * sizeof(Storage));
      } else {
        for (int64_t i = 0; i < row; ++i) out_data[i] = source[i * row_step];
      }
      out_data += row;
    } while (next_index(outer_rank, counts, index));
  }
};

}  // namespace
}  // namespace grt::kernels::elementwise

using grt::kernels::ArgCheck;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(strided_slice) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  DLTensor* in = tensor_at(args, 0);
  grt::kernels::elementwise::StridedSliceBody body{in, tensor_at(args, 1), tensor_at(args, 2), tensor_at(args, 3),
                                                   tensor_at(args, 4)};
  grt::kernels::elementwise::with_element_storage(grt::kernels::elementwise::element_bytes(in), body);
  return 0;
}

GRT_CHECK_FUNCTION(strided_slice) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  using namespace grt::kernels::elementwise;
  ArgCheck check("strided_slice", args, type_codes, num_args);
  check.count(5);
  if (check.ok()) {
    check.any_tensor(0).any_tensor(1).tensor(2, ElementType::kInt32, 1)
        .tensor(3, ElementType::kInt32, 1)
        .tensor(4, ElementType::kInt32, 1);
  }
  if (!check.ok()) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 1);
  const DLTensor* begin = tensor_at(args, 2);
  const DLTensor* stride = tensor_at(args, 3);
  const DLTensor* count = tensor_at(args, 4);
  const int rank = in->ndim;
  check.expect(same_dtype(in, out), "input and output dtypes differ")
      .expect(movable_element(in), "element size is not 1, 2, 4 or 8 bytes")
      .expect(rank <= kMaxRank, "input has too many dimensions")
      .expect(begin->shape[0] == rank && stride->shape[0] == rank && count->shape[0] == rank,
              "begin, stride and count need one entry per input dimension");
  int64_t walked = 1;
  for (int d = 0; check.ok() && d < rank; ++d) {
    const int64_t first = int_array_at(begin, d);
    const int64_t step = int_array_at(stride, d);
    const int64_t n = int_array_at(count, d);
    check.expect(step != 0, "stride is zero").expect(n >= 0, "count is negative");
    if (check.ok() && n > 0) {
      // |step| >= 1 and both ends inside the dimension bound n by its size, so the
      // product below cannot overflow.
      const int64_t last = first + (n - 1) * step;
      check.expect(first >= 0 && first < in->shape[d] && last >= 0 && last < in->shape[d], "slice reads past the input");
    }
    walked = n == 0 ? 0 : walked * n;
  }
  if (check.ok()) check.expect(walked == element_count(out), "output size is not the number of elements walked");
  return check.result();
}
