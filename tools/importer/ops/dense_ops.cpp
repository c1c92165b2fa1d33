// Converters for the dense kernel family (see kernels/src/dense/): FULLY_CONNECTED, SOFTMAX,
// AVERAGE_POOL_2D and MEAN (whose reduction logic is the reduce family's, ops/reduce_common.h). Every fixed-point parameter is derived here exactly as TFLM's
// Prepare functions derive it (same float/double order of operations), so the kernels'
// integer outputs match TFLM's reference kernels byte for byte.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graphrt/tools/import_context.h"
#include "converter_checks.h"
#include "graphrt/tools/quantize_params.h"
#include "reduce_common.h"

namespace grt::tools {
namespace {

using tflite::ActivationFunctionType;

bool is_int8(ImportContext& ctx, int32_t tensor) { return ctx.dtype(tensor) == DType::Int8; }
bool is_float(ImportContext& ctx, int32_t tensor) { return ctx.dtype(tensor) == DType::Float32; }

// TFLite's fused activations that graphrt's kernels clamp to; the rest are refused.
bool supported_activation(ActivationFunctionType a) {
  return a == ActivationFunctionType::NONE || a == ActivationFunctionType::RELU ||
         a == ActivationFunctionType::RELU_N1_TO_1 || a == ActivationFunctionType::RELU6;
}

struct Int8Range {
  int32_t min = -128;
  int32_t max = 127;
};

Int8Range int8_activation_range(ImportContext& ctx, ActivationFunctionType activation, int32_t output) {
  Int8Range r;
  quantized_activation_range(static_cast<int>(activation), ctx.scale(output), ctx.zero_point(output), -128, 127, &r.min,
                             &r.max);
  return r;
}

struct FloatRange {
  float min = 0.0f;
  float max = 0.0f;
};

FloatRange float_range(ActivationFunctionType activation) {
  FloatRange r;
  float_activation_range(static_cast<int>(activation), &r.min, &r.max);
  return r;
}

// ---- FULLY_CONNECTED ----

// TFLM's CalculateOpDataFullyConnected: per-channel multipliers from double products when
// the weights carry one scale per unit, otherwise GetQuantizedConvolutionMultipler (whose
// input * filter product is taken in float before widening).
bool convert_fully_connected_s8(ImportContext& ctx, ActivationFunctionType activation) {
  const int32_t input = ctx.input_index(0);
  const int32_t weights = ctx.input_index(1);
  const int32_t bias = ctx.input_count() > 2 ? ctx.input_index(2) : -1;
  const int32_t output = ctx.output_index(0);
  if (!is_int8(ctx, weights) || !is_int8(ctx, output)) return ctx.fail("int8 input needs int8 weights and output");
  if (bias >= 0 && ctx.dtype(bias) != DType::Int32) return ctx.fail("int8 needs an int32 bias");
  const std::vector<int64_t> weight_shape = ctx.shape(weights);
  if (weight_shape.size() != 2) return ctx.fail("weights must be 2-D");

  const std::vector<float> filter_scales = ctx.scales(weights);
  if (filter_scales.empty()) return ctx.fail("weights are not quantized");
  const float input_scale = ctx.scale(input);
  const float output_scale = ctx.scale(output);
  const bool per_channel = filter_scales.size() > 1;
  std::vector<int32_t> multipliers;
  std::vector<int32_t> shifts;
  if (per_channel) {
    const tflite::Tensor* w = ctx.tensor(weights);
    const int32_t axis = w->quantization() != nullptr ? w->quantization()->quantized_dimension() : 0;
    if (axis != 0) return ctx.fail("per-channel weights must be quantized along the units (dimension 0)");
    if (static_cast<int64_t>(filter_scales.size()) != weight_shape[0]) {
      return ctx.fail("weights have " + std::to_string(filter_scales.size()) + " scales for " +
                      std::to_string(weight_shape[0]) + " units");
    }
    for (const float filter_scale : filter_scales) {
      const double effective =
          static_cast<double>(input_scale) * static_cast<double>(filter_scale) / static_cast<double>(output_scale);
      const FixedPointMultiplier m = quantize_multiplier(effective);
      multipliers.push_back(m.multiplier);
      shifts.push_back(m.shift);
    }
  } else {
    const double input_product_scale = static_cast<double>(input_scale * filter_scales[0]);
    if (bias >= 0) {
      // TFLM refuses a bias whose scale strays from input scale * filter scale.
      const double bias_scale = static_cast<double>(ctx.scale(bias));
      const double wide_product = static_cast<double>(input_scale) * static_cast<double>(filter_scales[0]);
      if (std::abs(wide_product - bias_scale) / static_cast<double>(output_scale) > 0.02) {
        return ctx.fail("bias scale does not match input scale * weight scale");
      }
    }
    if (input_product_scale < 0) return ctx.fail("negative input * weight scale");
    const FixedPointMultiplier m = quantize_multiplier(input_product_scale / static_cast<double>(output_scale));
    multipliers.push_back(m.multiplier);
    shifts.push_back(m.shift);
  }
  for (const int32_t shift : shifts) {
    if (shift < -31 || shift > 30) return ctx.fail("requantization scale out of range");
  }
  const Int8Range range = int8_activation_range(ctx, activation, output);
  // TFLM's per-channel kernel ignores the filter zero point (weights are symmetric).
  const int32_t filter_offset = per_channel ? 0 : -ctx.zero_point(weights);
  const std::string name = ctx.op_name();
  std::vector<int32_t> requantization = multipliers;
  requantization.insert(requantization.end(), shifts.begin(), shifts.end());
  ctx.add_node("fully_connected_s8",
               {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)),
                bias >= 0 ? ArgDef::input(ctx.graph_tensor(bias)) : ArgDef::none(), ArgDef::output(ctx.output(0)),
                ArgDef::int_array(ctx.int_array(name + " requantization", requantization)), ArgDef::integer(-ctx.zero_point(input)),
                ArgDef::integer(filter_offset), ArgDef::integer(ctx.zero_point(output)), ArgDef::integer(range.min),
                ArgDef::integer(range.max)});
  return ctx.error().empty();
}

