// int32 ADD and SUB with broadcasting and a clamp, as TFLM's reference (sums wrap as they do
// on its targets). TFLM's int32 ADD ignores the fused activation; the importer passes the
// full int32 range for it, and SUB's activation range.
//
// add_s32, sub_s32 take 0 A, 1 B, 2 Y (int32), 3 Int activation_min, 4 Int activation_max.
#include <stdint.h>

#include "../quant_math.h"
#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

template <bool kSubtract>
struct Int32AddSub {
  int32_t activation_min, activation_max;
  int32_t operator()(int32_t a, int32_t b) const {
    return clamp_to(kSubtract ? wrapping_sub(a, b) : wrapping_add(a, b), activation_min, activation_max);
  }
};

template <bool kSubtract>
int run_int32_add_sub(TVMValue* args) {
  const Int32AddSub<kSubtract> op{static_cast<int32_t>(int_at(args, 3)), static_cast<int32_t>(int_at(args, 4))};
  broadcast_binary<int32_t, int32_t>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

}  // namespace
}  // namespace grt::kernels::binary

using grt::kernels::ElementType;
using namespace grt::kernels::binary;

GRT_BINARY_KERNEL(add_s32, run_int32_add_sub<false>(args), check_clamped_operands(ElementType::kInt32, args, type_codes, num_args))
GRT_BINARY_KERNEL(sub_s32, run_int32_add_sub<true>(args), check_clamped_operands(ElementType::kInt32, args, type_codes, num_args))
