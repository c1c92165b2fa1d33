// Converters for the activation kernel family (see kernels/src/activation/): LOGISTIC, TANH,
// RELU, RELU6, RELU_N1_TO_1, HARD_SWISH, PRELU, ELU, ABS, NEG, EXP, LOG, SQRT, RSQRT, SQUARE,
// SIN, COS, FLOOR, CEIL and ROUND, for the types TFLM's reference kernels take.
//
// int8 unary activations become lookup_s8 with a table computed here by TFLM's arithmetic
// (activation_tables.cpp); int16 ones get kernels with the parameters TFLM's Prepare derives;
// float ones the kernel of the same name.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "activation_tables.h"
#include "sigmoid_table.h"
#include "graphrt/tools/import_context.h"
#include "graphrt/tools/quantize_params.h"

namespace grt::tools {
namespace {

using activation::Int8Table;
using activation::Quantization;

// The fused activation codes quantized_activation_range takes for the RELU operators.
constexpr int kRelu = 1;
constexpr int kReluN1To1 = 2;
constexpr int kRelu6 = 3;

// A unary operator's operands: one input, one output, one type, as many elements.
struct Unary {
  int32_t input = -1;
  int32_t output = -1;
  DType dtype = DType::Int8;
};

uint64_t element_count(const std::vector<int64_t>& shape) {
  uint64_t n = 1;
  for (const int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

bool unary_operands(ImportContext& ctx, Unary* u) {
  if (ctx.input_count() != 1 || !ctx.has_input(0)) return ctx.fail("expects 1 input, has " + std::to_string(ctx.input_count()));
  if (ctx.output_count() != 1) return ctx.fail("expects 1 output, has " + std::to_string(ctx.output_count()));
  u->input = ctx.input_index(0);
  u->output = ctx.output_index(0);
  u->dtype = ctx.dtype(u->input);
  if (!ctx.error().empty()) return false;
  if (ctx.dtype(u->output) != u->dtype) return ctx.fail("input and output types differ");
  if (element_count(ctx.shape(u->input)) != element_count(ctx.shape(u->output))) {
    return ctx.fail("input and output sizes differ");
  }
  return true;
}

bool unsupported_type(ImportContext& ctx, DType dtype) {
  return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported");
}

// Per-tensor quantization of a TFLite tensor, or a failure naming it.
bool quantization_of(ImportContext& ctx, int32_t tensor, const char* what, Quantization* q) {
  const std::vector<float> scales = ctx.scales(tensor);
  if (scales.size() != 1 || !(scales[0] > 0.0f) || !std::isfinite(scales[0])) {
    return ctx.fail(std::string(what) + " must be quantized per tensor");
  }
  q->scale = scales[0];
  q->zero_point = ctx.zero_point(tensor);
  return true;
}

bool quantized_operands(ImportContext& ctx, const Unary& u, Quantization* in, Quantization* out) {
  return quantization_of(ctx, u.input, "input", in) && quantization_of(ctx, u.output, "output", out);
}

void add_float_node(ImportContext& ctx, const std::string& kernel, std::vector<ArgDef> extra = {}) {
  std::vector<ArgDef> args{ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0))};
  args.insert(args.end(), extra.begin(), extra.end());
  ctx.add_node(kernel, std::move(args));
}

void add_lookup_node(ImportContext& ctx, const Int8Table& table) {
  std::vector<uint8_t> bytes(table.size());
  std::memcpy(bytes.data(), table.data(), table.size());
  const uint32_t constant = ctx.constant(ctx.op_name() + " table", DType::Int8, {256}, std::move(bytes));
  ctx.add_node("lookup_s8", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::input(constant)});
}

// An int8 operator as lookup_s8 over the table `build` makes from the quantizations (or the
// builder's refusal).
using TableBuilder = std::function<bool(Quantization in, Quantization out, Int8Table* table, std::string* error)>;

bool convert_int8_table(ImportContext& ctx, const Unary& u, const TableBuilder& build) {
  Quantization in;
  Quantization out;
  if (!quantized_operands(ctx, u, &in, &out)) return false;
  Int8Table table{};
  std::string error;
  if (!build(in, out, &table, &error)) return ctx.fail(error);
  add_lookup_node(ctx, table);
  return ctx.error().empty();
}

// ---- float32-only math ----

bool convert_float_only(ImportContext& ctx, const char* kernel) {
  Unary u;
  if (!unary_operands(ctx, &u)) return false;
  if (u.dtype != DType::Float32) return unsupported_type(ctx, u.dtype);
  add_float_node(ctx, kernel);
  return ctx.error().empty();
}

// ---- LOGISTIC and TANH ----

// int16: logistic_s16 / tanh_s16 interpolating the sigmoid table, given as a constant.
bool convert_int16_sigmoid(ImportContext& ctx, const Unary& u, bool tanh) {
  Quantization in;
  Quantization out;
  if (!quantized_operands(ctx, u, &in, &out)) return false;
  int32_t multiplier = 0;
  int shift = 0;
  std::string error;
  if (!activation::int16_sigmoid_rescale(tanh, in.scale, in.zero_point, out.scale, out.zero_point, &multiplier, &shift, &error)) {
    return ctx.fail(error);
  }
  const std::string table = activation::sigmoid_q16_table_bytes();
  const uint32_t constant =
      ctx.constant(ctx.op_name() + " sigmoid table", DType::Int16, {256}, std::vector<uint8_t>(table.begin(), table.end()));
  ctx.add_node(tanh ? "tanh_s16" : "logistic_s16", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::input(constant),
                                                    ArgDef::integer(multiplier), ArgDef::integer(shift)});
  return ctx.error().empty();
}

