// Converters for reductions (see kernels/src/reduce/): SUM, REDUCE_MAX, REDUCE_MIN, ARG_MAX and
// ARG_MIN here; LOG_SOFTMAX and L2_NORMALIZATION in reduce_normalize_ops.cpp; BATCH_MATMUL and
// CUMSUM in reduce_matmul_ops.cpp. MEAN shares SUM's converter (reduce_common.cpp).
#include <cmath>
#include <string>
#include <vector>

#include "graphrt/tools/import_context.h"
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
  if (ctx.constant_bytes(ctx.input_index(1)).size() != (ctx.dtype(ctx.input_index(1)) == DType::Int64 ? 8u : 4u)) {
    return ctx.fail("axis must hold one value");
  }
  ReductionWalk walk;
  if (!reduce_ops::reduction_walk_for(ctx, &walk)) return false;
  if (ctx.shape(output).size() + 1 != shape.size()) return ctx.fail("output must have rank input rank - 1");
  ctx.add_node(std::string(op) + "_" + reduce_ops::type_suffix(dtype) + "_" + reduce_ops::type_suffix(index_type),
               reduce_ops::reduction_args(ctx, walk));
  return ctx.error().empty();
}

bool convert_arg_max(ImportContext& ctx) { return convert_arg_min_max(ctx, "arg_max"); }
bool convert_arg_min(ImportContext& ctx) { return convert_arg_min_max(ctx, "arg_min"); }

}  // namespace

void register_reduce_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::SUM, convert_sum);
  table.add(tflite::BuiltinOperator::REDUCE_MAX, convert_reduce_max);
  table.add(tflite::BuiltinOperator::REDUCE_MIN, convert_reduce_min);
  table.add(tflite::BuiltinOperator::ARG_MAX, convert_arg_max);
  table.add(tflite::BuiltinOperator::ARG_MIN, convert_arg_min);
  reduce_ops::register_normalize_ops(table);
  reduce_ops::register_matmul_ops(table);
}

}  // namespace grt::tools
