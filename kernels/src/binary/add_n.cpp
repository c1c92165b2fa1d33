// ADD_N: the elementwise sum of two or more tensors of one shape, as TFLM's reference.
//
// add_n_f32 takes 0 out Y, then 1.. in X0, X1, ... (float32, Y's shape; at least two).
//   Each sum starts from 0.0f and adds the inputs in order.
// add_n_s8 takes:
//   0 out Y, 1 Int left_shift (TFLM: 20), 2 Int input_offset (-zero point shared by the inputs),
//   3 Int input_multiplier, 4 Int input_shift (0.5 as TFLM derives it; shift <= 0),
//   5 Int out_offset, 6 Int out_multiplier, 7 Int out_shift (shift <= 0),
//   then 8.. in X0, X1, ... (int8, Y's shape; at least two).
//   Like TFLM, the sum starts from the scaled input offset itself (its "x = 0" term), then
//   adds each scaled input; the total is scaled to the output and saturated to int8.
// The output comes first so that the written argument has a fixed index.
#include <stdint.h>

#include "../quant_math.h"
#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

constexpr int kQuantizedFirstInput = 8;

int run_float_add_n(TVMValue* args, int num_args) {
  DLTensor* out = tensor_at(args, 0);
  float* y = data_of<float>(out);
  const int64_t count = element_count(out);
  for (int64_t i = 0; i < count; ++i) {
    float sum = 0.0f;
    for (int j = 1; j < num_args; ++j) sum += data_of<const float>(tensor_at(args, j))[i];
    y[i] = sum;
  }
  return 0;
}

int run_quantized_add_n(TVMValue* args, int num_args) {
  DLTensor* out = tensor_at(args, 0);
  int8_t* y = data_of<int8_t>(out);
  const int left_shift = static_cast<int>(int_at(args, 1));
  const int32_t input_offset = static_cast<int32_t>(int_at(args, 2));
  const int32_t input_multiplier = static_cast<int32_t>(int_at(args, 3));
  const int input_shift = static_cast<int>(int_at(args, 4));
  const int32_t out_offset = static_cast<int32_t>(int_at(args, 5));
  const int32_t out_multiplier = static_cast<int32_t>(int_at(args, 6));
  const int out_shift = static_cast<int>(int_at(args, 7));
  const auto scale_input = [&](int32_t x) {
    return multiply_by_quantized_multiplier(x * (int32_t{1} << left_shift), input_multiplier, input_shift);
  };
  const int32_t start = scale_input(input_offset);
  const int64_t count = element_count(out);
  for (int64_t i = 0; i < count; ++i) {
    int32_t sum = start;
    for (int j = kQuantizedFirstInput; j < num_args; ++j) {
      sum = wrapping_add(sum, scale_input(input_offset + data_of<const int8_t>(tensor_at(args, j))[i]));
    }
    const int32_t raw = wrapping_add(multiply_by_quantized_multiplier(sum, out_multiplier, out_shift), out_offset);
    y[i] = static_cast<int8_t>(clamp_to(raw, int32_t{INT8_MIN}, int32_t{INT8_MAX}));
  }
  return 0;
}

// Every argument from `first` on is an input of `type` with the output's shape.
void check_summands(ArgCheck& check, TVMValue* args, int count, int first, ElementType type) {
  check.expect(count - first >= 2, "ADD_N needs at least two inputs");
  for (int j = first; j < count && check.ok(); ++j) {
    check.tensor(j, type);
    if (check.ok()) check.expect(elementwise::same_shape(tensor_at(args, j), tensor_at(args, 0)), "inputs and output shapes differ");
  }
}

int check_float_add_n(TVMValue* args, int* codes, int count) {
  ArgCheck check("add_n_f32", args, codes, count);
  check.tensor(0, ElementType::kFloat32);
  if (check.ok()) check_summands(check, args, count, 1, ElementType::kFloat32);
  return check.result();
}

int check_quantized_add_n(TVMValue* args, int* codes, int count) {
  ArgCheck check("add_n_s8", args, codes, count);
  check.tensor(0, ElementType::kInt8)
      .integer(1, 0, 23)  // |x + offset| <= 255: the shifted value stays inside int32
      .integer(2, -INT8_MAX, -INT8_MIN)
      .integer(3, 0, INT32_MAX)
      .integer(4, -31, 0)
      .integer(5, INT8_MIN, INT8_MAX)
      .integer(6, 0, INT32_MAX)
      .integer(7, -31, 0);
  if (check.ok()) check_summands(check, args, count, kQuantizedFirstInput, ElementType::kInt8);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::binary

using namespace grt::kernels::binary;

GRT_BINARY_KERNEL(add_n_f32, run_float_add_n(args, num_args), check_float_add_n(args, type_codes, num_args))
GRT_BINARY_KERNEL(add_n_s8, run_quantized_add_n(args, num_args), check_quantized_add_n(args, type_codes, num_args))