// int8 LOGISTIC also requires the output zero point -128; int8 TANH ignores the output's
// quantization, as TFLM's kernels do.
bool convert_sigmoid(ImportContext& ctx, bool tanh) {
  Unary u;
  if (!unary_operands(ctx, &u)) return false;
  if (u.dtype == DType::Float32) {
    add_float_node(ctx, tanh ? "tanh_f32" : "logistic_f32");
    return ctx.error().empty();
  }
  if (u.dtype == DType::Int16) return convert_int16_sigmoid(ctx, u, tanh);
  if (u.dtype != DType::Int8) return unsupported_type(ctx, u.dtype);
  return convert_int8_table(ctx, u, [tanh](Quantization in, Quantization out, Int8Table* table, std::string* error) {
    return tanh ? activation::tanh_table(in, table, error) : activation::logistic_table(in, out, table, error);
  });
}

bool convert_logistic(ImportContext& ctx) { return convert_sigmoid(ctx, false); }
bool convert_tanh(ImportContext& ctx) { return convert_sigmoid(ctx, true); }

// ---- RELU, RELU6, RELU_N1_TO_1 ----

// int16: TFLM's RELU requantizes with zero points 0 (RELU_N1_TO_1, which TFLM lacks, as
// TFLite's ReluX alike); its RELU6 clamps to [zero point, 6] in the input's quantization.
bool convert_relu_s16(ImportContext& ctx, const Unary& u, int kind) {
  Quantization in;
  Quantization out;
  if (!quantized_operands(ctx, u, &in, &out)) return false;
  int32_t in_zero_point = 0;
  int32_t out_zero_point = 0;
  FixedPointMultiplier m{1 << 30, 1};  // 1.0
  int32_t low = 0;
  int32_t high = 0;
  if (kind == kRelu6) {
    if (in.zero_point < INT16_MIN || in.zero_point > INT16_MAX) return ctx.fail("input zero point is outside int16");
    low = in.zero_point;
    high = activation::quantize_clamped(6.0f, in, INT16_MIN, INT16_MAX);
  } else {
    if (in.zero_point != 0 || out.zero_point != 0) return ctx.fail("int16 zero points must be 0");
    m = quantize_multiplier(static_cast<double>(in.scale / out.scale));
    if (m.shift < -31 || m.shift > 30) return ctx.fail("input to output rescaling is out of range");
    quantized_activation_range(kind, out.scale, out.zero_point, INT16_MIN, INT16_MAX, &low, &high);
  }
  ctx.add_node("relu_s16", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::integer(in_zero_point),
                            ArgDef::integer(out_zero_point), ArgDef::integer(m.multiplier), ArgDef::integer(m.shift),
                            ArgDef::integer(low), ArgDef::integer(high)});
  return ctx.error().empty();
}

bool convert_relu_kind(ImportContext& ctx, int kind) {
  Unary u;
  if (!unary_operands(ctx, &u)) return false;
  if (u.dtype == DType::Float32) {
    float low = 0.0f;
    float high = 0.0f;
    float_activation_range(kind, &low, &high);
    if (kind == kRelu) high = std::numeric_limits<float>::infinity();  // TFLM's RELU lets +inf through
    add_float_node(ctx, "relu_f32", {ArgDef::real(low), ArgDef::real(high)});
    return ctx.error().empty();
  }
  if (u.dtype == DType::Int16) return convert_relu_s16(ctx, u, kind);
  if (u.dtype != DType::Int8) return unsupported_type(ctx, u.dtype);
  return convert_int8_table(ctx, u, [kind](Quantization in, Quantization out, Int8Table* table, std::string* error) {
    if (kind != kRelu6) return activation::relu_table(kind, in, out, table, error);
    *table = activation::relu6_table(in);
    return true;
  });
}

