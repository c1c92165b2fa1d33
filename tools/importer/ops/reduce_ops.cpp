// Converters for reductions (see kernels/src/reduce/): SUM, REDUCE_MAX, REDUCE_MIN, ARG_MAX,
// ARG_MIN and CUMSUM here; LOG_SOFTMAX and L2_NORMALIZATION in reduce_normalize_ops.cpp;
// BATCH_MATMUL in reduce_matmul_ops.cpp. MEAN shares SUM's converter (reduce_common.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/quantize_params.h"
#include "reduce_common.h"

namespace grt::tools {
namespace {

using reduce_ops::ReductionWalk;

bool convert_sum(ImportContext& ctx) { return reduce_ops::convert_mean_or_sum(ctx, /*mean=*/false); }

// REDUCE_MAX / REDUCE_MIN: TFLM's EvalMinMaxHelper takes float32 and int8, the latter only
// with the output quantized as the input.
bool convert_min_max(ImportContext& ctx, const char* op) {
  if (!reduce_ops::expect_arity(ctx, 2, 2)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(input);
  if (dtype != DType::Int8 && dtype != DType::Float32) return ctx.fail("supports int8 and float32 only");
  if (ctx.dtype(output) != dtype) return ctx.fail("input and output types differ");
  if (dtype == DType::Int8 &&
      (ctx.scale(input) != ctx.scale(output) || ctx.zero_point(input) != ctx.zero_point(output))) {
    return ctx.fail("int8 input and output quantization differ");
  }
  ReductionWalk walk;
  if (!reduce_ops::reduction_walk_for(ctx, &walk)) return false;
  ctx.add_node(std::string(op) + "_" + reduce_ops::type_suffix(dtype), reduce_ops::reduction_args(ctx, walk));
  return ctx.error().empty();
}

bool convert_reduce_max(ImportContext& ctx) { return convert_min_max(ctx, "reduce_max"); }
bool convert_reduce_min(ImportContext& ctx) { return convert_min_max(ctx, "reduce_min"); }

// ARG_MAX / ARG_MIN along one constant axis; int8 or float32 in, int32 or int64 indices out
// (TFLM's kernel writes int32 only; int64 is TFLite's other output type, same indices).
bool convert_arg_min_max(ImportContext& ctx, const char* op) {
  if (!reduce_ops::expect_arity(ctx, 2, 2)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(input);
  if (dtype != DType::Int8 && dtype != DType::Float32) return ctx.fail("supports int8 and float32 inputs only");
  const DType index_type = ctx.dtype(output);
  if (index_type != DType::Int32 && index_type != DType::Int64) return ctx.fail("output must be int32 or int64");
  const std::vector<int64_t> shape = ctx.shape(input);
  if (shape.empty()) return ctx.fail("input must have rank >= 1");
  ReductionWalk walk;
  if (!reduce_ops::reduction_walk_for(ctx, &walk)) return false;
  if (ctx.constant_bytes(ctx.input_index(1)).size() != sizeof(int32_t)) return ctx.fail("axis must hold one value");
  if (ctx.shape(output).size() + 1 != shape.size()) return ctx.fail("output must have rank input rank - 1");
  ctx.add_node(std::string(op) + "_" + reduce_ops::type_suffix(dtype) + "_" + reduce_ops::type_suffix(index_type),
               reduce_ops::reduction_args(ctx, walk));
  return ctx.error().empty();
}

bool convert_arg_max(ImportContext& ctx) { return convert_arg_min_max(ctx, "arg_max"); }
bool convert_arg_min(ImportContext& ctx) { return convert_arg_min_max(ctx, "arg_min"); }

// ---- CUMSUM ----

// TFLM's QuantizeMultiplierSmallerThanOneExp: only multipliers in (0, 1).
bool smaller_than_one(ImportContext& ctx, double real, FixedPointMultiplier* m) {
  *m = quantize_multiplier(real);
  if (!(real > 0.0 && real < 1.0) || m->shift > 0 || m->shift < -31) return ctx.fail("quantization scales out of range");
  return true;
}

// float32 and int8 as TFLM, int32 as TFLite; one constant int32 axis.
bool convert_cumsum(ImportContext& ctx) {
  if (!reduce_ops::expect_arity(ctx, 2, 2)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(input);
  if (dtype != DType::Float32 && dtype != DType::Int32 && dtype != DType::Int8) {
    return ctx.fail("supports float32, int32 and int8 only");
  }
  if (ctx.dtype(output) != dtype) return ctx.fail("input and output types differ");
  const std::vector<int64_t> shape = ctx.shape(input);
  if (shape.empty()) return ctx.fail("input must have rank >= 1");
  if (ctx.shape(output) != shape) return ctx.fail("output must have the input's shape");
  if (reduce_ops::element_count(shape) < 0) return ctx.fail("input shape is negative or too large");
  const int32_t axis_tensor = ctx.input_index(1);
  if (!ctx.is_constant(axis_tensor) || ctx.dtype(axis_tensor) != DType::Int32) {
    return ctx.fail("axis must be a constant int32");
  }
  const std::vector<int32_t> axes = ctx.constant_values<int32_t>(axis_tensor);
  if (axes.size() != 1) return ctx.fail("axis must hold one value");
  const auto rank = static_cast<int64_t>(shape.size());
  const int64_t axis = axes[0] < 0 ? axes[0] + rank : axes[0];
  if (axis < 0 || axis >= rank) return ctx.fail("axis " + std::to_string(axes[0]) + " is out of range");
  int64_t outer = 1;
  int64_t inner = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (d < axis) outer = reduce_ops::capped_product(outer, shape[static_cast<size_t>(d)]);
    if (d > axis) inner = reduce_ops::capped_product(inner, shape[static_cast<size_t>(d)]);
  }
  if (outer > INT32_MAX || inner > INT32_MAX) return ctx.fail("input is too large");
  const auto* o = ctx.options<tflite::CumsumOptions>();
  std::vector<ArgDef> args = {ArgDef::input(ctx.input(0)),
                              ArgDef::output(ctx.output(0)),
                              ArgDef::integer(outer),
                              ArgDef::integer(shape[static_cast<size_t>(axis)]),
                              ArgDef::integer(inner),
                              ArgDef::integer(o != nullptr && o->exclusive() ? 1 : 0),
                              ArgDef::integer(o != nullptr && o->reverse() ? 1 : 0)};
  if (dtype == DType::Int8) {
    // TFLM's CalculateOpData: values shifted left by 20, halved, summed, rescaled.
    constexpr int kLeftShift = 20;
    const double input_scale = static_cast<double>(ctx.scale(input));
    const double twice_max_input_scale = 2 * input_scale;
    FixedPointMultiplier in;
    FixedPointMultiplier out;
    if (!(input_scale > 0.0) || !(ctx.scale(output) > 0.0f)) return ctx.fail("input and output must be quantized");
    if (!smaller_than_one(ctx, input_scale / twice_max_input_scale, &in) ||
        !smaller_than_one(ctx, twice_max_input_scale / ((1 << kLeftShift) * static_cast<double>(ctx.scale(output))),
                          &out)) {
      return false;
    }
    const int32_t input_zero_point = ctx.zero_point(input);
    const int32_t output_zero_point = ctx.zero_point(output);
    if (input_zero_point < -128 || input_zero_point > 127 || output_zero_point < -128 || output_zero_point > 127) {
      return ctx.fail("zero point out of the type's range");
    }
    for (const int64_t v : {int64_t{-input_zero_point}, int64_t{in.multiplier}, int64_t{in.shift},
                            int64_t{out.multiplier}, int64_t{out.shift}, int64_t{output_zero_point}}) {
      args.push_back(ArgDef::integer(v));
    }
  }
  ctx.add_node(std::string("cumsum_") + reduce_ops::type_suffix(dtype), std::move(args));
  return ctx.error().empty();
}

}  // namespace

void register_reduce_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::SUM, convert_sum, {"int8", "int16", "float32"});
  table.add(tflite::BuiltinOperator::REDUCE_MAX, convert_reduce_max, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::REDUCE_MIN, convert_reduce_min, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::ARG_MAX, convert_arg_max, {"int8 to int32/int64", "float32 to int32/int64"});
  table.add(tflite::BuiltinOperator::ARG_MIN, convert_arg_min, {"int8 to int32/int64", "float32 to int32/int64"});
  table.add(tflite::BuiltinOperator::CUMSUM, convert_cumsum, {"int8", "int32", "float32"});
  reduce_ops::register_normalize_ops(table);
  reduce_ops::register_matmul_ops(table);
}

}  // namespace grt::tools
