// FLOOR_DIV and FLOOR_MOD with broadcasting, float32 only, as TFLM's reference.
//
// floor_div_f32, floor_mod_f32 take 0 in A, 1 in B, 2 out Y (float32; Y's shape is A and B
// broadcast).
// FLOOR_DIV is floor(a / b) computed in double, then rounded to float. Like TFLM, a zero
//   anywhere in B fails the run ("division by zero") before anything is written.
// FLOOR_MOD is fmod(a, b) moved into b's sign: r = fmod(a, b); r != 0 and its sign differs
//   from b's: r + b. A zero b gives NaN (TFLM does not check it).
#include <math.h>
#include <stdint.h>

#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

struct FloorDiv {
  float operator()(float a, float b) const {
    return static_cast<float>(floor(static_cast<double>(a) / static_cast<double>(b)));
  }
};

struct FloorMod {
  float operator()(float a, float b) const {
    const float remainder = fmodf(a, b);
    return (remainder != 0.0f && ((b < 0.0f) != (remainder < 0.0f))) ? remainder + b : remainder;
  }
};

int run_floor_div(TVMValue* args) {
  const DLTensor* denominator = tensor_at(args, 1);
  if (has_zero<float>(denominator)) {
    TVMAPISetLastError("division by zero");
    return -1;
  }
  broadcast_binary<float, float>(tensor_at(args, 0), denominator, tensor_at(args, 2), FloorDiv{});
  return 0;
}

}  // namespace
}  // namespace grt::kernels::binary

using namespace grt::kernels::binary;

using grt::kernels::ElementType;

GRT_BINARY_KERNEL(floor_div_f32, run_floor_div(args),
                  check_three_operands(ElementType::kFloat32, ElementType::kFloat32, args, type_codes, num_args))
GRT_BINARY_KERNEL(floor_mod_f32, (run_operands<float, float, FloorMod>(args)),
                  check_three_operands(ElementType::kFloat32, ElementType::kFloat32, args, type_codes, num_args))
