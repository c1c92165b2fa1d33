// FULLY_CONNECTED, bit-exact with TFLM's reference kernels (integer_ops/fully_connected.h
// for int8, fully_connected.h for float32). Y[b, n] = act(sum_k X[b, k] * W[n, k] + B[n]).
//
// fully_connected_s8 arguments:
//   0 in X int8, any rank, batches * K elements (batches = elements of Y / N)
//   1 in W int8 [N, K]
//   2 in B int32 [N], or None
//   3 out Y int8, last dimension N
//   4 IntArray requantization int32: N (per channel) or 1 (per tensor) Q31 multipliers, then
//     as many shifts, each in [-31, 30]
//   5 Int input_offset = -input zero point, in [-127, 128]
//   6 Int filter_offset = -filter zero point, in [-127, 128] (0 for per-channel: TFLM ignores it)
//   7 Int output_offset = output zero point, in [-128, 127]
//   8 Int act_min, 9 Int act_max: -128 <= act_min <= act_max <= 127
//
// fully_connected_f32 arguments:
//   0 in X float32, 1 in W float32 [N, K], 2 in B float32 [N] or None, 3 out Y float32
//   (shapes as above), 4 Float act_min, 5 Float act_max
#include <stddef.h>
#include <stdint.h>

#include "../quant_math.h"
#include "dense_args.h"
#include "fully_connected_dsp.h"

namespace {

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace dense = grt::kernels::dense;

// sum_k x[k] * w[k] in eight interleaved partial sums (dense::kFloatLanes), combined
// pairwise: a different order from the reference's running sum, well inside the float
// tolerance.
inline float dot_f32(const float* x, const float* w, int length) {
  float lanes[dense::kFloatLanes] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  int k = 0;
  for (; k + dense::kFloatLanes <= length; k += dense::kFloatLanes) {
    for (int j = 0; j < dense::kFloatLanes; ++j) lanes[j] += x[k + j] * w[k + j];
  }
  for (int j = 0; k < length; ++k, ++j) lanes[j] += x[k] * w[k];
  return dense::combine_lanes(lanes);
}

// Input elements staged (as int16, offset added) per pass; 512 bytes of stack.
constexpr int kStageLength = 256;
// Output units computed per pass over a staged chunk.
constexpr int kUnitBlock = 4;

// staged[k] = x[k] + input_offset, in [-255, 255].
inline void stage_input(const int8_t* x, int length, int32_t input_offset, int16_t* staged) {
  const int16_t offset = static_cast<int16_t>(input_offset);
  for (int k = 0; k < length; ++k) staged[k] = static_cast<int16_t>(x[k] + offset);
}

inline int32_t staged_sum(const int16_t* staged, int length) {
  int32_t sum = 0;  // |sum| <= 256 * 255
  for (int k = 0; k < length; ++k) sum += staged[k];
  return sum;
}

// sum_k x[k] * w[k] for length <= kStageLength: |sum| <= 256 * 255 * 128 < 2^31. Blocks of a
// fixed 32 products, which GCC -O2 turns into SIMD multiply-adds.
inline int32_t dot_s16_s8(const int16_t* x, const int8_t* w, int length) {
  int32_t sum = 0;
  int k = 0;
  for (; k + 32 <= length; k += 32) {
    int32_t part = 0;
    for (int j = 0; j < 32; ++j) part += x[k + j] * w[k + j];
    sum += part;
  }
  for (; k + 8 <= length; k += 8) {
    int32_t part = 0;
    for (int j = 0; j < 8; ++j) part += x[k + j] * w[k + j];
    sum += part;
  }
  for (; k < length; ++k) sum += x[k] * w[k];
  return sum;
}

// Shapes shared by both types: W [N, K], Y [..., N], X batches * K elements, B [N].
void check_fully_connected_shapes(ArgCheck& check, TVMValue* args) {
  if (!check.ok()) return;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  const DLTensor* w = grt::kernels::tensor_at(args, 1);
  const DLTensor* b = grt::kernels::optional_tensor_at(args, 2);
  const DLTensor* y = grt::kernels::tensor_at(args, 3);
  const int64_t units = w->shape[0];
  const int64_t depth = w->shape[1];
  check.expect(units >= 1 && depth >= 1, "weights must be [units >= 1, depth >= 1]");
  check.expect(y->ndim >= 1 && dense::last_dim(y) == units, "output's last dimension must equal the weights' units");
  if (!check.ok()) return;
  const int64_t batches = grt::kernels::element_count(y) / units;
  check.expect(dense::fits_int(grt::kernels::element_count(x)) && dense::fits_int(grt::kernels::element_count(w)) &&
                   dense::fits_int(grt::kernels::element_count(y)),
               "tensors are too large");
  check.expect(grt::kernels::element_count(x) == batches * depth, "input must hold batches * depth elements");
  check.expect(b == nullptr || grt::kernels::element_count(b) == units, "bias must have one value per unit");
}

}  // namespace

