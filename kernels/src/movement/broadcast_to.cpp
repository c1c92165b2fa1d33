// BROADCAST_TO, for any element size: the input repeated along the output's dimensions
// where it has size 1 or is missing (shapes aligned on the right).
//
// broadcast_to takes:
//   0 in X, 1 out Y   (same dtype; rank X <= rank Y <= 8; each dimension of X is 1 or Y's)
#include "../elementwise/broadcast.h"
#include "../kernel_args.h"

namespace grt::kernels::movement {
namespace {

struct BroadcastToBody {
  const DLTensor* in;
  DLTensor* out;

  template <typename Storage>
  void run() {
    using namespace elementwise;
    if (element_count(out) == 0) return;
    const Storage* x = data_of<const Storage>(in);
    Storage* y = data_of<Storage>(out);
    if (out->ndim == 0) {
      y[0] = x[0];
      return;
    }
    int64_t strides[kMaxRank];
    broadcast_strides(in, out, strides);
    const int outer_rank = out->ndim - 1;
    const int64_t row = out->shape[outer_rank];
    const int64_t row_step = strides[outer_rank];
    int64_t index[kMaxRank] = {};
    do {
      int64_t offset = 0;
      for (int d = 0; d < outer_rank; ++d) offset += index[d] * strides[d];
      for (int64_t i = 0; i < row; ++i) y[i] = x[offset + i * row_step];
      y += row;
    } while (next_index(outer_rank, out->shape, index));
  }
};

}  // namespace
}  // namespace grt::kernels::movement

using grt::kernels::ArgCheck;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(broadcast_to) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  DLTensor* out = tensor_at(args, 1);
  grt::kernels::movement::BroadcastToBody body{tensor_at(args, 0), out};
  grt::kernels::elementwise::with_element_storage(grt::kernels::elementwise::element_bytes(out), body);
  return 0;
}

GRT_CHECK_FUNCTION(broadcast_to) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  using namespace grt::kernels::elementwise;
  ArgCheck check("broadcast_to", args, type_codes, num_args);
  check.count(2).any_tensor(0).any_tensor(1);
  if (!check.ok()) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 1);
  check.expect(same_dtype(in, out), "input and output dtypes differ")
      .expect(movable_element(out), "element size is not 1, 2, 4 or 8 bytes")
      .expect(out->ndim <= kMaxRank && in->ndim <= out->ndim, "input has more dimensions than the output");
  for (int d = 0; check.ok() && d < in->ndim; ++d) {
    const int64_t size = in->shape[d];
    check.expect(size == 1 || size == out->shape[out->ndim - in->ndim + d], "output shape is not broadcastable from the input's");
  }
  return check.result();
}
