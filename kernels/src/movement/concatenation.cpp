// CONCATENATION and PACK, for any element size (TFLM's reference copies rows the same way).
//
// concatenation takes:
//   0 out Y
//   1 Int axis                   (0 <= axis < rank Y)
//   2.. in X_0, ..., X_{n-1}     (n >= 1, Y's dtype; each has Y's shape except along axis
//                                 (CONCATENATION), or Y's shape without the axis dimension,
//                                 which then counts as 1 (PACK))
// The output comes first so that the kernel's one written argument has a fixed position
// whatever the number of inputs. For every index before axis, Y's row is X_0's row, then
// X_1's, ...
#include <string.h>

#include "../elementwise/tensor_layout.h"
#include "../kernel_args.h"

namespace grt::kernels::movement {
namespace {

constexpr int kFirstInput = 2;

// The extent an input contributes along axis, or -1 if its shape does not fit Y's.
int64_t extent_along_axis(const DLTensor* x, const DLTensor* y, int axis) {
  if (x->ndim == y->ndim) {
    for (int d = 0; d < y->ndim; ++d) {
      if (d != axis && x->shape[d] != y->shape[d]) return -1;
    }
    return x->shape[axis];
  }
  if (x->ndim + 1 == y->ndim) {
    for (int d = 0; d < x->ndim; ++d) {
      if (x->shape[d] != y->shape[d < axis ? d : d + 1]) return -1;
    }
    return 1;
  }
  return -1;
}

}  // namespace
}  // namespace grt::kernels::movement

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(concatenation) {
  (void)type_codes, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  DLTensor* out = tensor_at(args, 0);
  const int axis = static_cast<int>(int_at(args, 1));
  const int64_t total = element_count(out);
  if (total == 0) return 0;
  int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= out->shape[d];
  const size_t element = static_cast<size_t>(grt::kernels::elementwise::element_bytes(out));
  const size_t out_row = static_cast<size_t>(total / outer) * element;
  uint8_t* y = data_of<uint8_t>(out);
  size_t offset = 0;
  for (int i = grt::kernels::movement::kFirstInput; i < num_args; ++i) {
    const DLTensor* in = tensor_at(args, i);
    const size_t row = static_cast<size_t>(element_count(in) / outer) * element;
    const uint8_t* x = data_of<const uint8_t>(in);
    for (int64_t k = 0; k < outer; ++k) memcpy(y + static_cast<size_t>(k) * out_row + offset, x + static_cast<size_t>(k) * row, row);
    offset += row;
  }
  return 0;
}

GRT_CHECK_FUNCTION(concatenation) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  using namespace grt::kernels::elementwise;
  ArgCheck check("concatenation", args, type_codes, num_args);
  check.count_between(movement::kFirstInput + 1, INT32_MAX).any_tensor(0);
  if (!check.ok()) return check.result();
  const DLTensor* out = tensor_at(args, 0);
  check.expect(out->ndim >= 1 && out->ndim <= kMaxRank, "output rank is not 1 to 8").integer(1, 0, out->ndim - 1);
  if (!check.ok()) return check.result();
  const int axis = static_cast<int>(int_at(args, 1));
  int64_t along_axis = 0;
  for (int i = movement::kFirstInput; check.ok() && i < num_args; ++i) {
    check.any_tensor(i);
    if (!check.ok()) break;
    const DLTensor* in = tensor_at(args, i);
    const int64_t extent = movement::extent_along_axis(in, out, axis);
    check.expect(same_dtype(in, out), "input and output dtypes differ")
        .expect(extent >= 0, "an input's shape does not match the output's off the axis");
    along_axis += extent;
  }
  if (check.ok()) check.expect(along_axis == out->shape[axis], "inputs do not add up to the output along the axis");
  return check.result();
}