GRT_KERNEL_FUNCTION(fully_connected_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using grt::kernels::data_of;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  const DLTensor* w = grt::kernels::tensor_at(args, 1);
  const DLTensor* b = grt::kernels::optional_tensor_at(args, 2);
  DLTensor* y = grt::kernels::tensor_at(args, 3);
  const dense::UnitScales scales = dense::unit_scales(grt::kernels::tensor_at(args, 4));
  const int32_t input_offset = static_cast<int32_t>(grt::kernels::int_at(args, 5));
  const int32_t filter_offset = static_cast<int32_t>(grt::kernels::int_at(args, 6));
  const int32_t output_offset = static_cast<int32_t>(grt::kernels::int_at(args, 7));
  const int32_t act_min = static_cast<int32_t>(grt::kernels::int_at(args, 8));
  const int32_t act_max = static_cast<int32_t>(grt::kernels::int_at(args, 9));

  const int units = static_cast<int>(w->shape[0]);
  const int depth = static_cast<int>(w->shape[1]);
  const int batches = static_cast<int>(grt::kernels::element_count(y) / units);
  const int8_t* input = data_of<const int8_t>(x);
  const int8_t* weights = data_of<const int8_t>(w);
  const int32_t* bias = b != nullptr ? data_of<const int32_t>(b) : nullptr;
  int8_t* output = data_of<int8_t>(y);
#if GRT_KERNELS_DSP
  // On cores with the DSP extension: fully_connected_dsp.h.
  const grt::kernels::dsp::FullyConnectedS8 dsp{input,         weights,       scales,  bias,    batches,
                                                units,         depth,         input_offset, filter_offset,
                                                output_offset, act_min,       act_max};
  grt::kernels::dsp::fully_connected_s8(dsp, output);
  return 0;
#endif

  // Every product (x + input_offset) * (w + filter_offset) is split as
  // (x + input_offset) * w + filter_offset * (x + input_offset): the first part is a dot
  // product of the offset input (int16, staged per chunk) with the raw weights, the second
  // filter_offset times the chunk's input sum. All in wrapping int32, as TFLM's sum is.
  int16_t staged[kStageLength];
  for (int batch = 0; batch < batches; ++batch) {
    const int8_t* input_row = input + batch * depth;
    int8_t* output_row = output + batch * units;
    for (int first_unit = 0; first_unit < units; first_unit += kUnitBlock) {
      const int block = units - first_unit < kUnitBlock ? units - first_unit : kUnitBlock;
      uint32_t acc[kUnitBlock] = {};
      for (int start = 0; start < depth; start += kStageLength) {
        const int length = depth - start < kStageLength ? depth - start : kStageLength;
        // One chunk serves the whole row block; a depth within one chunk is staged once per batch.
        if (first_unit == 0 || depth > kStageLength) {
          stage_input(input_row + start, length, input_offset, staged);
        }
        const uint32_t offset_part =
            filter_offset != 0 ? static_cast<uint32_t>(filter_offset) * static_cast<uint32_t>(staged_sum(staged, length))
                               : 0u;
        for (int u = 0; u < block; ++u) {
          const int8_t* weight_row = weights + static_cast<size_t>(first_unit + u) * depth + start;
          acc[u] += static_cast<uint32_t>(dot_s16_s8(staged, weight_row, length)) + offset_part;
        }
      }
      for (int u = 0; u < block; ++u) {
        const int unit = first_unit + u;
        output_row[unit] = dense::fully_connected_unit_s8(acc[u], bias, unit, scales.multiplier(unit), scales.shift(unit),
                                                          output_offset, act_min, act_max);
      }
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(fully_connected_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("fully_connected_s8", args, type_codes, num_args);
  check.count(10)
      .tensor(0, ElementType::kInt8)
      .tensor(1, ElementType::kInt8, 2)
      .optional_tensor(2, ElementType::kInt32, 1)
      .tensor(3, ElementType::kInt8)
      .tensor(4, ElementType::kInt32, 1)
      .integer(5, -127, 128)
      .integer(6, -127, 128)
      .integer(7, -128, 127)
      .integer(8, -128, 127)
      .integer(9, -128, 127);
  check_fully_connected_shapes(check, args);
  if (!check.ok()) return check.result();
  dense::check_unit_scales(check, grt::kernels::tensor_at(args, 4), grt::kernels::tensor_at(args, 1)->shape[0]);
  check.expect(grt::kernels::int_at(args, 8) <= grt::kernels::int_at(args, 9), "act_min exceeds act_max");
  return check.result();
}

GRT_KERNEL_FUNCTION(fully_connected_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using grt::kernels::data_of;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  const DLTensor* w = grt::kernels::tensor_at(args, 1);
  const DLTensor* b = grt::kernels::optional_tensor_at(args, 2);
  DLTensor* y = grt::kernels::tensor_at(args, 3);
  const float act_min = static_cast<float>(grt::kernels::real_at(args, 4));
  const float act_max = static_cast<float>(grt::kernels::real_at(args, 5));

  const int units = static_cast<int>(w->shape[0]);
  const int depth = static_cast<int>(w->shape[1]);
  const int batches = static_cast<int>(grt::kernels::element_count(y) / units);
  const float* input = data_of<const float>(x);
  const float* weights = data_of<const float>(w);
  const float* bias = b != nullptr ? data_of<const float>(b) : nullptr;
  float* output = data_of<float>(y);

  for (int batch = 0; batch < batches; ++batch) {
    const float* input_row = input + batch * depth;
    float* output_row = output + batch * units;
    for (int unit = 0; unit < units; ++unit) {
      const float* weight_row = weights + unit * depth;
      // Products in eight interleaved partial sums (vectorizable), bias last.
      const float total = dot_f32(input_row, weight_row, depth);
      const float bias_value = bias != nullptr ? bias[unit] : 0.0f;
      output_row[unit] = dense::clamp_float(total + bias_value, act_min, act_max);
    }
  }
  return 0;
}

GRT_CHECK_FUNCTION(fully_connected_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("fully_connected_f32", args, type_codes, num_args);
  check.count(6)
      .tensor(0, ElementType::kFloat32)
      .tensor(1, ElementType::kFloat32, 2)
      .optional_tensor(2, ElementType::kFloat32, 1)
      .tensor(3, ElementType::kFloat32)
      .real(4)
      .real(5);
  check_fully_connected_shapes(check, args);
  if (check.ok()) check.expect(!(grt::kernels::real_at(args, 5) < grt::kernels::real_at(args, 4)), "act_min exceeds act_max");
  return check.result();
}
