// MAXIMUM and MINIMUM with broadcasting, as TFLM's reference: raw elements are compared
// (TFLM does not rescale quantized inputs), with its comparison order (a > b ? a : b), so a
// float NaN in B wins MAXIMUM and MINIMUM, a NaN in A loses them.
//
// maximum_<t>, minimum_<t> (t: s8, s16, s32, i64, f32) take 0 in A, 1 in B, 2 out Y, all of
// type t, Y's shape A and B broadcast.
#include <stdint.h>

#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

struct Maximum {
  template <typename T>
  T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};

struct Minimum {
  template <typename T>
  T operator()(T a, T b) const {
    return a < b ? a : b;
  }
};

}  // namespace
}  // namespace grt::kernels::binary

using grt::kernels::ElementType;
using namespace grt::kernels::binary;

#define GRT_EXTREMUM_KERNELS(suffix, T, element_type)                                                           \
  GRT_BINARY_KERNEL(maximum_##suffix, (run_operands<T, T, Maximum>(args)),                                     \
                    check_three_operands(element_type, element_type, args, type_codes, num_args))               \
  GRT_BINARY_KERNEL(minimum_##suffix, (run_operands<T, T, Minimum>(args)),                                     \
                    check_three_operands(element_type, element_type, args, type_codes, num_args))

GRT_EXTREMUM_KERNELS(s8, int8_t, ElementType::kInt8)
GRT_EXTREMUM_KERNELS(s16, int16_t, ElementType::kInt16)
GRT_EXTREMUM_KERNELS(s32, int32_t, ElementType::kInt32)
GRT_EXTREMUM_KERNELS(i64, int64_t, ElementType::kInt64)
GRT_EXTREMUM_KERNELS(f32, float, ElementType::kFloat32)