bool convert_fully_connected_f32(ImportContext& ctx, ActivationFunctionType activation) {
  const int32_t bias = ctx.input_count() > 2 ? ctx.input_index(2) : -1;
  if (!is_float(ctx, ctx.input_index(1)) || !is_float(ctx, ctx.output_index(0)) || (bias >= 0 && !is_float(ctx, bias))) {
    return ctx.fail("float32 input needs float32 weights, bias and output (hybrid models are not supported)");
  }
  if (ctx.shape(ctx.input_index(1)).size() != 2) return ctx.fail("weights must be 2-D");
  const FloatRange range = float_range(activation);
  ctx.add_node("fully_connected_f32", {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)),
                                       bias >= 0 ? ArgDef::input(ctx.graph_tensor(bias)) : ArgDef::none(),
                                       ArgDef::output(ctx.output(0)), ArgDef::real(range.min), ArgDef::real(range.max)});
  return ctx.error().empty();
}

bool convert_fully_connected(ImportContext& ctx) {
  if (!expect_arity(ctx, 2, 3)) return false;
  ActivationFunctionType activation = ActivationFunctionType::NONE;
  if (const auto* o = ctx.options<tflite::FullyConnectedOptions>(); o != nullptr) {
    if (o->weights_format() != tflite::FullyConnectedOptionsWeightsFormat::DEFAULT) {
      return ctx.fail("shuffled weights are not supported");
    }
    activation = o->fused_activation_function();
  }
  if (!supported_activation(activation)) return ctx.fail("fused activation is not supported");
  const int32_t input = ctx.input_index(0);
  if (is_int8(ctx, input)) return convert_fully_connected_s8(ctx, activation);
  if (is_float(ctx, input)) return convert_fully_connected_f32(ctx, activation);
  return ctx.fail("supports int8 and float32 inputs only");
}

// ---- SOFTMAX ----

// TFLM's PreprocessSoftmaxScaling (5 integer bits for the scaled differences) and
// CalculateInputRadius, for int8 in and int8 out.
bool convert_softmax_s8(ImportContext& ctx, float beta) {
  constexpr int kScaledDiffIntegerBits = 5;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  // TFLM's SoftmaxPrepare: int8 output at scale 1/256, or int16 at 1/65536 (within 1e-3
  // relative: converters store 1.5e-05), each from its type's minimum.
  const bool wide = ctx.dtype(output) == DType::Int16;
  if (!is_int8(ctx, output) && !wide) return ctx.fail("int8 input needs an int8 or int16 output");
  if (!wide && (ctx.zero_point(output) != -128 || ctx.scale(output) != 1.0f / 256)) {
    return ctx.fail("int8 output must have scale 1/256 and zero point -128");
  }
  if (wide && (ctx.zero_point(output) != -32768 || std::abs(ctx.scale(output) * 65536.0f - 1.0f) > 0.03f)) {
    return ctx.fail("int16 output must have scale 1/65536 and zero point -32768");
  }
  const double max_real_multiplier = static_cast<double>((int64_t{1} << 31) - 1);
  const double real_multiplier =
      std::min(static_cast<double>(beta) * static_cast<double>(ctx.scale(input)) *
                   static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)),
               max_real_multiplier);
  if (!(real_multiplier > 1.0)) return ctx.fail("beta * input scale is too small");
  const FixedPointMultiplier m = quantize_multiplier(real_multiplier);
  if (m.shift < 0 || m.shift > 31) return ctx.fail("beta * input scale is out of range");
  const double radius = std::floor(1.0 * static_cast<double>((1 << kScaledDiffIntegerBits) - 1) *
                                   static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)) /
                                   static_cast<double>(int64_t{1} << m.shift));
  const int32_t diff_min = static_cast<int32_t>(-1.0 * static_cast<double>(static_cast<int>(radius)));
  ctx.add_node(wide ? "softmax_s8_s16" : "softmax_s8", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::integer(m.multiplier),
                              ArgDef::integer(m.shift), ArgDef::integer(diff_min)});
  return ctx.error().empty();
}

