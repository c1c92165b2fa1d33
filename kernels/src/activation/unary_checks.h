// The argument checks the activation kernels share: one input and one output of a type with
// as many elements (the output's shape is the converter's business, its size is ours).
#ifndef GRAPHRT_KERNELS_ACTIVATION_UNARY_CHECKS_H_
#define GRAPHRT_KERNELS_ACTIVATION_UNARY_CHECKS_H_

#include "../kernel_args.h"

namespace grt::kernels::activation {

// Checks argument count, tensors 0 (in) and 1 (out) of `type`, and equal element counts.
inline ArgCheck& check_unary(ArgCheck& check, int count, ElementType type, TVMValue* args) {
  check.count(count).tensor(0, type).tensor(1, type);
  if (check.ok()) {
    check.expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 1)),
                 "input and output sizes differ");
  }
  return check;
}

// The saturating narrowing every quantized kernel ends with.
template <typename T>
inline T saturate(int32_t v) {
  constexpr int32_t kMin = sizeof(T) == 1 ? INT8_MIN : INT16_MIN;
  constexpr int32_t kMax = sizeof(T) == 1 ? INT8_MAX : INT16_MAX;
  return static_cast<T>(v < kMin ? kMin : (v > kMax ? kMax : v));
}

}  // namespace grt::kernels::activation

#endif  // GRAPHRT_KERNELS_ACTIVATION_UNARY_CHECKS_H_
