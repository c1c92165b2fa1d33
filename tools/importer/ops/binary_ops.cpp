// Converters for the binary kernel family (kernels/src/binary/): MUL, DIV, SQUARED_DIFFERENCE,
// ADD_N, FLOOR_DIV and FLOOR_MOD here; MINIMUM, MAXIMUM, the comparisons, SELECT_V2 and the
// logical operators in binary_compare_ops.cpp. Fixed-point parameters are derived as TFLM's
// Prepare functions derive them (same float and double order of operations), so the kernels
// match TFLM's reference kernels byte for byte.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "binary_helpers.h"

namespace grt::tools {
namespace {

using binary::expect_broadcast;
using binary::expect_operands;
using binary::expect_per_tensor;
using binary::expect_shared_type;
using binary::type_suffix;
using tflite::ActivationFunctionType;

// The three tensors of a two-input operator as graphrt arguments: A, B, then Y.
std::vector<ArgDef> operand_args(ImportContext& ctx) {
  return {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0))};
}

// A fused activation's clamp for float and int32 outputs, appended to `args`.
void add_unquantized_clamp(DType dtype, ActivationFunctionType activation, std::vector<ArgDef>* args) {
  if (dtype == DType::Float32) {
    float low = 0;
    float high = 0;
    float_activation_range(static_cast<int>(activation), &low, &high);
    args->push_back(ArgDef::real(low));
    args->push_back(ArgDef::real(high));
    return;
  }
  int32_t low = 0;
  int32_t high = 0;
  binary::int32_activation_range(activation, &low, &high);
  args->push_back(ArgDef::integer(low));
  args->push_back(ArgDef::integer(high));
}

// A, B and Y quantized per tensor; TFLM's int16 MUL and SQUARED_DIFFERENCE take no zero points.
bool expect_quantized_operands(ImportContext& ctx, DType dtype) {
  if (dtype == DType::Int16) {
    for (const int32_t t : {ctx.input_index(0), ctx.input_index(1), ctx.output_index(0)}) {
      if (ctx.zero_point(t) != 0) return ctx.fail("int16 inputs and output must have zero point 0 (TFLM requires it)");
    }
  }
  return expect_per_tensor(ctx, ctx.input_index(0), -128, 127, "input 0") &&
         expect_per_tensor(ctx, ctx.input_index(1), -128, 127, "input 1") &&
         expect_per_tensor(ctx, ctx.output_index(0), -128, 127, "output");
}

// ---- MUL ----

bool convert_mul(ImportContext& ctx) {
  if (!expect_operands(ctx, 2)) return false;
  DType dtype{};
  if (!expect_shared_type(ctx, {DType::Int8, DType::Int16, DType::Int32, DType::Float32}, &dtype)) return false;
  if (!expect_broadcast(ctx)) return false;
  const auto* options = ctx.options<tflite::MulOptions>();
  const ActivationFunctionType activation = options != nullptr ? options->fused_activation_function() : ActivationFunctionType::NONE;
  if (!binary::supported_activation(ctx, activation)) return false;
  std::vector<ArgDef> args = operand_args(ctx);
  if (dtype == DType::Float32 || dtype == DType::Int32) {
    add_unquantized_clamp(dtype, activation, &args);
    ctx.add_node("mul_" + type_suffix(dtype), std::move(args));
    return ctx.error().empty();
  }
  const int32_t a = ctx.input_index(0);
  const int32_t b = ctx.input_index(1);
  const int32_t y = ctx.output_index(0);
  if (!expect_quantized_operands(ctx, dtype)) return false;
  // CalculateOpDataMul: the product of the input scales over the output's, in double.
  FixedPointMultiplier m;
  const double real = static_cast<double>(ctx.scale(a)) * static_cast<double>(ctx.scale(b)) / static_cast<double>(ctx.scale(y));
  if (!binary::multiplier_any(ctx, real, "rescaling", &m)) return false;
  int32_t act_min = 0;
  int32_t act_max = 0;
  const int32_t type_min = dtype == DType::Int8 ? INT8_MIN : INT16_MIN;
  const int32_t type_max = dtype == DType::Int8 ? INT8_MAX : INT16_MAX;
  quantized_activation_range(static_cast<int>(activation), ctx.scale(y), ctx.zero_point(y), type_min, type_max, &act_min, &act_max);
  if (act_min > act_max) return ctx.fail("the fused activation's range is empty");
  args.insert(args.end(), {ArgDef::integer(-ctx.zero_point(a)), ArgDef::integer(-ctx.zero_point(b)),
                           ArgDef::integer(ctx.zero_point(y)), ArgDef::integer(m.multiplier), ArgDef::integer(m.shift),
                           ArgDef::integer(act_min), ArgDef::integer(act_max)});
  ctx.add_node("mul_" + type_suffix(dtype), std::move(args));
  return ctx.error().empty();
}

