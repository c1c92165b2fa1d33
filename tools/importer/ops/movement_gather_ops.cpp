// Converters for the movement operators that pick elements by index: GATHER,
// EMBEDDING_LOOKUP (a gather of rows, dequantized after for int8 weights read as float32)
// and GATHER_ND. Constant indices are checked here; indices computed at run time are checked
// by the kernels, which refuse to read out of bounds.
#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/import_context.h"
#include "movement_common.h"

namespace grt::tools::movement {
namespace {

// Constant indices must all lie in [0, limit); run-time ones are the kernel's to check.
bool constant_indices_in_range(ImportContext& ctx, int32_t indices, int64_t limit) {
  if (!ctx.is_constant(indices)) return true;
  for (const int32_t i : ctx.constant_values<int32_t>(indices)) {
    if (i < 0 || i >= limit) return ctx.fail("index " + std::to_string(i) + " is outside [0, " + std::to_string(limit) + ")");
  }
  return true;
}

bool convert_gather(ImportContext& ctx) {
  if (!expect_operands(ctx, 2, 1)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t indices = ctx.input_index(1);
  const int32_t output = ctx.output_index(0);
  if (!expect_dtype(ctx, ctx.dtype(indices), {DType::Int32}, "indices type")) return false;
  if (!expect_dtype(ctx, ctx.dtype(input), {DType::Float32, DType::Int8})) return false;
  if (ctx.dtype(output) != ctx.dtype(input)) return ctx.fail("input and output types differ");
  const std::vector<int64_t> in_shape = ctx.shape(input);
  const std::vector<int64_t> index_shape = ctx.shape(indices);
  const auto* options = ctx.options<tflite::GatherOptions>();
  int axis = 0;
  if (!resolve_axis(ctx, options != nullptr ? options->axis() : 0, in_shape.size(), &axis)) return false;
  int batch_dims = options != nullptr ? options->batch_dims() : 0;
  if (batch_dims < 0) batch_dims += static_cast<int>(index_shape.size());
  if (batch_dims < 0 || batch_dims > axis || static_cast<size_t>(batch_dims) > index_shape.size()) {
    return ctx.fail("batch_dims must lie in [0, axis] and within the indices' rank");
  }
  std::vector<int64_t> expected(in_shape.begin(), in_shape.begin() + axis);
  for (size_t d = 0; d < static_cast<size_t>(batch_dims); ++d) {
    if (in_shape[d] != index_shape[d]) return ctx.fail("input and indices differ in batch dimension " + std::to_string(d));
  }
  expected.insert(expected.end(), index_shape.begin() + batch_dims, index_shape.end());
  expected.insert(expected.end(), in_shape.begin() + axis + 1, in_shape.end());
  if (ctx.shape(output) != expected) return ctx.fail("output shape is not the gathered shape");
  if (!constant_indices_in_range(ctx, indices, in_shape[static_cast<size_t>(axis)])) return false;
  ctx.add_node("gather", {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0)),
                          ArgDef::integer(axis), ArgDef::integer(batch_dims)});
  return ctx.error().empty();
}

// EMBEDDING_LOOKUP (lookup, value): rows of value by lookup; int8 values read as float32
// (TFLM's hybrid path) are gathered as int8 and then dequantized with zero point 0.
bool convert_embedding_lookup(ImportContext& ctx) {
  if (!expect_operands(ctx, 2, 1)) return false;
  const int32_t lookup = ctx.input_index(0);
  const int32_t value = ctx.input_index(1);
  const int32_t output = ctx.output_index(0);
  if (!expect_dtype(ctx, ctx.dtype(lookup), {DType::Int32}, "lookup type")) return false;
  const DType value_type = ctx.dtype(value);
  const DType out_type = ctx.dtype(output);
  if (!expect_dtype(ctx, value_type, {DType::Float32, DType::Int8}, "value type")) return false;
  const bool hybrid = value_type == DType::Int8 && out_type == DType::Float32;
  if (out_type != value_type && !hybrid) return ctx.fail("output type must be the value's (or float32 for int8 values)");
  const std::vector<int64_t> lookup_shape = ctx.shape(lookup);
  const std::vector<int64_t> value_shape = ctx.shape(value);
  if (lookup_shape.size() != 1) return ctx.fail("lookup must be one-dimensional");
  if (value_shape.size() < 2) return ctx.fail("value must have at least two dimensions");
  std::vector<int64_t> expected = value_shape;
  expected[0] = lookup_shape[0];
  if (ctx.shape(output) != expected) return ctx.fail("output shape is not the looked-up rows' shape");
  if (!constant_indices_in_range(ctx, lookup, value_shape[0])) return false;
  // The kernel takes (X, indices): value first.
  const std::vector<ArgDef> gather_inputs = {ArgDef::input(ctx.input(1)), ArgDef::input(ctx.input(0))};
  const std::vector<ArgDef> gather_params = {ArgDef::integer(0), ArgDef::integer(0)};
  if (!hybrid) {
    ctx.add_node("gather", {gather_inputs[0], gather_inputs[1], ArgDef::output(ctx.output(0)), gather_params[0], gather_params[1]});
    return ctx.error().empty();
  }
  if (ctx.scales(value).size() != 1 || ctx.zero_point(value) != 0) {
    return ctx.fail("int8 values read as float32 need one scale and zero point 0");
  }
  const uint32_t rows = ctx.graph().add_activation(ctx.op_name() + " rows", DType::Int8, expected);
  ctx.add_node("gather", {gather_inputs[0], gather_inputs[1], ArgDef::output(rows), gather_params[0], gather_params[1]});
  ctx.add_node("dequantize_s8_f32", {ArgDef::input(rows), ArgDef::output(ctx.output(0)),
                                     ArgDef::real(static_cast<double>(ctx.scale(value))), ArgDef::integer(0)});
  return ctx.error().empty();
}

// TFLM's MAX_INDICES_ND.
constexpr int64_t kMaxIndicesNd = 5;

bool convert_gather_nd(ImportContext& ctx) {
  if (!expect_operands(ctx, 2, 1)) return false;
  const int32_t params = ctx.input_index(0);
  const int32_t indices = ctx.input_index(1);
  const int32_t output = ctx.output_index(0);
  if (!expect_dtype(ctx, ctx.dtype(params), {DType::Float32, DType::Int8}, "params type")) return false;
  if (!expect_dtype(ctx, ctx.dtype(indices), {DType::Int32}, "indices type")) return false;
  if (ctx.dtype(output) != ctx.dtype(params)) return ctx.fail("params and output types differ");
  const std::vector<int64_t> params_shape = ctx.shape(params);
  const std::vector<int64_t> index_shape = ctx.shape(indices);
  if (params_shape.empty()) return ctx.fail("params must be at least a vector");
  if (index_shape.empty()) return ctx.fail("indices must be at least a vector");
  const int64_t nd = index_shape.back();
  if (nd < 0 || nd > static_cast<int64_t>(params_shape.size())) return ctx.fail("the index depth exceeds the params' rank");
  if (nd > kMaxIndicesNd) return ctx.fail("TFLM takes index depths of at most 5");
  std::vector<int64_t> expected(index_shape.begin(), index_shape.end() - 1);
  expected.insert(expected.end(), params_shape.begin() + nd, params_shape.end());
  if (ctx.shape(output) != expected) return ctx.fail("output shape is not the gathered shape");
  ctx.add_node("gather_nd", {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0))});
  return ctx.error().empty();
}

}  // namespace

void register_movement_gather_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::GATHER, convert_gather, {"int8 (int32 indices)", "float32 (int32 indices)"});
  table.add(tflite::BuiltinOperator::EMBEDDING_LOOKUP, convert_embedding_lookup, {"int8", "float32", "int8 to float32"});
  table.add(tflite::BuiltinOperator::GATHER_ND, convert_gather_nd, {"int8 (int32 indices)", "float32 (int32 indices)"});
}

}  // namespace grt::tools::movement
