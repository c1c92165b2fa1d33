// LOGICAL_AND, LOGICAL_OR (with broadcasting) and LOGICAL_NOT on bool tensors, as TFLM's
// reference. Booleans are one byte per element: any non-zero byte reads as true, results are 0 or 1.
//
// logical_and_bool, logical_or_bool take 0 in A, 1 in B, 2 out Y (bool; Y's shape is A and B broadcast).
// logical_not_bool takes 0 in X, 1 out Y (bool, same element count).
#include <stdint.h>

#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

struct LogicalAnd {
  BoolStorage operator()(BoolStorage a, BoolStorage b) const { return (a != 0 && b != 0) ? 1 : 0; }
};

struct LogicalOr {
  BoolStorage operator()(BoolStorage a, BoolStorage b) const { return (a != 0 || b != 0) ? 1 : 0; }
};

int run_logical_not(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const BoolStorage* x = data_of<const BoolStorage>(in);
  BoolStorage* y = data_of<BoolStorage>(tensor_at(args, 1));
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] != 0 ? 0 : 1;
  return 0;
}

int check_logical_not(TVMValue* args, int* codes, int count) {
  ArgCheck check("logical_not_bool", args, codes, count);
  check.count(2).tensor(0, ElementType::kBool).tensor(1, ElementType::kBool);
  if (check.ok()) {
    check.expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 1)), "input and output sizes differ");
  }
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::binary

using namespace grt::kernels::binary;

using grt::kernels::ElementType;

#define GRT_LOGICAL_KERNEL(name, Op)                                                 \
  GRT_BINARY_KERNEL(name, (run_operands<BoolStorage, BoolStorage, Op>(args)),        \
                    check_three_operands(ElementType::kBool, ElementType::kBool, args, type_codes, num_args))

GRT_LOGICAL_KERNEL(logical_and_bool, LogicalAnd)
GRT_LOGICAL_KERNEL(logical_or_bool, LogicalOr)
GRT_BINARY_KERNEL(logical_not_bool, run_logical_not(args), check_logical_not(args, type_codes, num_args))