bool convert_relu(ImportContext& ctx) { return convert_relu_kind(ctx, kRelu); }
bool convert_relu6(ImportContext& ctx) { return convert_relu_kind(ctx, kRelu6); }
bool convert_relu_n1_to_1(ImportContext& ctx) { return convert_relu_kind(ctx, kReluN1To1); }

// ---- HARD_SWISH, ELU, RSQRT: float32 or an int8 table ----

bool convert_float_or_table(ImportContext& ctx, const char* float_kernel, const TableBuilder& build) {
  Unary u;
  if (!unary_operands(ctx, &u)) return false;
  if (u.dtype == DType::Float32) {
    add_float_node(ctx, float_kernel);
    return ctx.error().empty();
  }
  if (u.dtype != DType::Int8) return unsupported_type(ctx, u.dtype);
  return convert_int8_table(ctx, u, build);
}

bool elu_builder(Quantization in, Quantization out, Int8Table* table, std::string* /*error*/) {
  *table = activation::elu_table(in, out);
  return true;
}

bool convert_hard_swish(ImportContext& ctx) { return convert_float_or_table(ctx, "hard_swish_f32", activation::hard_swish_table); }
bool convert_elu(ImportContext& ctx) { return convert_float_or_table(ctx, "elu_f32", elu_builder); }
bool convert_rsqrt(ImportContext& ctx) { return convert_float_or_table(ctx, "rsqrt_f32", activation::rsqrt_table); }

// ---- ABS ----

// int16 as TFLM's quantized path: zero points 0, rescaled when the scales differ (the
// identity multiplier otherwise, which is exact). TFLM's unquantized int16 ABS is refused.
bool convert_abs_s16(ImportContext& ctx, const Unary& u) {
  if (ctx.scales(u.input).empty()) return ctx.fail("int16 ABS needs quantized tensors");
  Quantization in;
  Quantization out;
  if (!quantized_operands(ctx, u, &in, &out)) return false;
  if (in.zero_point != 0 || out.zero_point != 0) return ctx.fail("int16 zero points must be 0");
  FixedPointMultiplier m{1 << 30, 1};  // 1.0
  if (in.scale != out.scale) m = quantize_multiplier(static_cast<double>(in.scale / out.scale));
  if (m.shift < -31 || m.shift > 30) return ctx.fail("input to output rescaling is out of range");
  ctx.add_node("abs_s16", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::integer(0), ArgDef::integer(0),
                           ArgDef::integer(m.multiplier), ArgDef::integer(m.shift)});
  return ctx.error().empty();
}

bool convert_abs(ImportContext& ctx) {
  Unary u;
  if (!unary_operands(ctx, &u)) return false;
  if (u.dtype == DType::Int16) return convert_abs_s16(ctx, u);
  return convert_float_or_table(ctx, "abs_f32", activation::abs_table);
}

// ---- PRELU ----

