// DIV with broadcasting and the fused activation's clamp, as TFLM's reference kernels.
//
// div_f32 takes 0 in A, 1 in B, 2 out Y (float32; Y's shape is A and B broadcast),
//   3 Float activation_min, 4 Float activation_max. IEEE division: x / 0 is an infinity (then
//   clamped, to +-FLT_MAX without an activation, as in TFLM) or NaN.
// div_s32 takes 0 A, 1 B, 2 Y (int32), 3 Int activation_min, 4 Int activation_max. The
//   quotient truncates toward zero. TFLM divides by zero (undefined: a trap on most targets);
//   here a zero anywhere in B fails the run before anything is written, and INT32_MIN / -1
//   wraps to INT32_MIN.
#include <stdint.h>

#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

struct FloatDiv {
  float activation_min, activation_max;
  float operator()(float a, float b) const { return clamp_to(a / b, activation_min, activation_max); }
};

struct Int32Div {
  int32_t activation_min, activation_max;
  int32_t operator()(int32_t a, int32_t b) const {
    const int32_t quotient = (a == INT32_MIN && b == -1) ? INT32_MIN : a / b;
    return clamp_to(quotient, activation_min, activation_max);
  }
};

int run_float_div(TVMValue* args) {
  const FloatDiv op{static_cast<float>(real_at(args, 3)), static_cast<float>(real_at(args, 4))};
  broadcast_binary<float, float>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

int run_int32_div(TVMValue* args) {
  const DLTensor* denominator = tensor_at(args, 1);
  if (has_zero<int32_t>(denominator)) {
    TVMAPISetLastError("division by zero");
    return -1;
  }
  const Int32Div op{static_cast<int32_t>(int_at(args, 3)), static_cast<int32_t>(int_at(args, 4))};
  broadcast_binary<int32_t, int32_t>(tensor_at(args, 0), denominator, tensor_at(args, 2), op);
  return 0;
}

}  // namespace
}  // namespace grt::kernels::binary

using grt::kernels::ElementType;
using namespace grt::kernels::binary;

GRT_BINARY_KERNEL(div_f32, run_float_div(args), check_clamped_operands(ElementType::kFloat32, args, type_codes, num_args))
GRT_BINARY_KERNEL(div_s32, run_int32_div(args), check_clamped_operands(ElementType::kInt32, args, type_codes, num_args))