bool convert_softmax(ImportContext& ctx) {
  if (!expect_arity(ctx, 1, 1)) return false;
  const auto* o = ctx.options<tflite::SoftmaxOptions>();
  if (o == nullptr) return ctx.fail("has no SoftmaxOptions");
  const int32_t input = ctx.input_index(0);
  if (ctx.shape(input).empty()) return ctx.fail("input must have rank >= 1");
  if (is_int8(ctx, input)) return convert_softmax_s8(ctx, o->beta());
  if (is_float(ctx, input)) {
    if (!is_float(ctx, ctx.output_index(0))) return ctx.fail("float32 input needs a float32 output");
    ctx.add_node("softmax_f32",
                 {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::real(static_cast<double>(o->beta()))});
    return ctx.error().empty();
  }
  return ctx.fail("supports int8 and float32 inputs only");
}

// ---- AVERAGE_POOL_2D ----

// TFLite's ComputeOutSize and ComputePaddingWithOffset (dilation 1): the leading padding.
bool pool_padding(tflite::Padding padding, int64_t in_size, int32_t filter, int32_t stride, int64_t* out_size,
                  int64_t* leading_pad) {
  if (filter <= 0 || stride <= 0 || in_size < 0) return false;
  if (padding == tflite::Padding::SAME) {
    *out_size = (in_size + stride - 1) / stride;
  } else {
    *out_size = (in_size + stride - filter) / stride;
  }
  if (*out_size < 0) return false;
  const int64_t total = std::max<int64_t>((*out_size - 1) * stride + filter - in_size, 0);
  *leading_pad = total / 2;
  return true;
}

bool convert_average_pool2d(ImportContext& ctx) {
  if (!expect_arity(ctx, 1, 1)) return false;
  const auto* o = ctx.options<tflite::Pool2DOptions>();
  if (o == nullptr) return ctx.fail("has no Pool2DOptions");
  if (!supported_activation(o->fused_activation_function())) return ctx.fail("fused activation is not supported");
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const std::vector<int64_t> in_shape = ctx.shape(input);
  const std::vector<int64_t> out_shape = ctx.shape(output);
  if (in_shape.size() != 4 || out_shape.size() != 4) return ctx.fail("input and output must be 4-D (NHWC)");
  int64_t out_h = 0, out_w = 0, pad_top = 0, pad_left = 0;
  if (!pool_padding(o->padding(), in_shape[1], o->filter_height(), o->stride_h(), &out_h, &pad_top) ||
      !pool_padding(o->padding(), in_shape[2], o->filter_width(), o->stride_w(), &out_w, &pad_left)) {
    return ctx.fail("invalid filter, stride or padding");
  }
  if (out_h != out_shape[1] || out_w != out_shape[2]) {
    return ctx.fail("output is " + std::to_string(out_shape[1]) + "x" + std::to_string(out_shape[2]) +
                    ", the pooling parameters give " + std::to_string(out_h) + "x" + std::to_string(out_w));
  }
  std::vector<ArgDef> args = {ArgDef::input(ctx.input(0)),          ArgDef::output(ctx.output(0)),
                              ArgDef::integer(o->stride_h()),       ArgDef::integer(o->stride_w()),
                              ArgDef::integer(o->filter_height()),  ArgDef::integer(o->filter_width()),
                              ArgDef::integer(pad_top),             ArgDef::integer(pad_left)};
  if (is_int8(ctx, input)) {
    if (!is_int8(ctx, output)) return ctx.fail("int8 input needs an int8 output");
    // TFLM's PoolingPrepare: averaging cannot requantize, so the scales must agree.
    if (std::abs(static_cast<double>(ctx.scale(input) - ctx.scale(output))) > 1.0e-6 ||
        ctx.zero_point(input) != ctx.zero_point(output)) {
      return ctx.fail("input and output quantization differ");
    }
    const Int8Range range = int8_activation_range(ctx, o->fused_activation_function(), output);
    args.push_back(ArgDef::integer(range.min));
    args.push_back(ArgDef::integer(range.max));
    ctx.add_node("average_pool2d_s8", std::move(args));
  } else if (is_float(ctx, input)) {
    if (!is_float(ctx, output)) return ctx.fail("float32 input needs a float32 output");
    const FloatRange range = float_range(o->fused_activation_function());
    args.push_back(ArgDef::real(range.min));
    args.push_back(ArgDef::real(range.max));
    ctx.add_node("average_pool2d_f32", std::move(args));
  } else {
    return ctx.fail("supports int8 and float32 inputs only");
  }
  return ctx.error().empty();
}

// ---- MEAN ----

// Any axes, any rank, int8 / int16 / float32: shared with SUM (ops/reduce_common.cpp).
bool convert_mean(ImportContext& ctx) { return reduce_ops::convert_mean_or_sum(ctx, /*mean=*/true); }

}  // namespace

void register_dense_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::FULLY_CONNECTED, convert_fully_connected, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::SOFTMAX, convert_softmax, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::AVERAGE_POOL_2D, convert_average_pool2d, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::MEAN, convert_mean, {"int8", "int16", "float32"});
}

}  // namespace grt::tools