// TFLM's CalculatePreluParams: both ratios in double. Alpha is int8 for int8 and int16
// inputs; for int16 the importer widens the constant alpha so one kernel template serves.
bool convert_prelu(ImportContext& ctx) {
  if (ctx.input_count() != 2 || !ctx.has_input(0) || !ctx.has_input(1)) return ctx.fail("expects 2 inputs");
  if (ctx.output_count() != 1) return ctx.fail("expects 1 output, has " + std::to_string(ctx.output_count()));
  const int32_t input = ctx.input_index(0);
  const int32_t alpha = ctx.input_index(1);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(input);
  if (!ctx.error().empty()) return false;
  if (ctx.dtype(output) != dtype) return ctx.fail("input and output types differ");
  const DType alpha_type = ctx.dtype(alpha);
  if (dtype == DType::Float32) {
    if (alpha_type != DType::Float32) return ctx.fail("float32 PRELU needs a float32 alpha");
    ctx.add_node("prelu_f32", {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0))});
    return ctx.error().empty();
  }
  if (dtype != DType::Int8 && dtype != DType::Int16) return unsupported_type(ctx, dtype);
  if (alpha_type != DType::Int8) return ctx.fail("quantized PRELU needs an int8 alpha");
  Quantization in;
  Quantization a;
  Quantization out;
  if (!quantization_of(ctx, input, "input", &in) || !quantization_of(ctx, alpha, "alpha", &a) ||
      !quantization_of(ctx, output, "output", &out)) {
    return false;
  }
  const FixedPointMultiplier identity = quantize_multiplier(static_cast<double>(in.scale) / static_cast<double>(out.scale));
  const FixedPointMultiplier scaled = quantize_multiplier(static_cast<double>(in.scale) * static_cast<double>(a.scale) /
                                                          static_cast<double>(out.scale));
  if (identity.shift < -31 || identity.shift > 30 || scaled.shift < -31 || scaled.shift > 30) {
    return ctx.fail("rescaling is out of range");
  }
  const int32_t type_min = dtype == DType::Int8 ? INT8_MIN : INT16_MIN;
  const int32_t type_max = dtype == DType::Int8 ? INT8_MAX : INT16_MAX;
  if (in.zero_point < type_min || in.zero_point > type_max || out.zero_point < type_min || out.zero_point > type_max ||
      a.zero_point < INT8_MIN || a.zero_point > INT8_MAX) {
    return ctx.fail("zero points are outside their types");
  }
  uint32_t alpha_tensor = 0;
  if (dtype == DType::Int8) {
    alpha_tensor = ctx.input(1);
  } else {
    if (!ctx.is_constant(alpha)) return ctx.fail("int16 PRELU needs a constant alpha");
    const std::vector<int8_t> narrow = ctx.constant_values<int8_t>(alpha);
    if (narrow.size() != element_count(ctx.shape(alpha))) return ctx.fail("alpha's data does not match its shape");
    const std::vector<int16_t> wide(narrow.begin(), narrow.end());
    std::vector<uint8_t> bytes(wide.size() * sizeof(int16_t));
    if (!bytes.empty()) std::memcpy(bytes.data(), wide.data(), bytes.size());
    alpha_tensor = ctx.constant(ctx.op_name() + " alpha", DType::Int16, ctx.shape(alpha), std::move(bytes));
  }
  ctx.add_node(dtype == DType::Int8 ? "prelu_s8" : "prelu_s16",
               {ArgDef::input(ctx.input(0)), ArgDef::input(alpha_tensor), ArgDef::output(ctx.output(0)),
                ArgDef::integer(in.zero_point), ArgDef::integer(a.zero_point), ArgDef::integer(out.zero_point),
                ArgDef::integer(identity.multiplier), ArgDef::integer(identity.shift), ArgDef::integer(scaled.multiplier),
                ArgDef::integer(scaled.shift)});
  return ctx.error().empty();
}

}  // namespace

void register_activation_ops(ConverterTable& table) {
  using tflite::BuiltinOperator;
  table.add(BuiltinOperator::LOGISTIC, convert_logistic, {"int8", "int16", "float32"});
  table.add(BuiltinOperator::TANH, convert_tanh, {"int8", "int16", "float32"});
  table.add(BuiltinOperator::RELU, convert_relu, {"int8", "int16", "float32"});
  table.add(BuiltinOperator::RELU6, convert_relu6, {"int8", "int16", "float32"});
  table.add(BuiltinOperator::RELU_N1_TO_1, convert_relu_n1_to_1, {"int8", "int16", "float32"});
  table.add(BuiltinOperator::HARD_SWISH, convert_hard_swish, {"int8", "float32"});
  table.add(BuiltinOperator::PRELU, convert_prelu, {"int8", "int16 (int8 alpha)", "float32"});
  table.add(BuiltinOperator::ELU, convert_elu, {"int8", "float32"});
  table.add(BuiltinOperator::ABS, convert_abs, {"int8", "int16", "float32"});
  table.add(BuiltinOperator::RSQRT, convert_rsqrt, {"int8", "float32"});
  table.add(BuiltinOperator::NEG, [](ImportContext& ctx) { return convert_float_only(ctx, "neg_f32"); }, {"float32"});
  table.add(BuiltinOperator::EXP, [](ImportContext& ctx) { return convert_float_only(ctx, "exp_f32"); }, {"float32"});
  table.add(BuiltinOperator::LOG, [](ImportContext& ctx) { return convert_float_only(ctx, "log_f32"); }, {"float32"});
  table.add(BuiltinOperator::SQRT, [](ImportContext& ctx) { return convert_float_only(ctx, "sqrt_f32"); }, {"float32"});
  table.add(BuiltinOperator::SQUARE, [](ImportContext& ctx) { return convert_float_only(ctx, "square_f32"); }, {"float32"});
  table.add(BuiltinOperator::SIN, [](ImportContext& ctx) { return convert_float_only(ctx, "sin_f32"); }, {"float32"});
  table.add(BuiltinOperator::COS, [](ImportContext& ctx) { return convert_float_only(ctx, "cos_f32"); }, {"float32"});
  table.add(BuiltinOperator::FLOOR, [](ImportContext& ctx) { return convert_float_only(ctx, "floor_f32"); }, {"float32"});
  table.add(BuiltinOperator::CEIL, [](ImportContext& ctx) { return convert_float_only(ctx, "ceil_f32"); }, {"float32"});
  table.add(BuiltinOperator::ROUND, [](ImportContext& ctx) { return convert_float_only(ctx, "round_f32"); }, {"float32"});
}

}  // namespace grt::tools
