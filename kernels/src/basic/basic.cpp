// noop: any arguments, does nothing (the dispatch benchmark's kernel).
// copy: (in X, out Y) copies X's bytes to Y; Y has at least as many bytes; they may overlap.
#include <string.h>

#include "../kernel_args.h"

GRT_KERNEL_FUNCTION(noop) {
  (void)args, (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return 0;
}

GRT_CHECK_FUNCTION(noop) {
  (void)args, (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return 0;
}

GRT_KERNEL_FUNCTION(copy) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  DLTensor* y = grt::kernels::tensor_at(args, 1);
  const size_t bytes = grt_tensor_bytes(x);
  // memmove: a band plan moves the rows it keeps within one buffer (views of one tensor).
  if (bytes != 0 && x->data != y->data) memmove(y->data, x->data, bytes);
  return 0;
}

GRT_CHECK_FUNCTION(copy) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  grt::kernels::ArgCheck check("copy", args, type_codes, num_args);
  check.count(2);
  if (check.ok()) {
    check.expect(type_codes[0] == kTVMDLTensorHandle && type_codes[1] == kTVMDLTensorHandle, "copy wants (in X, out Y)");
  }
  if (check.ok()) {
    check.expect(grt_tensor_bytes(grt::kernels::tensor_at(args, 1)) >= grt_tensor_bytes(grt::kernels::tensor_at(args, 0)),
                 "output is smaller than input");
  }
  return check.result();
}
