// Converters for the row-wise normalizations over the last dimension: LOG_SOFTMAX and
// L2_NORMALIZATION (kernels/src/reduce/log_softmax.cpp, l2_normalization.cpp). The int8
// parameters are TFLM's Prepare functions', with the same double arithmetic.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/quantize_params.h"
#include "reduce_common.h"

namespace grt::tools::reduce_ops {
namespace {

// One input and one output of one dtype (int8 or float32) and one shape, rank >= 1.
bool same_shaped_int8_or_float(ImportContext& ctx, DType* dtype) {
  if (!expect_arity(ctx, 1, 1)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  *dtype = ctx.dtype(input);
  if (*dtype != DType::Int8 && *dtype != DType::Float32) return ctx.fail("supports int8 and float32 only");
  if (ctx.dtype(output) != *dtype) return ctx.fail("input and output types differ");
  if (ctx.shape(input).empty()) return ctx.fail("input must have rank >= 1");
  if (element_count(ctx.shape(input)) < 0) return ctx.fail("input shape is negative or too large");
  if (ctx.shape(input) != ctx.shape(output)) return ctx.fail("output must have the input's shape");
  return true;
}

// ---- LOG_SOFTMAX ----

// TFLM's CalculateOpData for int8: beta 1, 5 integer bits for the scaled differences,
// PreprocessLogSoftmaxScalingExp and CalculateInputRadius.
bool convert_log_softmax_s8(ImportContext& ctx) {
  constexpr int kScaledDiffIntegerBits = 5;
  const int32_t output = ctx.output_index(0);
  if (ctx.scale(output) != 16.0f / 256 || ctx.zero_point(output) != 127) {
    return ctx.fail("int8 output must have scale 16/256 and zero point 127");
  }
  // PreprocessSoftmaxScaling: beta * input scale * 2^26, capped at 2^31 - 1.
  const double max_real_multiplier = static_cast<double>((int64_t{1} << 31) - 1);
  const double real_multiplier = std::min(1.0 * static_cast<double>(ctx.scale(ctx.input_index(0))) *
                                              static_cast<double>(1 << (31 - kScaledDiffIntegerBits)),
                                          max_real_multiplier);
  if (!(real_multiplier > 1.0)) return ctx.fail("input scale is too small");
  const FixedPointMultiplier input = quantize_multiplier(real_multiplier);
  // The reverse scaling divides 2^(31 - shift) as an int: a shift of 0 is out of reach.
  if (input.shift < 1 || input.shift > 31) return ctx.fail("input scale is out of range");
  const double real_reverse = static_cast<double>(1 << (31 - input.shift)) / static_cast<double>(input.multiplier);
  if (!(real_reverse > 0.0 && real_reverse < 1.0)) return ctx.fail("input scale is out of range");
  const FixedPointMultiplier reverse = quantize_multiplier(real_reverse);
  if (reverse.shift > 0 || reverse.shift < -31) return ctx.fail("input scale is out of range");
  const double radius = std::floor(1.0 * static_cast<double>((1 << kScaledDiffIntegerBits) - 1) *
                                   static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)) /
                                   static_cast<double>(int64_t{1} << input.shift));
  ctx.add_node("log_softmax_s8", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)),
                                  ArgDef::integer(input.multiplier), ArgDef::integer(input.shift),
                                  ArgDef::integer(reverse.multiplier), ArgDef::integer(reverse.shift),
                                  ArgDef::integer(-static_cast<int64_t>(radius))});
  return ctx.error().empty();
}

bool convert_log_softmax(ImportContext& ctx) {
  DType dtype = DType::Float32;
  if (!same_shaped_int8_or_float(ctx, &dtype)) return false;
  if (dtype == DType::Int8) return convert_log_softmax_s8(ctx);
  ctx.add_node("log_softmax_f32", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0))});
  return ctx.error().empty();
}

// ---- L2_NORMALIZATION ----

// TFLM's L2NormPrepare: rank <= 4, no fused activation. Its int8 kernel writes outputs in
// 1/128 steps around 0 whatever the output's quantization says, so anything else is refused.
bool convert_l2_normalization(ImportContext& ctx) {
  DType dtype = DType::Float32;
  if (!same_shaped_int8_or_float(ctx, &dtype)) return false;
  if (ctx.shape(ctx.input_index(0)).size() > 4) return ctx.fail("supports rank <= 4 only");
  if (const auto* o = ctx.options<tflite::L2NormOptions>();
      o != nullptr && o->fused_activation_function() != tflite::ActivationFunctionType::NONE) {
    return ctx.fail("fused activation is not supported");
  }
  if (dtype == DType::Float32) {
    ctx.add_node("l2_normalization_f32", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0))});
    return ctx.error().empty();
  }
  const int32_t output = ctx.output_index(0);
  if (ctx.scale(output) != 1.0f / 128 || ctx.zero_point(output) != 0) {
    return ctx.fail("int8 output must have scale 1/128 and zero point 0");
  }
  const int32_t input_zero_point = ctx.zero_point(ctx.input_index(0));
  if (input_zero_point < -128 || input_zero_point > 127) return ctx.fail("input zero point out of range");
  ctx.add_node("l2_normalization_s8",
               {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::integer(input_zero_point)});
  return ctx.error().empty();
}

}  // namespace

void register_normalize_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::LOG_SOFTMAX, convert_log_softmax, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::L2_NORMALIZATION, convert_l2_normalization, {"int8", "float32"});
}

}  // namespace grt::tools::reduce_ops
