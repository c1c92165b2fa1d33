// Float ADD and SUB with broadcasting and a fused activation clamp, as TFLM's reference.
//
// add_f32, sub_f32 take:
//   0 in A, 1 in B, 2 out Y        (float32; Y's shape is A and B broadcast)
//   3 Float activation_min, 4 Float activation_max   (float values; +-FLT_MAX for none)
#include "../kernel_args.h"
#include "broadcast.h"

namespace grt::kernels::elementwise {
namespace {

template <bool kSubtract>
struct FloatBinaryOp {
  float activation_min;
  float activation_max;
  float operator()(float a, float b) const {
    const float x = kSubtract ? a - b : a + b;
    // TFLM's order: min(max(x, lo), hi), so NaN passes through unchanged.
    const float low_clamped = x < activation_min ? activation_min : x;
    return activation_max < low_clamped ? activation_max : low_clamped;
  }
};

template <bool kSubtract>
int run_float_binary(TVMValue* args) {
  const FloatBinaryOp<kSubtract> op{static_cast<float>(real_at(args, 3)), static_cast<float>(real_at(args, 4))};
  broadcast_binary<float, float>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

int check_float_binary(const char* name, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(5)
      .tensor(0, ElementType::kFloat32)
      .tensor(1, ElementType::kFloat32)
      .tensor(2, ElementType::kFloat32)
      .real(3)
      .real(4);
  if (check.ok()) {
    check.expect(broadcast_shapes_match(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2)),
                 "output shape is not the broadcast of the input shapes");
  }
  if (check.ok()) check.expect(real_at(args, 3) <= real_at(args, 4), "activation_min is above activation_max");
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::elementwise

GRT_KERNEL_FUNCTION(add_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::run_float_binary<false>(args);
}

GRT_CHECK_FUNCTION(add_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::check_float_binary("add_f32", args, type_codes, num_args);
}

GRT_KERNEL_FUNCTION(sub_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::run_float_binary<true>(args);
}

GRT_CHECK_FUNCTION(sub_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::elementwise::check_float_binary("sub_f32", args, type_codes, num_args);
}