// ---- DIV ----

bool convert_quantized_div(ImportContext& ctx, ActivationFunctionType activation) {
  if (!expect_quantized_operands(ctx, DType::Int8)) return false;
  const int32_t a = ctx.input_index(0);
  const int32_t b = ctx.input_index(1);
  const int32_t y = ctx.output_index(0);
  // CalculateOpDataDiv: the ratio in float, then widened.
  const FixedPointMultiplier m = quantize_multiplier(static_cast<double>(ctx.scale(a) / (ctx.scale(b) * ctx.scale(y))));
  // Beyond 2^23 the kernel's final shift would turn left, which TFLM's arithmetic does not do.
  if (m.multiplier <= 0 || m.shift < -31 || m.shift > 23) return ctx.fail("rescaling is out of range");
  int32_t act_min = 0;
  int32_t act_max = 0;
  quantized_activation_range(static_cast<int>(activation), ctx.scale(y), ctx.zero_point(y), INT8_MIN, INT8_MAX, &act_min, &act_max);
  if (act_min > act_max) return ctx.fail("the fused activation's range is empty");
  ctx.add_node("div_s8", {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0)),
                          ArgDef::integer(-ctx.zero_point(a)), ArgDef::integer(-ctx.zero_point(b)), ArgDef::integer(ctx.zero_point(y)),
                          ArgDef::integer(m.multiplier), ArgDef::integer(m.shift), ArgDef::integer(act_min), ArgDef::integer(act_max)});
  return ctx.error().empty();
}

bool convert_div(ImportContext& ctx) {
  if (!expect_operands(ctx, 2)) return false;
  DType dtype{};
  if (!expect_shared_type(ctx, {DType::Int8, DType::Int32, DType::Float32}, &dtype)) return false;
  if (!expect_broadcast(ctx)) return false;
  const auto* options = ctx.options<tflite::DivOptions>();
  const ActivationFunctionType activation = options != nullptr ? options->fused_activation_function() : ActivationFunctionType::NONE;
  if (!binary::supported_activation(ctx, activation)) return false;
  if (dtype == DType::Int8) return convert_quantized_div(ctx, activation);
  // TFLM divides int32 tensors only when they carry no quantization.
  if (dtype == DType::Int32 && (!ctx.scales(ctx.input_index(0)).empty() || !ctx.scales(ctx.input_index(1)).empty())) {
    return ctx.fail("int32 DIV takes unquantized inputs only");
  }
  std::vector<ArgDef> args = operand_args(ctx);
  add_unquantized_clamp(dtype, activation, &args);
  ctx.add_node("div_" + type_suffix(dtype), std::move(args));
  return ctx.error().empty();
}

// ---- SQUARED_DIFFERENCE ----

bool convert_squared_difference(ImportContext& ctx) {
  if (!expect_operands(ctx, 2)) return false;
  DType dtype{};
  if (!expect_shared_type(ctx, {DType::Int8, DType::Int16, DType::Int32, DType::Float32}, &dtype)) return false;
  if (!expect_broadcast(ctx)) return false;
  std::vector<ArgDef> args = operand_args(ctx);
  if (dtype == DType::Int32 || dtype == DType::Float32) {
    ctx.add_node("squared_difference_" + type_suffix(dtype), std::move(args));
    return ctx.error().empty();
  }
  const int32_t a = ctx.input_index(0);
  const int32_t b = ctx.input_index(1);
  const int32_t y = ctx.output_index(0);
  if (!expect_quantized_operands(ctx, dtype)) return false;
  // SquaredDifferencePrepare / PrepareQuantized: left shift 7 (int8) or 0 (int16), the input
  // ratios in double, the output ratio over a float product.
  const int left_shift = dtype == DType::Int8 ? 7 : 0;
  const float sa = ctx.scale(a);
  const float sb = ctx.scale(b);
  const double twice_max = 2.0 * static_cast<double>(std::max(sa, sb));
  const double real_out =
      (twice_max * twice_max) / static_cast<double>(static_cast<float>(1 << (left_shift * 2)) * ctx.scale(y));
  FixedPointMultiplier ma;
  FixedPointMultiplier mb;
  FixedPointMultiplier mo;
  if (!binary::multiplier_below_one(ctx, static_cast<double>(sa) / twice_max, "input 0 multiplier", &ma) ||
      !binary::multiplier_below_one(ctx, static_cast<double>(sb) / twice_max, "input 1 multiplier", &mb) ||
      !binary::multiplier_any(ctx, real_out, "output multiplier", &mo)) {
    return false;
  }
  args.insert(args.end(), {ArgDef::integer(left_shift), ArgDef::integer(-ctx.zero_point(a)), ArgDef::integer(ma.multiplier),
                           ArgDef::integer(ma.shift), ArgDef::integer(-ctx.zero_point(b)), ArgDef::integer(mb.multiplier),
                           ArgDef::integer(mb.shift), ArgDef::integer(ctx.zero_point(y)), ArgDef::integer(mo.multiplier),
                           ArgDef::integer(mo.shift)});
  ctx.add_node("squared_difference_" + type_suffix(dtype), std::move(args));
  return ctx.error().empty();
}

