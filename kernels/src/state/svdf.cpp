// SVDF, bit-exact with TFLM's svdf_common.cc (EvalIntegerSvdfReference for int8 input with
// int16 or int8 state, EvalFloatSvdfReference for float32). Each run shifts every filter's
// memory left by one step, writes the new feature projection into the last step, then
// Y[b, u] = act(B[u] + sum over the unit's `rank` filters of dot(weights_time[f], memory[f])).
//
// Arguments of both:
//   0 in X [batch, input]
//   1 in weights_feature [filters, input]
//   2 in weights_time [filters, memory]
//   3 in B [units] (int32 / float32), or None; units = filters / rank
//   4 out state [batch, memory * filters]: a State tensor, read and written
//   5 out Y [batch, units]
//   6 Int rank >= 1
// svdf_s8 (X, weights_feature int8; weights_time and state both int16 or both int8):
//   7 Int input zero point, 8 Int / 9 Int multiplier and shift of
//   input scale * feature scale / state scale, 10 Int / 11 Int multiplier and shift of
//   state scale * time scale / output scale, 12 Int output zero point, 13 Int state zero
//   point (0 for int16 state). TFLM applies no fused activation here, only the int8 clamp.
// svdf_f32: 7 Float act_min, 8 Float act_max (the fused activation's clamp).
#include <stddef.h>
#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"

namespace {

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
using grt::kernels::data_of;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

struct SvdfShape {
  int batch, input, filters, memory, rank, units;
};

SvdfShape shape_of(TVMValue* args) {
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* time = tensor_at(args, 2);
  SvdfShape s;
  s.batch = static_cast<int>(x->shape[0]);
  s.input = static_cast<int>(x->shape[1]);
  s.filters = static_cast<int>(time->shape[0]);
  s.memory = static_cast<int>(time->shape[1]);
  s.rank = static_cast<int>(int_at(args, 6));
  s.units = s.filters / s.rank;
  return s;
}

// Shapes shared by both types, after the dtypes and ranks are checked.
void check_svdf_shapes(ArgCheck& check, TVMValue* args) {
  check.integer(6, 1, INT32_MAX);
  if (!check.ok()) return;
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* feature = tensor_at(args, 1);
  const DLTensor* time = tensor_at(args, 2);
  const DLTensor* bias = grt::kernels::optional_tensor_at(args, 3);
  const DLTensor* state = tensor_at(args, 4);
  const DLTensor* y = tensor_at(args, 5);
  const int64_t rank = int_at(args, 6);
  const int64_t filters = time->shape[0];
  const int64_t memory = time->shape[1];
  constexpr int64_t kLimit = int64_t{1} << 24;  // every product below stays in int
  check.expect(x->shape[0] >= 1 && x->shape[1] >= 1 && x->shape[0] < kLimit && x->shape[1] < kLimit, "input must be [batch, input]");
  check.expect(filters >= 1 && memory >= 1 && filters < kLimit && memory < kLimit && filters * memory < kLimit,
               "weights_time must be [filters, memory]");
  check.expect(feature->shape[0] == filters && feature->shape[1] == x->shape[1], "weights_feature must be [filters, input]");
  check.expect(filters % rank == 0, "filters must be a multiple of rank");
  if (!check.ok()) return;
  const int64_t units = filters / rank;
  check.expect(x->shape[0] * filters * memory < kLimit * 64, "state is too large");
  check.expect(state->shape[0] == x->shape[0] && state->shape[1] == memory * filters, "state must be [batch, memory * filters]");
  check.expect(y->shape[0] == x->shape[0] && y->shape[1] == units, "output must be [batch, units]");
  check.expect(bias == nullptr || (bias->ndim == 1 && bias->shape[0] == units), "bias must have one value per unit");
}

// Every filter's memory one step older: the whole state moves left by one element, as in
// TFLM (the element that crosses into the previous filter's last step is overwritten next).
template <typename T>
void shift_state(T* state, int count) {
  for (int i = 0; i + 1 < count; ++i) state[i] = state[i + 1];
}

template <typename T>
void svdf_integer(TVMValue* args) {
  const SvdfShape s = shape_of(args);
  const int8_t* x = data_of<const int8_t>(tensor_at(args, 0));
  const int8_t* feature = data_of<const int8_t>(tensor_at(args, 1));
  const T* time = data_of<const T>(tensor_at(args, 2));
  const DLTensor* bias_tensor = grt::kernels::optional_tensor_at(args, 3);
  const int32_t* bias = bias_tensor != nullptr ? data_of<const int32_t>(bias_tensor) : nullptr;
  T* state = data_of<T>(tensor_at(args, 4));
  int8_t* y = data_of<int8_t>(tensor_at(args, 5));
  const int32_t input_zero = static_cast<int32_t>(int_at(args, 7));
  const int32_t multiplier_1 = static_cast<int32_t>(int_at(args, 8));
  const int shift_1 = static_cast<int>(int_at(args, 9));
  const int32_t multiplier_2 = static_cast<int32_t>(int_at(args, 10));
  const int shift_2 = static_cast<int>(int_at(args, 11));
  const int32_t output_zero = static_cast<int32_t>(int_at(args, 12));
  const int32_t state_zero = static_cast<int32_t>(int_at(args, 13));
  constexpr int32_t kStateMin = sizeof(T) == 1 ? INT8_MIN : INT16_MIN;
  constexpr int32_t kStateMax = sizeof(T) == 1 ? INT8_MAX : INT16_MAX;
  const int per_batch = s.filters * s.memory;

  shift_state(state, s.batch * per_batch);
  for (int b = 0; b < s.batch; ++b) {
    const int8_t* in = x + b * s.input;
    T* newest = state + b * per_batch + s.memory - 1;
    for (int f = 0; f < s.filters; ++f) {
      const int8_t* w = feature + f * s.input;
      int32_t dot = 0;
      for (int k = 0; k < s.input; ++k) dot += w[k] * (in[k] - input_zero);
      int32_t v = grt::kernels::multiply_by_quantized_multiplier(dot, multiplier_1, shift_1) + state_zero;
      v = v < kStateMin ? kStateMin : (v > kStateMax ? kStateMax : v);
      newest[f * s.memory] = static_cast<T>(v);
    }
  }
  // Integer sums: adding each filter's dot product straight into its unit gives TFLM's
  // bytes without its scratch buffers.
  for (int b = 0; b < s.batch; ++b) {
    const T* memory = state + b * per_batch;
    for (int u = 0; u < s.units; ++u) {
      int32_t acc = bias != nullptr ? bias[u] : 0;
      for (int r = 0; r < s.rank; ++r) {
        const int f = u * s.rank + r;
        const T* w = time + f * s.memory;
        const T* m = memory + f * s.memory;
        // int16 x int16 products summed in int32 wrap as TFLM's sums do on every target
        // (saturated outputs depend on it), defined here.
        int32_t dot = 0;
        for (int j = 0; j < s.memory; ++j) {
          dot = grt::kernels::wrapping_add(dot, static_cast<int32_t>(w[j]) * (static_cast<int32_t>(m[j]) - state_zero));
        }
        acc = grt::kernels::wrapping_add(acc, dot);
      }
      int32_t v = grt::kernels::multiply_by_quantized_multiplier(acc, multiplier_2, shift_2) + output_zero;
      v = v < INT8_MIN ? INT8_MIN : (v > INT8_MAX ? INT8_MAX : v);
      y[b * s.units + u] = static_cast<int8_t>(v);
    }
  }
}

}  // namespace

