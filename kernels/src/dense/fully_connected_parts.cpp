// FULLY_CONNECTED in parts, for band plans (tools/bands): each band of the layer's input
// (rows of the tensor before it, consecutive elements of the flattened input) adds its
// products to an int32 sum per unit, and a last node adds the bias and requantizes. The sums
// wrap as fully_connected_s8's do, and wrapping sums do not depend on their order, so the
// result is bit-exact with fully_connected_s8 over the whole input. One batch.
//
// fully_connected_sum_s8 arguments:
//   0 in X int8, any shape: `length` consecutive elements of the layer's input
//   1 in W int8 [N, K]
//   2 out S int32 [N]: the running sums (read and written)
//   3 Int first_column: X's first element is input element first_column (first_column +
//     length <= K)
//   4 Int input_offset, 5 Int filter_offset: as fully_connected_s8's, in [-127, 128]
//   6 Int accumulate: 0 S gets X's products, 1 S gets them added
//
// fully_connected_finish_s8 arguments:
//   0 in S int32 [N]: the sums over the whole input
//   1 in B int32 [N], or None
//   2 out Y int8, N elements
//   3 IntArray requantization: as fully_connected_s8's
//   4 Int output_offset in [-128, 127], 5 Int act_min, 6 Int act_max
//
// fully_connected_sum_f32 / fully_connected_finish_f32: the same for float32, one batch.
// The sums are fully_connected_f32's eight lanes per unit (dense::kFloatLanes), so the parts
// add every product in the whole kernel's order and give its bits.
//   sum:    0 in X float32, `length` consecutive input elements; 1 in W float32 [N, K];
//           2 out S float32 [N, 8] (read and written); 3 Int first_column (as above);
//           4 Int accumulate (0 or 1)
//   finish: 0 in S float32 [N, 8]; 1 in B float32 [N], or None; 2 out Y float32, N elements;
//           3 Float act_min, 4 Float act_max
#include <stdint.h>

#include "dense_args.h"
#include "fully_connected_dsp.h"

namespace {

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace dense = grt::kernels::dense;

// A sum part's X (argument 0) runs within W's (argument 1) columns from `first_column` on.
void check_part_columns(ArgCheck& check, TVMValue* args, int64_t first_column) {
  const DLTensor* w = grt::kernels::tensor_at(args, 1);
  const int64_t length = grt::kernels::element_count(grt::kernels::tensor_at(args, 0));
  check.expect(w->shape[0] >= 1 && w->shape[1] >= 1 && dense::fits_int(grt::kernels::element_count(w)),
               "weights must be [units >= 1, depth >= 1] of at most 2^31 elements")
      .expect(first_column + length <= w->shape[1], "input runs past the weights' depth");
}

}  // namespace

GRT_KERNEL_FUNCTION(fully_connected_sum_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  const DLTensor* w = grt::kernels::tensor_at(args, 1);
  DLTensor* s = grt::kernels::tensor_at(args, 2);
  const int64_t first_column = grt::kernels::int_at(args, 3);
  const int32_t input_offset = static_cast<int32_t>(grt::kernels::int_at(args, 4));
  const int32_t filter_offset = static_cast<int32_t>(grt::kernels::int_at(args, 5));
  const bool accumulate = grt::kernels::int_at(args, 6) != 0;
  const int units = static_cast<int>(w->shape[0]);
  const int64_t depth = w->shape[1];
  const int length = static_cast<int>(grt::kernels::element_count(x));
  const int8_t* input = grt::kernels::data_of<const int8_t>(x);
  const int8_t* weights = grt::kernels::data_of<const int8_t>(w);
  uint32_t* sums = grt::kernels::data_of<uint32_t>(s);
#if GRT_KERNELS_DSP
  grt::kernels::dsp::fully_connected_sums(input, weights + first_column, static_cast<size_t>(depth), units,
                                          static_cast<size_t>(length), input_offset, filter_offset, accumulate, sums);
  return 0;
#endif
  for (int u = 0; u < units; ++u) {
    const int8_t* row = weights + u * depth + first_column;
    uint32_t sum = accumulate ? sums[u] : 0u;
    for (int k = 0; k < length; ++k) {
      sum += static_cast<uint32_t>((input[k] + input_offset) * (row[k] + filter_offset));
    }
    sums[u] = sum;
  }
  return 0;
}

GRT_CHECK_FUNCTION(fully_connected_sum_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("fully_connected_sum_s8", args, type_codes, num_args);
  check.count(7)
      .tensor(0, ElementType::kInt8)
      .tensor(1, ElementType::kInt8, 2)
      .tensor(2, ElementType::kInt32, 1)
      .integer(3, 0, INT32_MAX)
      .integer(4, -127, 128)
      .integer(5, -127, 128)
      .integer(6, 0, 1);
  if (!check.ok()) return check.result();
  check_part_columns(check, args, grt::kernels::int_at(args, 3));
  check.expect(grt::kernels::tensor_at(args, 2)->shape[0] == grt::kernels::tensor_at(args, 1)->shape[0], "sums must be one per unit");
  return check.result();
}

GRT_KERNEL_FUNCTION(fully_connected_finish_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* s = grt::kernels::tensor_at(args, 0);
  const DLTensor* b = grt::kernels::optional_tensor_at(args, 1);
  const uint32_t* sums = grt::kernels::data_of<const uint32_t>(s);
  const int32_t* bias = b != nullptr ? grt::kernels::data_of<const int32_t>(b) : nullptr;
  const dense::UnitScales scales = dense::unit_scales(grt::kernels::tensor_at(args, 3));
  const int32_t output_offset = static_cast<int32_t>(grt::kernels::int_at(args, 4));
  const int32_t act_min = static_cast<int32_t>(grt::kernels::int_at(args, 5));
  const int32_t act_max = static_cast<int32_t>(grt::kernels::int_at(args, 6));
  int8_t* output = grt::kernels::data_of<int8_t>(grt::kernels::tensor_at(args, 2));
  const int units = static_cast<int>(s->shape[0]);
  for (int u = 0; u < units; ++u) {
    output[u] = dense::fully_connected_unit_s8(sums[u], bias, u, scales.multiplier(u), scales.shift(u), output_offset, act_min, act_max);
  }
  return 0;
}

