// MEAN over the spatial axes (1 and 2) of an NHWC tensor, bit-exact with the path TFLM's
// reference MEAN takes for int8 (reference/reduce.h QuantizedMeanOrSum): int32 sums per
// channel, minus zero point * count, then one requantization whose multiplier already folds
// in 1 / count (the converter does TFLM's folding).
//
// mean_s8 arguments:
//   0 in X int8 [N, H, W, C], H * W >= 1
//   1 out Y int8, N * C elements ([N, 1, 1, C] with keep_dims, [N, C] without)
//   2 Int input_zero_point, in [-128, 127]
//   3 Int multiplier (Q31, with 1 / (H * W) folded in), 4 Int shift in [-31, 30]
//   5 Int output_zero_point, in [-128, 127]
// Workspace: C int32 sums, GRT_STACK_ALLOCATION_BYTES(4 * C, 16).
#include "../quant_math.h"
#include "dense_args.h"

namespace {

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace dense = grt::kernels::dense;

}  // namespace

GRT_KERNEL_FUNCTION(mean_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  DLTensor* y = grt::kernels::tensor_at(args, 1);
  const int32_t input_zero_point = static_cast<int32_t>(grt::kernels::int_at(args, 2));
  const int32_t multiplier = static_cast<int32_t>(grt::kernels::int_at(args, 3));
  const int shift = static_cast<int>(grt::kernels::int_at(args, 4));
  const int32_t output_zero_point = static_cast<int32_t>(grt::kernels::int_at(args, 5));

  const int batches = static_cast<int>(x->shape[0]);
  const int positions = static_cast<int>(x->shape[1] * x->shape[2]);
  const int channels = static_cast<int>(x->shape[3]);
  if (channels == 0 || batches == 0) return 0;
  auto* sums = static_cast<int32_t*>(
      TVMBackendAllocWorkspace(kDLCPU, 0, static_cast<uint64_t>(channels) * sizeof(int32_t), kDLInt, 32));
  if (sums == nullptr) return -1;  // the workspace call has reported why

  // zero point * count, wrapped to int32 as the reference's int32 arithmetic does.
  const int32_t zero_point_total = dense::wrapping_mul(input_zero_point, positions);
  const int8_t* input = grt::kernels::data_of<const int8_t>(x);
  int8_t* output = grt::kernels::data_of<int8_t>(y);
  for (int batch = 0; batch < batches; ++batch) {
    for (int c = 0; c < channels; ++c) sums[c] = 0;
    const int8_t* image = input + batch * positions * channels;
    for (int position = 0; position < positions; ++position) {
      const int8_t* pixel = image + position * channels;
      for (int c = 0; c < channels; ++c) sums[c] = dense::wrapping_add(sums[c], pixel[c]);
    }
    int8_t* out = output + batch * channels;
    for (int c = 0; c < channels; ++c) {
      const int32_t centered = dense::wrapping_add(sums[c], -zero_point_total);
      const int32_t scaled = grt::kernels::multiply_by_quantized_multiplier(centered, multiplier, shift);
      out[c] = static_cast<int8_t>(dense::clamp_int(dense::wrapping_add(scaled, output_zero_point), INT8_MIN, INT8_MAX));
    }
  }
  TVMBackendFreeWorkspace(kDLCPU, 0, sums);
  return 0;
}

GRT_CHECK_FUNCTION(mean_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("mean_s8", args, type_codes, num_args);
  check.count(6)
      .tensor(0, ElementType::kInt8, 4)
      .tensor(1, ElementType::kInt8)
      .integer(2, -128, 127)
      .integer(3, INT32_MIN, INT32_MAX)
      .integer(4, -31, 30)
      .integer(5, -128, 127);
  if (!check.ok()) return check.result();
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  const DLTensor* y = grt::kernels::tensor_at(args, 1);
  check.expect(dense::fits_int(grt::kernels::element_count(x)), "input is too large")
      .expect(x->shape[1] * x->shape[2] >= 1, "input must have a non-empty image")
      .expect(grt::kernels::element_count(y) == x->shape[0] * x->shape[3], "output must hold batches * channels values");
  return check.result();
}
