// Helpers shared by the binary kernel family (kernels/src/binary/): the argument checks of
// the common layouts (two broadcast inputs and an output, plus a clamp range or a rescaling),
// clamps with TFLM's order of comparisons, and the packed-function boilerplate.
#ifndef GRAPHRT_KERNELS_BINARY_BINARY_COMMON_H_
#define GRAPHRT_KERNELS_BINARY_BINARY_COMMON_H_

#include <stdint.h>

#include "../elementwise/broadcast.h"
#include "../kernel_args.h"
#include "../quant_math.h"

namespace grt::kernels::binary {

using elementwise::broadcast_binary;
using elementwise::broadcast_shapes_match;

// Booleans are one byte per element (DLPack kDLUInt, 1 bit): read as zero / non-zero, written as 0 / 1.
using BoolStorage = uint8_t;

// Arguments 0 and 1 are input tensors of type `in`, argument 2 the output of type `out`,
// and the output's shape is the inputs' shapes broadcast.
inline void check_broadcast_operands(ArgCheck& check, TVMValue* args, ElementType in, ElementType out) {
  check.tensor(0, in).tensor(1, in).tensor(2, out);
  if (check.ok()) {
    check.expect(broadcast_shapes_match(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2)),
                 "output shape is not the broadcast of the input shapes");
  }
}

// A kernel of three tensor arguments and nothing else: inputs 0 and 1 of `in`, output 2 of `out`.
inline int check_three_operands(ElementType in, ElementType out, TVMValue* args, int* codes, int count) {
  ArgCheck check("binary", args, codes, count);
  check.count(3);
  check_broadcast_operands(check, args, in, out);
  return check.result();
}

// A kernel of A, B, Y and a clamp range: arguments 3 and 4 are Floats for float32, Ints otherwise.
inline int check_clamped_operands(ElementType type, TVMValue* args, int* codes, int count) {
  ArgCheck check("binary", args, codes, count);
  check.count(5);
  check_broadcast_operands(check, args, type, type);
  if (type == ElementType::kFloat32) {
    check.real(3).real(4);
    if (check.ok()) check.expect(real_at(args, 3) <= real_at(args, 4), "activation_min is above activation_max");
  } else {
    check.integer(3, INT32_MIN, INT32_MAX).integer(4, INT32_MIN, INT32_MAX);
    if (check.ok()) check.expect(int_at(args, 3) <= int_at(args, 4), "activation_min is above activation_max");
  }
  return check.result();
}

// The quantized MUL and DIV layout: A, B, Y of `type`, then 3 a_offset, 4 b_offset (both in
// [offset_low, offset_high]), 5 out_offset, 6 multiplier, 7 shift (in [-31, max_shift]),
// 8 activation_min, 9 activation_max (all three inside [type_min, type_max]).
inline int check_rescaled_operands(ElementType type, int32_t type_min, int32_t type_max, int32_t offset_low,
                                   int32_t offset_high, int max_shift, TVMValue* args, int* codes, int count) {
  ArgCheck check("binary", args, codes, count);
  check.count(10);
  check_broadcast_operands(check, args, type, type);
  check.integer(3, offset_low, offset_high)
      .integer(4, offset_low, offset_high)
      .integer(5, type_min, type_max)
      .integer(6, 0, INT32_MAX)
      .integer(7, -31, max_shift)
      .integer(8, type_min, type_max)
      .integer(9, type_min, type_max);
  if (check.ok()) check.expect(int_at(args, 8) <= int_at(args, 9), "activation_min is above activation_max");
  return check.result();
}

// Y = op(A, B) over arguments 0, 1 and 2, for operators without parameters.
template <typename In, typename Out, typename Op>
int run_operands(TVMValue* args) {
  broadcast_binary<In, Out>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), Op{});
  return 0;
}

// TFLM's dividing kernels that test their denominators do so before writing anything.
template <typename T>
bool has_zero(const DLTensor* t) {
  const T* data = data_of<const T>(t);
  const int64_t count = element_count(t);
  for (int64_t i = 0; i < count; ++i) {
    if (data[i] == T{0}) return true;
  }
  return false;
}

// TFLM's ActivationFunctionWithMinMax: min(max(x, low), high) with std::min/std::max's
// comparisons, so a float NaN passes through unchanged.
template <typename T>
inline T clamp_to(T x, T low, T high) {
  const T raised = x < low ? low : x;
  return high < raised ? high : raised;
}

}  // namespace grt::kernels::binary

// A kernel and its check in one line: `run` is an expression of `args`, `check` one of
// `args`, `type_codes` and `num_args`.
#define GRT_BINARY_KERNEL(name, run, check)                                                       \
  GRT_KERNEL_FUNCTION(name) {                                                                    \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle; \
    return run;                                                                                  \
  }                                                                                              \
  GRT_CHECK_FUNCTION(name) {                                                                     \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                                 \
    return check;                                                                                \
  }

#endif  // GRAPHRT_KERNELS_BINARY_BINARY_COMMON_H_