GRT_CHECK_FUNCTION(fully_connected_finish_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("fully_connected_finish_s8", args, type_codes, num_args);
  check.count(7)
      .tensor(0, ElementType::kInt32, 1)
      .optional_tensor(1, ElementType::kInt32, 1)
      .tensor(2, ElementType::kInt8)
      .tensor(3, ElementType::kInt32, 1)
      .integer(4, -128, 127)
      .integer(5, -128, 127)
      .integer(6, -128, 127);
  if (!check.ok()) return check.result();
  const int64_t units = grt::kernels::tensor_at(args, 0)->shape[0];
  const DLTensor* b = grt::kernels::optional_tensor_at(args, 1);
  check.expect(dense::fits_int(units), "too many units")
      .expect(b == nullptr || b->shape[0] == units, "bias must have one value per unit")
      .expect(grt::kernels::element_count(grt::kernels::tensor_at(args, 2)) == units, "output must hold one value per unit")
      .expect(grt::kernels::int_at(args, 5) <= grt::kernels::int_at(args, 6), "act_min exceeds act_max");
  dense::check_unit_scales(check, grt::kernels::tensor_at(args, 3), units);
  return check.result();
}

GRT_KERNEL_FUNCTION(fully_connected_sum_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  const DLTensor* w = grt::kernels::tensor_at(args, 1);
  const int64_t first_column = grt::kernels::int_at(args, 3);
  const bool accumulate = grt::kernels::int_at(args, 4) != 0;
  const int units = static_cast<int>(w->shape[0]);
  const int64_t depth = w->shape[1];
  const int length = static_cast<int>(grt::kernels::element_count(x));
  const float* input = grt::kernels::data_of<const float>(x);
  const float* weights = grt::kernels::data_of<const float>(w);
  float* sums = grt::kernels::data_of<float>(grt::kernels::tensor_at(args, 2));
  for (int u = 0; u < units; ++u) {
    const float* row = weights + u * depth + first_column;
    float* lanes = sums + u * dense::kFloatLanes;
    if (!accumulate) {
      for (int j = 0; j < dense::kFloatLanes; ++j) lanes[j] = 0.0f;
    }
    for (int k = 0; k < length; ++k) lanes[(first_column + k) % dense::kFloatLanes] += input[k] * row[k];
  }
  return 0;
}

GRT_CHECK_FUNCTION(fully_connected_sum_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("fully_connected_sum_f32", args, type_codes, num_args);
  check.count(5)
      .tensor(0, ElementType::kFloat32)
      .tensor(1, ElementType::kFloat32, 2)
      .tensor(2, ElementType::kFloat32, 2)
      .integer(3, 0, INT32_MAX)
      .integer(4, 0, 1);
  if (!check.ok()) return check.result();
  check_part_columns(check, args, grt::kernels::int_at(args, 3));
  const DLTensor* s = grt::kernels::tensor_at(args, 2);
  check.expect(s->shape[0] == grt::kernels::tensor_at(args, 1)->shape[0] && s->shape[1] == dense::kFloatLanes, "sums must be [units, 8]");
  return check.result();
}

GRT_KERNEL_FUNCTION(fully_connected_finish_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* s = grt::kernels::tensor_at(args, 0);
  const DLTensor* b = grt::kernels::optional_tensor_at(args, 1);
  const float* sums = grt::kernels::data_of<const float>(s);
  const float* bias = b != nullptr ? grt::kernels::data_of<const float>(b) : nullptr;
  float* output = grt::kernels::data_of<float>(grt::kernels::tensor_at(args, 2));
  const float act_min = static_cast<float>(grt::kernels::real_at(args, 3));
  const float act_max = static_cast<float>(grt::kernels::real_at(args, 4));
  const int units = static_cast<int>(s->shape[0]);
  for (int u = 0; u < units; ++u) {
    const float total = dense::combine_lanes(sums + u * dense::kFloatLanes);
    output[u] = dense::clamp_float(total + (bias != nullptr ? bias[u] : 0.0f), act_min, act_max);
  }
  return 0;
}

GRT_CHECK_FUNCTION(fully_connected_finish_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("fully_connected_finish_f32", args, type_codes, num_args);
  check.count(5)
      .tensor(0, ElementType::kFloat32, 2)
      .optional_tensor(1, ElementType::kFloat32, 1)
      .tensor(2, ElementType::kFloat32)
      .real(3)
      .real(4);
  if (!check.ok()) return check.result();
  const DLTensor* s = grt::kernels::tensor_at(args, 0);
  const int64_t units = s->shape[0];
  const DLTensor* b = grt::kernels::optional_tensor_at(args, 1);
  check.expect(dense::fits_int(units) && s->shape[1] == dense::kFloatLanes, "sums must be [units, 8]")
      .expect(b == nullptr || b->shape[0] == units, "bias must have one value per unit")
      .expect(grt::kernels::element_count(grt::kernels::tensor_at(args, 2)) == units, "output must hold one value per unit")
      .expect(!(grt::kernels::real_at(args, 4) < grt::kernels::real_at(args, 3)), "act_min exceeds act_max");
  return check.result();
}
