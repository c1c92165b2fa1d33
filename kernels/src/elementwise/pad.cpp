// PAD with a constant, for any element size (int8, int16, int32, float32, ...).
//
// pad takes:
//   0 in X, 1 out Y                 (same dtype and rank; Y[d] >= X[d] + before[d])
//   2 IntArray before[rank]         (elements added in front of each dimension, >= 0)
//   3 Int pad_value                 (the element's bits as a signed integer of its width:
//                                    int8/int16/int32 values as they are, float32 as its
//                                    IEEE-754 bit pattern)
// The padding after each dimension is what is left: Y[d] - X[d] - before[d].
#include <string.h>

#include "../kernel_args.h"
#include "tensor_layout.h"

namespace grt::kernels::elementwise {
namespace {

struct PadBody {
  const DLTensor* in;
  DLTensor* out;
  const DLTensor* before;
  int64_t pad_value;

  template <typename Storage>
  void run() {
    Storage* out_data = data_of<Storage>(out);
    const int64_t out_count = element_count(out);
    const Storage fill = static_cast<Storage>(pad_value);
    for (int64_t i = 0; i < out_count; ++i) out_data[i] = fill;
    const int64_t in_count = element_count(in);
    if (in_count == 0) return;
    const Storage* in_data = data_of<const Storage>(in);
    const int rank = in->ndim;
    if (rank == 0) {
      out_data[0] = in_data[0];
      return;
    }
    int64_t out_strides[kMaxRank];
    row_major_strides(out, out_strides);
    // Input rows (the last dimension) land contiguously in the output.
    const int outer_rank = rank - 1;
    const int64_t row = in->shape[outer_rank];
    int64_t index[kMaxRank] = {};
    do {
      int64_t offset = int_array_at(before, outer_rank);
      for (int d = 0; d < outer_rank; ++d) offset += (index[d] + int_array_at(before, d)) * out_strides[d];
      memcpy(out_data + offset, in_data, static_cast<size_t>(row) * sizeof(Storage));
      in_data += row;
    } while (next_index(outer_rank, in->shape, index));
  }
};

}  // namespace
}  // namespace grt::kernels::elementwise

using grt::kernels::ArgCheck;
using grt::kernels::int_at;
using grt::kernels::tensor_at;
using grt::kernels::elementwise::element_bytes;

GRT_KERNEL_FUNCTION(pad) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  DLTensor* in = tensor_at(args, 0);
  grt::kernels::elementwise::PadBody body{in, tensor_at(args, 1), tensor_at(args, 2), int_at(args, 3)};
  grt::kernels::elementwise::with_element_storage(element_bytes(in), body);
  return 0;
}

GRT_CHECK_FUNCTION(pad) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  using namespace grt::kernels::elementwise;
  ArgCheck check("pad", args, type_codes, num_args);
  check.count(4);
  if (check.ok()) {
    check.any_tensor(0).any_tensor(1).tensor(2, ElementType::kInt32, 1);
  }
  if (!check.ok()) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 1);
  const DLTensor* before = tensor_at(args, 2);
  check.expect(same_dtype(in, out), "input and output dtypes differ")
      .expect(movable_element(in), "element size is not 1, 2, 4 or 8 bytes")
      .expect(in->ndim == out->ndim && in->ndim <= kMaxRank, "input and output ranks differ")
      .expect(before->shape[0] == in->ndim, "before has not one entry per dimension");
  for (int d = 0; check.ok() && d < in->ndim; ++d) {
    const int64_t front = int_array_at(before, d);
    check.expect(front >= 0, "negative padding").expect(in->shape[d] + front <= out->shape[d], "input does not fit in the output");
  }
  if (check.ok()) {
    const int bits = static_cast<int>(element_bytes(in) * 8);
    const int64_t low = bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
    const int64_t high = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
    check.integer(3, low, high);
  }
  return check.result();
}
