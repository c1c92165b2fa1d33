// FILL (and ZEROS_LIKE, a fill with a constant zero), for any element size.
//
// fill takes:
//   0 in value (one element), 1 out Y (value's dtype)
// Every element of Y is value.
#include "../elementwise/tensor_layout.h"
#include "../kernel_args.h"

namespace grt::kernels::movement {
namespace {

struct FillBody {
  const DLTensor* value;
  DLTensor* out;

  template <typename Storage>
  void run() {
    const Storage v = *data_of<const Storage>(value);
    Storage* y = data_of<Storage>(out);
    const int64_t count = element_count(out);
    for (int64_t i = 0; i < count; ++i) y[i] = v;
  }
};

}  // namespace
}  // namespace grt::kernels::movement

using grt::kernels::ArgCheck;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(fill) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  DLTensor* out = tensor_at(args, 1);
  grt::kernels::movement::FillBody body{tensor_at(args, 0), out};
  grt::kernels::elementwise::with_element_storage(grt::kernels::elementwise::element_bytes(out), body);
  return 0;
}

GRT_CHECK_FUNCTION(fill) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  using namespace grt::kernels::elementwise;
  ArgCheck check("fill", args, type_codes, num_args);
  check.count(2).any_tensor(0).any_tensor(1);
  if (!check.ok()) return check.result();
  const DLTensor* value = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 1);
  check.expect(element_count(value) == 1, "value is not one element")
      .expect(same_dtype(value, out), "value and output dtypes differ")
      .expect(movable_element(out), "element size is not 1, 2, 4 or 8 bytes");
  return check.result();
}
