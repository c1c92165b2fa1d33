// Converters for the binary family's selections and comparisons (kernels/src/binary/):
// MINIMUM, MAXIMUM, EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL, SELECT_V2,
// LOGICAL_AND, LOGICAL_OR and LOGICAL_NOT.
#include <cstdint>
#include <string>
#include <vector>

#include "binary_helpers.h"

namespace grt::tools::binary {
namespace {

// ---- MINIMUM and MAXIMUM: raw elements compared, as TFLM does (no rescaling) ----

bool convert_extremum(ImportContext& ctx, const char* name) {
  if (!expect_operands(ctx, 2)) return false;
  DType dtype{};
  if (!expect_shared_type(ctx, {DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::Float32}, &dtype)) return false;
  if (!expect_broadcast(ctx)) return false;
  ctx.add_node(std::string(name) + "_" + type_suffix(dtype),
               {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0))});
  return ctx.error().empty();
}

bool convert_maximum(ImportContext& ctx) { return convert_extremum(ctx, "maximum"); }
bool convert_minimum(ImportContext& ctx) { return convert_extremum(ctx, "minimum"); }

// ---- Comparisons ----

// TFLM's ComparisonsPrepare for int8: each input's scale itself as a multiplier below one,
// applied after a left shift of 8.
bool add_rescaling(ImportContext& ctx, std::vector<ArgDef>* args) {
  constexpr int kLeftShift = 8;
  args->push_back(ArgDef::integer(kLeftShift));
  for (int i = 0; i < 2; ++i) {
    const int32_t x = ctx.input_index(i);
    const std::string what = "input " + std::to_string(i);
    FixedPointMultiplier m;
    if (!expect_per_tensor(ctx, x, -128, 127, what.c_str()) ||
        !multiplier_below_one(ctx, static_cast<double>(ctx.scale(x)), (what + " scale").c_str(), &m)) {
      return false;
    }
    args->insert(args->end(), {ArgDef::integer(-ctx.zero_point(x)), ArgDef::integer(m.multiplier), ArgDef::integer(m.shift)});
  }
  return true;
}

bool convert_comparison(ImportContext& ctx, const char* name, bool equality) {
  if (!expect_operands(ctx, 2)) return false;
  const DType dtype = ctx.dtype(ctx.input_index(0));
  if (ctx.dtype(ctx.input_index(1)) != dtype) return ctx.fail("inputs must share one type");
  if (ctx.dtype(ctx.output_index(0)) != DType::Bool) return ctx.fail("output must be bool");
  if (!ctx.error().empty()) return false;
  const bool supported = dtype == DType::Int8 || dtype == DType::Int32 || dtype == DType::Int64 ||
                         dtype == DType::Float32 || (equality && dtype == DType::Bool);
  if (!supported) {
    // TFLM's GREATER lists int16 but never prepares its rescaling (it reads unset parameters).
    return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported (TFLM's kernel refuses it)");
  }
  if (!expect_broadcast(ctx)) return false;
  std::vector<ArgDef> args{ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0))};
  if (dtype == DType::Int8 && !add_rescaling(ctx, &args)) return false;
  ctx.add_node(std::string(name) + "_" + type_suffix(dtype), std::move(args));
  return ctx.error().empty();
}

bool convert_equal(ImportContext& ctx) { return convert_comparison(ctx, "equal", true); }
bool convert_not_equal(ImportContext& ctx) { return convert_comparison(ctx, "not_equal", true); }
bool convert_greater(ImportContext& ctx) { return convert_comparison(ctx, "greater", false); }
bool convert_greater_equal(ImportContext& ctx) { return convert_comparison(ctx, "greater_equal", false); }
bool convert_less(ImportContext& ctx) { return convert_comparison(ctx, "less", false); }
bool convert_less_equal(ImportContext& ctx) { return convert_comparison(ctx, "less_equal", false); }

// ---- SELECT_V2: values are copied, not rescaled (as in TFLM) ----

