// Converters for data movement that joins or cuts tensors: CONCATENATION and PACK (the
// concatenation kernel), UNPACK, SPLIT, SPLIT_V, SLICE and REVERSE_V2 (box copies through
// the strided_slice kernel, one node per output). The other movement operators are in
// movement_gather_ops.cpp and movement_value_ops.cpp. Each refuses what TFLM's kernel
// refuses, in a line that says so.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/import_context.h"
#include "movement_common.h"

namespace grt::tools {
namespace {

using movement::constant_integers;
using movement::BoxCopies;
using movement::expect_dtype;
using movement::expect_operands;
using movement::resolve_axis;

// TFLM's RuntimeShape holds at most this many dimensions inline; CONCATENATION refuses more.
constexpr size_t kTflmMaxSmallRank = 6;

// ---- CONCATENATION and PACK ----

// `shape` is `out` with dimension `axis` replaced (CONCATENATION) or removed (PACK).
bool fits_off_axis(const std::vector<int64_t>& shape, const std::vector<int64_t>& out, int axis, bool removed) {
  if (shape.size() + (removed ? 1 : 0) != out.size()) return false;
  for (size_t d = 0, o = 0; o < out.size(); ++o) {
    if (static_cast<int>(o) == axis) {
      if (!removed) ++d;
      continue;
    }
    if (shape[d++] != out[o]) return false;
  }
  return true;
}

bool emit_concatenation(ImportContext& ctx, int axis, bool pack) {
  const int32_t output = ctx.output_index(0);
  const std::vector<int64_t> out_shape = ctx.shape(output);
  int64_t along_axis = 0;
  std::vector<ArgDef> args = {ArgDef::output(ctx.output(0)), ArgDef::integer(axis)};
  for (int i = 0; i < ctx.input_count(); ++i) {
    const int32_t input = ctx.input_index(i);
    if (ctx.dtype(input) != ctx.dtype(output)) return ctx.fail("inputs and output must share one type");
    const std::vector<int64_t> shape = ctx.shape(input);
    if (!fits_off_axis(shape, out_shape, axis, pack)) {
      return ctx.fail("input " + std::to_string(i) + "'s shape does not fit the output's off axis " + std::to_string(axis));
    }
    along_axis += pack ? 1 : shape[static_cast<size_t>(axis)];
    args.push_back(ArgDef::input(ctx.input(i)));
  }
  if (along_axis != out_shape[static_cast<size_t>(axis)]) return ctx.fail("inputs do not add up to the output along the axis");
  ctx.add_node("concatenation", std::move(args));
  return ctx.error().empty();
}

bool convert_concatenation(ImportContext& ctx) {
  if (!expect_operands(ctx, -1, 1)) return false;
  // TFLM's kMaxInputNum.
  if (ctx.input_count() > 10) return ctx.fail("TFLM concatenates at most 10 inputs, this has " + std::to_string(ctx.input_count()));
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(output);
  if (!expect_dtype(ctx, dtype, {DType::Float32, DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::Bool})) return false;
  const auto* options = ctx.options<tflite::ConcatenationOptions>();
  if (options != nullptr && options->fused_activation_function() != tflite::ActivationFunctionType::NONE) {
    return ctx.fail("a fused activation is not supported (TFLM requires NONE)");
  }
  const size_t rank = ctx.shape(output).size();
  if (rank > kTflmMaxSmallRank) return ctx.fail("TFLM concatenates tensors of at most 6 dimensions");
  for (int i = 0; i < ctx.input_count(); ++i) {
    const int32_t input = ctx.input_index(i);
    if (dtype == DType::Int8 && (ctx.scale(input) != ctx.scale(output) || ctx.zero_point(input) != ctx.zero_point(output))) {
      return ctx.fail("int8 input " + std::to_string(i) + " must have the output's scale and zero point (TFLM refuses otherwise)");
    }
    if (dtype == DType::Int16 && ctx.zero_point(input) != 0) return ctx.fail("int16 inputs must have zero point 0");
  }
  if (dtype == DType::Int16 && ctx.zero_point(output) != 0) return ctx.fail("an int16 output must have zero point 0");
  int axis = 0;
  if (!resolve_axis(ctx, options != nullptr ? options->axis() : 0, rank, &axis)) return false;
  return emit_concatenation(ctx, axis, false);
}

bool convert_pack(ImportContext& ctx) {
  if (!expect_operands(ctx, -1, 1)) return false;
  const int32_t output = ctx.output_index(0);
  if (!expect_dtype(ctx, ctx.dtype(output), {DType::Float32, DType::Int8, DType::Int16, DType::Int32, DType::Int64})) return false;
  const auto* options = ctx.options<tflite::PackOptions>();
  if (options != nullptr && options->values_count() != ctx.input_count()) {
    return ctx.fail("values_count " + std::to_string(options->values_count()) + " is not the " +
                    std::to_string(ctx.input_count()) + " inputs");
  }
  int axis = 0;
  if (!resolve_axis(ctx, options != nullptr ? options->axis() : 0, ctx.shape(output).size(), &axis)) return false;
  return emit_concatenation(ctx, axis, true);
}

// ---- UNPACK, SPLIT and SPLIT_V: each output is a box of the input ----

// Output i takes `extent_i` indices along `axis` after those of the outputs before it;
// `dropped` (UNPACK): the outputs lack the axis dimension, each taking one index.
bool emit_pieces(ImportContext& ctx, int32_t input, int axis, bool dropped) {
  const std::vector<int64_t> in_shape = ctx.shape(input);
  const auto a = static_cast<size_t>(axis);
  int64_t start = 0;
  BoxCopies copies(ctx);
  for (int i = 0; i < ctx.output_count(); ++i) {
    const int32_t output = ctx.output_index(i);
    if (ctx.dtype(output) != ctx.dtype(input)) return ctx.fail("outputs must have the input's type");
    const std::vector<int64_t> out_shape = ctx.shape(output);
    if (!fits_off_axis(out_shape, in_shape, axis, dropped)) {
      return ctx.fail("output " + std::to_string(i) + "'s shape does not fit the input's off axis " + std::to_string(axis));
    }
    std::vector<int64_t> begin(in_shape.size(), 0);
    std::vector<int64_t> counts = in_shape;
    begin[a] = start;
    counts[a] = dropped ? 1 : out_shape[a];
    start += counts[a];
    if (start > in_shape[a]) return ctx.fail("the outputs take more than the input has along the axis");
    copies.emit(ctx.graph_tensor(input), ctx.output(i), begin, counts);
  }
  if (start != in_shape[a]) return ctx.fail("the outputs do not add up to the input along the axis");
  return ctx.error().empty();
}

bool convert_unpack(ImportContext& ctx) {
  if (!expect_operands(ctx, 1, -1)) return false;
  const int32_t input = ctx.input_index(0);
  if (!expect_dtype(ctx, ctx.dtype(input), {DType::Float32, DType::Int32, DType::Int16, DType::Int8})) return false;
  const auto* options = ctx.options<tflite::UnpackOptions>();
  if (options != nullptr && options->num() != ctx.output_count()) {
    return ctx.fail("num " + std::to_string(options->num()) + " is not the " + std::to_string(ctx.output_count()) + " outputs");
  }
  int axis = 0;
  if (!resolve_axis(ctx, options != nullptr ? options->axis() : 0, ctx.shape(input).size(), &axis)) return false;
  return emit_pieces(ctx, input, axis, true);
}

// SPLIT (axis, input) and SPLIT_V (input, size_splits, axis): the outputs' static shapes say
// where each piece ends, as they do for TFLM's kernels.
bool convert_split_common(ImportContext& ctx, int32_t input, int32_t axis_tensor) {
  if (!expect_dtype(ctx, ctx.dtype(input), {DType::Float32, DType::Int8, DType::Int16, DType::Int32})) return false;
  if (ctx.dtype(axis_tensor) != DType::Int32) return ctx.fail("axis must be int32");
  std::vector<int64_t> axis_value;
  if (!constant_integers(ctx, axis_tensor, "axis", &axis_value)) return false;
  if (axis_value.size() != 1) return ctx.fail("axis must hold one value");
  int axis = 0;
  if (!resolve_axis(ctx, axis_value[0], ctx.shape(input).size(), &axis)) return false;
  return emit_pieces(ctx, input, axis, false);
}

bool convert_split(ImportContext& ctx) {
  if (!expect_operands(ctx, 2, -1)) return false;
  const auto* options = ctx.options<tflite::SplitOptions>();
  if (options != nullptr && options->num_splits() != ctx.output_count()) {
    return ctx.fail("num_splits is not the number of outputs");
  }
  return convert_split_common(ctx, ctx.input_index(1), ctx.input_index(0));
}

bool convert_split_v(ImportContext& ctx) {
  if (!expect_operands(ctx, 3, -1)) return false;
  const auto* options = ctx.options<tflite::SplitVOptions>();
  if (options != nullptr && options->num_splits() != ctx.output_count()) {
    return ctx.fail("num_splits is not the number of outputs");
  }
  return convert_split_common(ctx, ctx.input_index(0), ctx.input_index(2));
}

// ---- SLICE ----

bool convert_slice(ImportContext& ctx) {
  if (!expect_operands(ctx, 3, 1)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(input);
  if (!expect_dtype(ctx, dtype, {DType::Float32, DType::Int32, DType::Int8, DType::Int16, DType::Bool})) return false;
  if (ctx.dtype(output) != dtype) return ctx.fail("input and output types differ");
  const std::vector<int64_t> in_shape = ctx.shape(input);
  // TFLM's slice works in 5 dimensions.
  if (in_shape.size() > 5) return ctx.fail("TFLM slices tensors of at most 5 dimensions");
  const DType index_type = ctx.dtype(ctx.input_index(1));
  if (!expect_dtype(ctx, index_type, {DType::Int32, DType::Int64}, "begin type")) return false;
  if (ctx.dtype(ctx.input_index(2)) != index_type) return ctx.fail("begin and size types differ");
  std::vector<int64_t> begin;
  std::vector<int64_t> size;
  if (!constant_integers(ctx, ctx.input_index(1), "begin", &begin) || !constant_integers(ctx, ctx.input_index(2), "size", &size)) {
    return false;
  }
  if (begin.size() != in_shape.size() || size.size() != in_shape.size()) {
    return ctx.fail("begin and size need one entry per input dimension");
  }
  for (size_t d = 0; d < in_shape.size(); ++d) {
    // Compared without adding, so that no operand read from the file can overflow.
    const bool begin_inside = begin[d] >= 0 && begin[d] <= in_shape[d];
    // A size of -1 takes the rest of the dimension.
    if (begin_inside && size[d] == -1) size[d] = in_shape[d] - begin[d];
    if (!begin_inside || size[d] < 0 || size[d] > in_shape[d] - begin[d]) {
      return ctx.fail("the slice leaves the input along dimension " + std::to_string(d));
    }
  }
  if (movement::element_count(size) != movement::element_count(ctx.shape(output))) {
    return ctx.fail("the slice's size does not match the output's");
  }
  BoxCopies(ctx).emit(ctx.input(0), ctx.output(0), begin, size);
  return ctx.error().empty();
}

// ---- REVERSE_V2: a walk backwards along the reversed axes ----

bool convert_reverse_v2(ImportContext& ctx) {
  if (!expect_operands(ctx, 2, 1)) return false;
  const int32_t input = ctx.input_index(0);
  const DType dtype = ctx.dtype(input);
  if (!expect_dtype(ctx, dtype, {DType::Int32, DType::Float32, DType::UInt8, DType::Int8, DType::Int16, DType::Int64, DType::Bool})) {
    return false;
  }
  if (ctx.dtype(ctx.output_index(0)) != dtype) return ctx.fail("input and output types differ");
  const std::vector<int64_t> shape = ctx.shape(input);
  if (shape.size() > kTflmMaxSmallRank) return ctx.fail("TFLM reverses tensors of at most 6 dimensions");
  if (ctx.shape(ctx.output_index(0)) != shape) return ctx.fail("output shape is not the input's");
  if (ctx.dtype(ctx.input_index(1)) != DType::Int32) return ctx.fail("axis must be int32");
  std::vector<int64_t> axes_given;
  if (!constant_integers(ctx, ctx.input_index(1), "axis", &axes_given)) return false;
  if (axes_given.empty() || axes_given.size() > shape.size()) return ctx.fail("axis needs 1 to rank entries");
  std::vector<int> axes;
  for (const int64_t a : axes_given) {
    int resolved = 0;
    if (!resolve_axis(ctx, a, shape.size(), &resolved)) return false;
    axes.push_back(resolved);
  }
  std::sort(axes.begin(), axes.end());
  for (size_t i = 1; i < axes.size(); ++i) {
    if (axes[i - 1] + 1 != axes[i]) return ctx.fail("axes that are not contiguous are not supported (as in TFLM)");
  }
  std::vector<int64_t> begin(shape.size(), 0);
  std::vector<int64_t> strides(shape.size(), 1);
  for (const int a : axes) {
    const auto d = static_cast<size_t>(a);
    begin[d] = shape[d] == 0 ? 0 : shape[d] - 1;
    strides[d] = -1;
  }
  BoxCopies(ctx).emit(ctx.input(0), ctx.output(0), begin, shape, strides);
  return ctx.error().empty();
}

}  // namespace

void register_movement_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::CONCATENATION, convert_concatenation, {"int8", "int16", "int32", "int64", "float32", "bool"});
  table.add(tflite::BuiltinOperator::PACK, convert_pack, {"int8", "int16", "int32", "int64", "float32"});
  table.add(tflite::BuiltinOperator::UNPACK, convert_unpack, {"int8", "int16", "int32", "float32"});
  table.add(tflite::BuiltinOperator::SPLIT, convert_split, {"int8", "int16", "int32", "float32"});
  table.add(tflite::BuiltinOperator::SPLIT_V, convert_split_v, {"int8", "int16", "int32", "float32"});
  table.add(tflite::BuiltinOperator::SLICE, convert_slice, {"int8", "int16", "int32", "float32", "bool"});
  table.add(tflite::BuiltinOperator::REVERSE_V2, convert_reverse_v2,
            {"int8", "uint8", "int16", "int32", "int64", "float32", "bool"});
  movement::register_movement_gather_ops(table);
  movement::register_movement_value_ops(table);
}

}  // namespace grt::tools
