// SOFTMAX over the last dimension, bit-exact with TFLM's reference kernels
// (reference/softmax.h): int8 in fixed point (exp of Q5.26 differences, sums in Q12.19),
// float32 with expf.
//
// softmax_s8 arguments (output quantization is TFLM's required scale 1/256, zero point -128;
// softmax_s8_s16 is the same with an int16 output of scale 1/65536, zero point -32768):
//   0 in X int8, rank >= 1
//   1 out Y int8 (softmax_s8_s16: int16), the shape of X
//   2 Int input_multiplier, Q31 in [0, 2^31 - 1]     (from beta * input scale, PreprocessSoftmaxScaling)
//   3 Int input_left_shift, in [0, 31]
//   4 Int diff_min, <= 0: differences from the row maximum below it contribute nothing
//
// softmax_f32 arguments:
//   0 in X float32, rank >= 1; 1 out Y float32, the shape of X; 2 Float beta
//
// On cores with the DSP extension the int8 kernels search each row's maximum and multiply
// in the exp as softmax_dsp.h does: the same integers.
#include <math.h>

#include "dense_args.h"
#include "softmax_dsp.h"
#include "softmax_int8.h"

namespace {

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace dense = grt::kernels::dense;
namespace fixed = grt::kernels::softmax;

void check_softmax_shapes(ArgCheck& check, TVMValue* args) {
  if (!check.ok()) return;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  const DLTensor* y = grt::kernels::tensor_at(args, 1);
  check.expect(x->ndim >= 1, "input must have rank >= 1")
      .expect(dense::same_shape(x, y), "output must have the input's shape")
      .expect(dense::fits_int(grt::kernels::element_count(x)), "input is too large");
}

#if GRT_KERNELS_DSP
using Int8Ops = grt::kernels::dsp::SoftmaxOps;
#else
using Int8Ops = fixed::PortableOps;
#endif

// TFLM's SoftmaxInt8 for an int8 or int16 output (OutputT), row by row.
template <typename OutputT>
void softmax_int8_input(TVMValue* args) {
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  DLTensor* y = grt::kernels::tensor_at(args, 1);
  const fixed::Int8Softmax params = {static_cast<int32_t>(grt::kernels::int_at(args, 2)),
                                     static_cast<int>(grt::kernels::int_at(args, 3)),
                                     static_cast<int32_t>(grt::kernels::int_at(args, 4))};
  const int depth = static_cast<int>(dense::last_dim(x));
  const int rows = depth == 0 ? 0 : static_cast<int>(grt::kernels::element_count(x) / depth);
  const int8_t* input = grt::kernels::data_of<const int8_t>(x);
  OutputT* output = grt::kernels::data_of<OutputT>(y);
  for (int row = 0; row < rows; ++row) {
    fixed::softmax_int8_row<OutputT, Int8Ops>(params, input + row * depth, output + row * depth, depth);
  }
}

}  // namespace

GRT_KERNEL_FUNCTION(softmax_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  softmax_int8_input<int8_t>(args);
  return 0;
}

GRT_KERNEL_FUNCTION(softmax_s8_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  softmax_int8_input<int16_t>(args);
  return 0;
}

namespace {

int check_softmax_int8_input(TVMValue* args, int* type_codes, int num_args, ElementType output) {
  ArgCheck check("softmax_s8", args, type_codes, num_args);
  check.count(5)
      .tensor(0, ElementType::kInt8)
      .tensor(1, output)
      .integer(2, 0, INT32_MAX)
      .integer(3, 0, 31)
      .integer(4, INT32_MIN, 0);
  check_softmax_shapes(check, args);
  return check.result();
}

}  // namespace

GRT_CHECK_FUNCTION(softmax_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return check_softmax_int8_input(args, type_codes, num_args, ElementType::kInt8);
}

GRT_CHECK_FUNCTION(softmax_s8_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return check_softmax_int8_input(args, type_codes, num_args, ElementType::kInt16);
}

GRT_KERNEL_FUNCTION(softmax_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  DLTensor* y = grt::kernels::tensor_at(args, 1);
  const float beta = static_cast<float>(grt::kernels::real_at(args, 2));

  const int depth = static_cast<int>(dense::last_dim(x));
  const int rows = depth == 0 ? 0 : static_cast<int>(grt::kernels::element_count(x) / depth);
  const float* input = grt::kernels::data_of<const float>(x);
  float* output = grt::kernels::data_of<float>(y);

  for (int row = 0; row < rows; ++row) {
    const float* in = input + row * depth;
    float* out = output + row * depth;
    float max_in_row = -3.40282347e+38f;  // lowest float, as the reference starts from
    for (int c = 0; c < depth; ++c) max_in_row = max_in_row < in[c] ? in[c] : max_in_row;
    // The output holds the exps until the sum is known, as in the reference.
    float sum = 0.0f;
    for (int c = 0; c < depth; ++c) {
      const float e = expf((in[c] - max_in_row) * beta);
      out[c] = e;
      sum += e;
    }
    for (int c = 0; c < depth; ++c) out[c] = out[c] / sum;
  }
  return 0;
}

GRT_CHECK_FUNCTION(softmax_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("softmax_f32", args, type_codes, num_args);
  check.count(3).tensor(0, ElementType::kFloat32).tensor(1, ElementType::kFloat32).real(2);
  check_softmax_shapes(check, args);
  return check.result();
}