bool convert_select_v2(ImportContext& ctx) {
  if (!expect_operands(ctx, 3)) return false;
  if (ctx.dtype(ctx.input_index(0)) != DType::Bool) return ctx.fail("condition must be bool");
  const DType dtype = ctx.dtype(ctx.input_index(1));
  if (ctx.dtype(ctx.input_index(2)) != dtype || ctx.dtype(ctx.output_index(0)) != dtype) {
    return ctx.fail("x, y and output must share one type");
  }
  if (!ctx.error().empty()) return false;
  if (dtype != DType::Int8 && dtype != DType::Int16 && dtype != DType::Float32) {
    return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported (TFLM's kernel refuses it)");
  }
  // TFLM also accepts operands that each hold one element, whatever their ranks.
  bool single = true;
  for (const int32_t t : {ctx.input_index(0), ctx.input_index(1), ctx.input_index(2), ctx.output_index(0)}) {
    int64_t elements = 1;
    for (const int64_t d : ctx.shape(t)) elements *= d;
    single = single && elements == 1;
  }
  if (!single && !expect_broadcast(ctx)) return false;
  ctx.add_node("select_v2_" + type_suffix(dtype), {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)),
                                                   ArgDef::input(ctx.input(2)), ArgDef::output(ctx.output(0))});
  return ctx.error().empty();
}

// ---- LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT (bool only) ----

bool convert_logical(ImportContext& ctx, const char* kernel, int inputs) {
  if (!expect_operands(ctx, inputs)) return false;
  DType dtype{};
  if (!expect_shared_type(ctx, {DType::Bool}, &dtype)) return false;
  if (!expect_broadcast(ctx)) return false;
  std::vector<ArgDef> args;
  for (int i = 0; i < inputs; ++i) args.push_back(ArgDef::input(ctx.input(i)));
  args.push_back(ArgDef::output(ctx.output(0)));
  ctx.add_node(kernel, std::move(args));
  return ctx.error().empty();
}

bool convert_logical_and(ImportContext& ctx) { return convert_logical(ctx, "logical_and_bool", 2); }
bool convert_logical_or(ImportContext& ctx) { return convert_logical(ctx, "logical_or_bool", 2); }
bool convert_logical_not(ImportContext& ctx) { return convert_logical(ctx, "logical_not_bool", 1); }

}  // namespace

void register_binary_compare_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::MAXIMUM, convert_maximum, {"int8", "int16", "int32", "int64", "float32"});
  table.add(tflite::BuiltinOperator::MINIMUM, convert_minimum, {"int8", "int16", "int32", "int64", "float32"});
  table.add(tflite::BuiltinOperator::EQUAL, convert_equal, {"int8", "int32", "int64", "float32", "bool"});
  table.add(tflite::BuiltinOperator::NOT_EQUAL, convert_not_equal, {"int8", "int32", "int64", "float32", "bool"});
  table.add(tflite::BuiltinOperator::GREATER, convert_greater, {"int8", "int32", "int64", "float32"});
  table.add(tflite::BuiltinOperator::GREATER_EQUAL, convert_greater_equal, {"int8", "int32", "int64", "float32"});
  table.add(tflite::BuiltinOperator::LESS, convert_less, {"int8", "int32", "int64", "float32"});
  table.add(tflite::BuiltinOperator::LESS_EQUAL, convert_less_equal, {"int8", "int32", "int64", "float32"});
  table.add(tflite::BuiltinOperator::SELECT_V2, convert_select_v2, {"int8", "int16", "float32"});
  table.add(tflite::BuiltinOperator::LOGICAL_AND, convert_logical_and, {"bool"});
  table.add(tflite::BuiltinOperator::LOGICAL_OR, convert_logical_or, {"bool"});
  table.add(tflite::BuiltinOperator::LOGICAL_NOT, convert_logical_not, {"bool"});
}

}  // namespace grt::tools::binary
