// Converters for the movement operators that make or convert values: CAST, FILL,
// ZEROS_LIKE (a fill with a constant zero), SHAPE (a copy of a constant: shapes are static)
// and BROADCAST_TO.
#include <cstdint>
#include <string>
#include <vector>

#include "converter_checks.h"
#include "graphrt/tools/import_context.h"
#include "movement_common.h"

namespace grt::tools::movement {
namespace {

bool convert_cast(ImportContext& ctx) {
  if (!expect_operands(ctx, 1, 1)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  // uint32 (the audio front end's energies) casts to and from the integer types with the
  // bits of an int32, so it takes the int32 kernels; float conversions would differ.
  const bool unsigned_word = ctx.is_unsigned_word(input) || ctx.is_unsigned_word(output);
  if (unsigned_word) ctx.accept_unsigned_words();
  const DType from = ctx.dtype(input);
  const DType to = ctx.dtype(output);
  if (unsigned_word && (from != DType::Int32 && to != DType::Int32)) return ctx.fail("casts of uint64 are not supported");
  if (unsigned_word && (from == DType::Float32 || to == DType::Float32 || from == DType::Bool)) {
    return ctx.fail("casts between uint32 and float32 or bool are not supported");
  }
  if (!expect_dtype(ctx, from, {DType::Int8, DType::Int16, DType::Int32, DType::Float32, DType::Bool}, "input type") ||
      !expect_dtype(ctx, to, {DType::Int8, DType::Int16, DType::Int32, DType::Float32}, "output type")) {
    return false;
  }
  if (element_count(ctx.shape(input)) != element_count(ctx.shape(output))) return ctx.fail("input and output sizes differ");
  if (from == to && unsigned_word && ctx.tensor(input)->type() != ctx.tensor(output)->type()) {
    // uint32 <-> int32: the same bits, but an alias keeps one TFLite type.
    ctx.add_node("copy", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0))});
    return ctx.error().empty();
  }
  if (from == to) {
    ctx.make_alias(output, input);
    return ctx.error().empty();
  }
  ctx.add_node("cast_" + type_suffix(from) + "_" + type_suffix(to), {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0))});
  return ctx.error().empty();
}

// FILL (dims, value): dims must be a constant that says the output's shape, as TFLM requires.
bool convert_fill(ImportContext& ctx) {
  if (!expect_operands(ctx, 2, 1)) return false;
  const int32_t dims = ctx.input_index(0);
  const int32_t value = ctx.input_index(1);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(output);
  if (!expect_dtype(ctx, dtype, {DType::Float32, DType::Int32, DType::Int8})) return false;
  if (ctx.dtype(value) != dtype) return ctx.fail("value and output types differ");
  if (!ctx.shape(value).empty()) return ctx.fail("value must be a scalar");
  if (!expect_dtype(ctx, ctx.dtype(dims), {DType::Int8, DType::Int16, DType::Int32, DType::Int64}, "dims type")) return false;
  std::vector<int64_t> dims_values;
  if (!constant_integers(ctx, dims, "dims", &dims_values)) return false;
  if (dims_values != ctx.shape(output)) return ctx.fail("dims do not match the output's shape");
  ctx.add_node("fill", {ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0))});
  return ctx.error().empty();
}

bool convert_zeros_like(ImportContext& ctx) {
  if (!expect_operands(ctx, 1, 1)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(input);
  if (!expect_dtype(ctx, dtype, {DType::Int64, DType::Int32, DType::Int8, DType::Float32})) return false;
  if (ctx.dtype(output) != dtype) return ctx.fail("input and output types differ");
  if (element_count(ctx.shape(input)) != element_count(ctx.shape(output))) return ctx.fail("input and output sizes differ");
  // Zero bits are zero in every one of these types (TFLM writes 0, not the zero point).
  const uint32_t zero = ctx.constant(ctx.op_name() + " zero", dtype, {}, std::vector<uint8_t>(dtype_bytes(dtype), 0));
  ctx.add_node("fill", {ArgDef::input(zero), ArgDef::output(ctx.output(0))});
  return ctx.error().empty();
}

bool convert_shape(ImportContext& ctx) {
  if (!expect_operands(ctx, 1, 1)) return false;
  const int32_t output = ctx.output_index(0);
  // TFLM's SHAPE writes int32 only, whatever out_type says.
  if (!expect_dtype(ctx, ctx.dtype(output), {DType::Int32}, "output type")) return false;
  const std::vector<int64_t> shape = ctx.shape(ctx.input_index(0));
  if (ctx.shape(output) != std::vector<int64_t>{static_cast<int64_t>(shape.size())}) {
    return ctx.fail("output must hold one value per input dimension");
  }
  const std::vector<int32_t> values(shape.begin(), shape.end());
  ctx.add_node("copy", {ArgDef::input(ctx.int_array(ctx.op_name() + " shape", values)), ArgDef::output(ctx.output(0))});
  return ctx.error().empty();
}

// TFLM's BroadcastTo works in at most 5 dimensions.
constexpr size_t kMaxBroadcastRank = 5;

bool convert_broadcast_to(ImportContext& ctx) {
  if (!expect_operands(ctx, 2, 1)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  if (ctx.dtype(output) != ctx.dtype(input)) return ctx.fail("input and output types differ");
  if (!expect_dtype(ctx, ctx.dtype(ctx.input_index(1)), {DType::Int32, DType::Int64}, "shape type")) return false;
  std::vector<int64_t> target;
  if (!constant_integers(ctx, ctx.input_index(1), "shape", &target)) return false;
  const std::vector<int64_t> in_shape = ctx.shape(input);
  if (target != ctx.shape(output)) return ctx.fail("the shape operand does not match the output's shape");
  if (target.size() > kMaxBroadcastRank) return ctx.fail("TFLM broadcasts to at most 5 dimensions");
  if (in_shape.size() > target.size()) return ctx.fail("the output has fewer dimensions than the input");
  const size_t extra = target.size() - in_shape.size();
  for (size_t d = 0; d < in_shape.size(); ++d) {
    if (in_shape[d] != 1 && in_shape[d] != target[extra + d]) return ctx.fail("the output shape is not broadcastable from the input's");
  }
  ctx.add_node("broadcast_to", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0))});
  return ctx.error().empty();
}

}  // namespace

void register_movement_value_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::CAST, convert_cast,
            {"int8/int16/int32/float32/bool to int8/int16/int32/float32", "int8/int16/int32 to and from uint32 (its bits)"});
  table.add(tflite::BuiltinOperator::FILL, convert_fill, {"int8", "int32", "float32"});
  table.add(tflite::BuiltinOperator::ZEROS_LIKE, convert_zeros_like, {"int8", "int32", "int64", "float32"});
  table.add(tflite::BuiltinOperator::SHAPE, convert_shape, {"int32 (of any input)"});
  table.add(tflite::BuiltinOperator::BROADCAST_TO, convert_broadcast_to, every_dtype());
}

}  // namespace grt::tools::movement
