// Any int8 -> int8 elementwise function as a 256-entry table the importer computes with
// TFLM's own arithmetic for the operator (LOGISTIC, TANH, the RELUs, HARD_SWISH, ELU, ABS,
// RSQRT): an int8 input has only 256 values, so the table is the operator, bit for bit.
//
// lookup_s8 takes: 0 in X, 1 out Y (int8, same element count), 2 in Table (int8, 256
// elements: the output for input value v at index v + 128).
#include <stdint.h>

#include "../kernel_args.h"
#include "unary_checks.h"

GRT_KERNEL_FUNCTION(lookup_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  const DLTensor* in = tensor_at(args, 0);
  const int8_t* x = data_of<const int8_t>(in);
  int8_t* y = data_of<int8_t>(tensor_at(args, 1));
  const int8_t* table = data_of<const int8_t>(tensor_at(args, 2)) + 128;
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) y[i] = table[x[i]];
  return 0;
}

GRT_CHECK_FUNCTION(lookup_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  ArgCheck check("lookup_s8", args, type_codes, num_args);
  activation::check_unary(check, 3, ElementType::kInt8, args).tensor(2, ElementType::kInt8);
  if (check.ok()) check.expect(element_count(tensor_at(args, 2)) == 256, "the table must have 256 entries");
  return check.result();
}