// ---- ADD_N ----

bool convert_add_n(ImportContext& ctx) {
  if (ctx.input_count() < 2) return ctx.fail("expects at least 2 inputs, has " + std::to_string(ctx.input_count()));
  if (!expect_operands(ctx, ctx.input_count())) return false;
  DType dtype{};
  if (!expect_shared_type(ctx, {DType::Int8, DType::Float32}, &dtype)) return false;
  const int32_t y = ctx.output_index(0);
  const int32_t first = ctx.input_index(0);
  for (int i = 0; i < ctx.input_count(); ++i) {
    if (ctx.shape(ctx.input_index(i)) != ctx.shape(y)) return ctx.fail("inputs and output must have one shape");
  }
  std::vector<ArgDef> args{ArgDef::output(ctx.output(0))};
  if (dtype == DType::Int8) {
    for (int i = 0; i < ctx.input_count(); ++i) {
      const int32_t x = ctx.input_index(i);
      if (!expect_per_tensor(ctx, x, -128, 127, "input")) return false;
      if (ctx.scale(x) != ctx.scale(first) || ctx.zero_point(x) != ctx.zero_point(first)) {
        return ctx.fail("inputs must share one scale and zero point");
      }
    }
    if (!expect_per_tensor(ctx, y, -128, 127, "output")) return false;
    // ADD_N's CalculateOpData: left shift 20, both ratios in double.
    constexpr int kLeftShift = 20;
    const double twice_max = 2 * static_cast<double>(ctx.scale(first));
    FixedPointMultiplier in_m;
    FixedPointMultiplier out_m;
    if (!binary::multiplier_below_one(ctx, static_cast<double>(ctx.scale(first)) / twice_max, "input multiplier", &in_m) ||
        !binary::multiplier_below_one(ctx, twice_max / ((1 << kLeftShift) * static_cast<double>(ctx.scale(y))),
                                      "output multiplier", &out_m)) {
      return false;
    }
    args.insert(args.end(), {ArgDef::integer(kLeftShift), ArgDef::integer(-ctx.zero_point(first)),
                             ArgDef::integer(in_m.multiplier), ArgDef::integer(in_m.shift), ArgDef::integer(ctx.zero_point(y)),
                             ArgDef::integer(out_m.multiplier), ArgDef::integer(out_m.shift)});
  }
  for (int i = 0; i < ctx.input_count(); ++i) args.push_back(ArgDef::input(ctx.input(i)));
  ctx.add_node("add_n_" + type_suffix(dtype), std::move(args));
  return ctx.error().empty();
}

// ---- FLOOR_DIV and FLOOR_MOD (float32 only in TFLM) ----

bool convert_floor(ImportContext& ctx, const char* kernel) {
  if (!expect_operands(ctx, 2)) return false;
  DType dtype{};
  if (!expect_shared_type(ctx, {DType::Float32}, &dtype)) return false;
  if (!expect_broadcast(ctx)) return false;
  ctx.add_node(kernel, operand_args(ctx));
  return ctx.error().empty();
}

bool convert_floor_div(ImportContext& ctx) { return convert_floor(ctx, "floor_div_f32"); }
bool convert_floor_mod(ImportContext& ctx) { return convert_floor(ctx, "floor_mod_f32"); }

}  // namespace

void register_binary_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::MUL, convert_mul, {"int8", "int16", "int32", "float32"});
  table.add(tflite::BuiltinOperator::DIV, convert_div, {"int8", "int32", "float32"});
  table.add(tflite::BuiltinOperator::SQUARED_DIFFERENCE, convert_squared_difference, {"int8", "int16", "int32", "float32"});
  table.add(tflite::BuiltinOperator::ADD_N, convert_add_n, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::FLOOR_DIV, convert_floor_div, {"float32"});
  table.add(tflite::BuiltinOperator::FLOOR_MOD, convert_floor_mod, {"float32"});
  binary::register_binary_compare_ops(table);
}

}  // namespace grt::tools