GRT_CHECK_FUNCTION(svdf_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("svdf_s8", args, type_codes, num_args);
  check.count(14).tensor(0, ElementType::kInt8, 2).tensor(1, ElementType::kInt8, 2).any_tensor(2).any_tensor(4);
  if (check.ok()) {
    const bool wide = grt::kernels::is_type(tensor_at(args, 2), ElementType::kInt16);
    const ElementType state_type = wide ? ElementType::kInt16 : ElementType::kInt8;
    check.tensor(2, state_type, 2).tensor(4, state_type, 2);
    check.integer(13, wide ? 0 : INT8_MIN, wide ? 0 : INT8_MAX);
  }
  check.optional_tensor(3, ElementType::kInt32).tensor(5, ElementType::kInt8, 2);
  check.integer(7, INT8_MIN, INT8_MAX).integer(8, 0, INT32_MAX).integer(9, -31, 30);
  check.integer(10, 0, INT32_MAX).integer(11, -31, 30).integer(12, INT8_MIN, INT8_MAX);
  check_svdf_shapes(check, args);
  return check.result();
}

GRT_KERNEL_FUNCTION(svdf_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  if (grt::kernels::is_type(tensor_at(args, 2), ElementType::kInt16)) {
    svdf_integer<int16_t>(args);
  } else {
    svdf_integer<int8_t>(args);
  }
  return 0;
}

GRT_CHECK_FUNCTION(svdf_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("svdf_f32", args, type_codes, num_args);
  check.count(9).tensor(0, ElementType::kFloat32, 2).tensor(1, ElementType::kFloat32, 2).tensor(2, ElementType::kFloat32, 2);
  check.optional_tensor(3, ElementType::kFloat32).tensor(4, ElementType::kFloat32, 2).tensor(5, ElementType::kFloat32, 2);
  check.real(7).real(8);
  check_svdf_shapes(check, args);
  return check.result();
}

GRT_KERNEL_FUNCTION(svdf_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const SvdfShape s = shape_of(args);
  const float* x = data_of<const float>(tensor_at(args, 0));
  const float* feature = data_of<const float>(tensor_at(args, 1));
  const float* time = data_of<const float>(tensor_at(args, 2));
  const DLTensor* bias_tensor = grt::kernels::optional_tensor_at(args, 3);
  const float* bias = bias_tensor != nullptr ? data_of<const float>(bias_tensor) : nullptr;
  float* state = data_of<float>(tensor_at(args, 4));
  float* y = data_of<float>(tensor_at(args, 5));
  const float act_min = static_cast<float>(grt::kernels::real_at(args, 7));
  const float act_max = static_cast<float>(grt::kernels::real_at(args, 8));
  const int per_batch = s.filters * s.memory;

  shift_state(state, s.batch * per_batch);
  for (int b = 0; b < s.batch; ++b) {
    const float* in = x + b * s.input;
    float* newest = state + b * per_batch + s.memory - 1;
    for (int f = 0; f < s.filters; ++f) {
      const float* w = feature + f * s.input;
      float dot = 0.0f;
      for (int k = 0; k < s.input; ++k) dot += w[k] * in[k];
      newest[f * s.memory] = dot;
    }
  }
  // The reference's order of additions: each filter's dot product, then bias + the unit's
  // filters one by one.
  for (int b = 0; b < s.batch; ++b) {
    const float* memory = state + b * per_batch;
    for (int u = 0; u < s.units; ++u) {
      float acc = bias != nullptr ? bias[u] : 0.0f;
      for (int r = 0; r < s.rank; ++r) {
        const int f = u * s.rank + r;
        float dot = 0.0f;
        for (int j = 0; j < s.memory; ++j) dot += time[f * s.memory + j] * memory[f * s.memory + j];
        acc += dot;
      }
      y[b * s.units + u] = acc < act_min ? act_min : (acc > act_max ? act_max : acc);
    }
  }
  return 0;
}
