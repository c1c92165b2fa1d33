// Converters for the elementwise kernel family (see kernels/src/elementwise/): ADD, SUB,
// PAD, PADV2, TRANSPOSE, STRIDED_SLICE, LEAKY_RELU, QUANTIZE and DEQUANTIZE. Fixed-point
// parameters are derived as TFLM's Prepare functions derive them, with the same float and
// double order of operations, so the kernels match TFLM's reference kernels byte for byte.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graphrt/tools/import_context.h"
#include "converter_checks.h"
#include "graphrt/tools/quantize_params.h"
#include "binary_helpers.h"

namespace grt::tools {
namespace {

using tflite::ActivationFunctionType;

int32_t type_min(DType dtype) {
  switch (dtype) {
    case DType::Int8: return -128;
    case DType::UInt8: return 0;
    case DType::Int16: return -32768;
    default: return INT32_MIN;
  }
}
int32_t type_max(DType dtype) {
  switch (dtype) {
    case DType::Int8: return 127;
    case DType::UInt8: return 255;
    case DType::Int16: return 32767;
    default: return INT32_MAX;
  }
}

bool per_tensor_quantized(ImportContext& ctx, int32_t tensor) {
  const std::vector<float> scales = ctx.scales(tensor);
  return scales.size() == 1 && scales[0] > 0.0f;
}

// A constant int32 tensor's values, or a failure naming what it is for.
bool constant_ints(ImportContext& ctx, int32_t tensor, const char* what, std::vector<int32_t>* values) {
  if (!ctx.is_constant(tensor)) return ctx.fail(std::string(what) + " must be a constant");
  if (ctx.dtype(tensor) != DType::Int32) return ctx.fail(std::string(what) + " must be int32");
  *values = ctx.constant_values<int32_t>(tensor);
  return true;
}

// ---- ADD and SUB ----

bool broadcastable(const std::vector<int64_t>& a, const std::vector<int64_t>& b, const std::vector<int64_t>& out) {
  if (a.size() > out.size() || b.size() > out.size()) return false;
  for (size_t d = 0; d < out.size(); ++d) {
    const size_t from_end = out.size() - d;
    const int64_t ad = from_end <= a.size() ? a[a.size() - from_end] : 1;
    const int64_t bd = from_end <= b.size() ? b[b.size() - from_end] : 1;
    const int64_t o = out[d];
    if ((ad != o && ad != 1) || (bd != o && bd != 1) || (ad != o && bd != o)) return false;
  }
  return true;
}

// ADD's and SUB's rescaling (CalculateOpDataAdd / CalculateOpDataSub). ADD works in double
// throughout; SUB takes the twice-max scale and both quotients in float first.
struct RescaleParams {
  int left_shift = 0;
  FixedPointMultiplier a, b, out;
};

bool rescale_params(ImportContext& ctx, bool subtract, int32_t a, int32_t b, int32_t y, RescaleParams* p) {
  p->left_shift = ctx.dtype(y) == DType::Int16 ? 15 : 20;
  const float sa = ctx.scale(a);
  const float sb = ctx.scale(b);
  const float sy = ctx.scale(y);
  double real_a = 0;
  double real_b = 0;
  double real_out = 0;
  if (subtract) {
    const float twice_max = 2 * std::max(sa, sb);
    real_a = static_cast<double>(sa / twice_max);
    real_b = static_cast<double>(sb / twice_max);
    real_out = static_cast<double>(twice_max / (static_cast<float>(1 << p->left_shift) * sy));
  } else {
    const double twice_max = 2 * static_cast<double>(std::max(sa, sb));
    real_a = static_cast<double>(sa) / twice_max;
    real_b = static_cast<double>(sb) / twice_max;
    real_out = twice_max / ((1 << p->left_shift) * static_cast<double>(sy));
  }
  return multiplier_below_one(ctx, real_a, "input 0 multiplier", &p->a) &&
         multiplier_below_one(ctx, real_b, "input 1 multiplier", &p->b) &&
         multiplier_below_one(ctx, real_out, "output multiplier", &p->out);
}

bool convert_add_sub(ImportContext& ctx, bool subtract, ActivationFunctionType activation) {
  if (!expect_arity(ctx, 2, 2)) return false;
  const int32_t a = ctx.input_index(0);
  const int32_t b = ctx.input_index(1);
  const int32_t y = ctx.output_index(0);
  const DType dtype = ctx.dtype(y);
  if (ctx.dtype(a) != dtype || ctx.dtype(b) != dtype) return ctx.fail("inputs and output must share one type");
  if (dtype != DType::Int8 && dtype != DType::Int16 && dtype != DType::Int32 && dtype != DType::Float32) {
    return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported");
  }
  if (!broadcastable(ctx.shape(a), ctx.shape(b), ctx.shape(y))) return ctx.fail("output shape is not the inputs' broadcast");
  const std::string kernel = std::string(subtract ? "sub_" : "add_") + type_suffix(dtype);
  const int act = static_cast<int>(activation);
  if (activation != ActivationFunctionType::NONE && activation != ActivationFunctionType::RELU &&
      activation != ActivationFunctionType::RELU_N1_TO_1 && activation != ActivationFunctionType::RELU6) {
    return ctx.fail("fused activation " + std::to_string(act) + " is not supported");
  }
  if (dtype == DType::Int32) {
    // TFLM's int32 ADD clamps to the full int32 range whatever the fused activation; SUB
    // applies it.
    int32_t low = INT32_MIN;
    int32_t high = INT32_MAX;
    if (subtract) binary::int32_activation_range(activation, &low, &high);
    ctx.add_node(kernel, {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0)),
                          ArgDef::integer(low), ArgDef::integer(high)});
    return ctx.error().empty();
  }
  if (dtype == DType::Float32) {
    float low = 0;
    float high = 0;
    float_activation_range(act, &low, &high);
    ctx.add_node(kernel, {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0)),
                          ArgDef::real(low), ArgDef::real(high)});
    return ctx.error().empty();
  }
  if (!per_tensor_quantized(ctx, a) || !per_tensor_quantized(ctx, b) || !per_tensor_quantized(ctx, y)) {
    return ctx.fail("inputs and output must be quantized per tensor");
  }
  RescaleParams p;
  if (!rescale_params(ctx, subtract, a, b, y, &p)) return false;
  int32_t act_min = 0;
  int32_t act_max = 0;
  quantized_activation_range(act, ctx.scale(y), ctx.zero_point(y), type_min(dtype), type_max(dtype), &act_min, &act_max);
  ctx.add_node(kernel, {ArgDef::input(ctx.input(0)), ArgDef::input(ctx.input(1)), ArgDef::output(ctx.output(0)),
                        ArgDef::integer(p.left_shift), ArgDef::integer(-ctx.zero_point(a)), ArgDef::integer(p.a.multiplier),
                        ArgDef::integer(p.a.shift), ArgDef::integer(-ctx.zero_point(b)), ArgDef::integer(p.b.multiplier),
                        ArgDef::integer(p.b.shift), ArgDef::integer(ctx.zero_point(y)), ArgDef::integer(p.out.multiplier),
                        ArgDef::integer(p.out.shift), ArgDef::integer(act_min), ArgDef::integer(act_max)});
  return ctx.error().empty();
}

bool convert_add(ImportContext& ctx) {
  const auto* options = ctx.options<tflite::AddOptions>();
  return convert_add_sub(ctx, false, options != nullptr ? options->fused_activation_function() : ActivationFunctionType::NONE);
}

bool convert_sub(ImportContext& ctx) {
  const auto* options = ctx.options<tflite::SubOptions>();
  return convert_add_sub(ctx, true, options != nullptr ? options->fused_activation_function() : ActivationFunctionType::NONE);
}

// ---- PAD and PADV2 ----

// The pad element as the pad kernel wants it: the value's bits as a signed integer of the
// element's width. TFLM pads int8 with the output zero point and other types with 0 unless
// a constant value is given.
bool pad_value(ImportContext& ctx, int32_t input, int32_t output, int64_t* value) {
  const DType dtype = ctx.dtype(input);
  const bool given = ctx.input_count() > 2 && ctx.has_input(2);
  if (!given) {
    *value = 0;
    if (dtype == DType::Int8) {
      const int32_t zero_point = ctx.zero_point(output);
      if (zero_point < -128 || zero_point > 127) return ctx.fail("output zero point is outside int8");
      *value = zero_point;
    }
    return true;
  }
  const int32_t constant = ctx.input_index(2);
  if (!ctx.is_constant(constant)) return ctx.fail("constant_values must be a constant");
  if (ctx.dtype(constant) != dtype) return ctx.fail("constant_values must have the input's type");
  const std::vector<uint8_t> bytes = ctx.constant_bytes(constant);
  if (bytes.size() != dtype_bytes(dtype)) return ctx.fail("constant_values must hold one element");
  if (dtype == DType::Int8 && (ctx.zero_point(constant) != ctx.zero_point(output) || ctx.scale(constant) != ctx.scale(output))) {
    return ctx.fail("constant_values must be quantized as the output");
  }
  switch (dtype) {
    case DType::Int8: *value = ctx.constant_values<int8_t>(constant)[0]; break;
    case DType::Int16: *value = ctx.constant_values<int16_t>(constant)[0]; break;
    case DType::Int32:
    case DType::Float32: *value = ctx.constant_values<int32_t>(constant)[0]; break;
    default: return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported");
  }
  return true;
}

bool convert_pad(ImportContext& ctx) {
  if (!expect_arity(ctx, 2, 3)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(input);
  if (ctx.dtype(output) != dtype) return ctx.fail("input and output types differ");
  if (dtype != DType::Int8 && dtype != DType::Int16 && dtype != DType::Int32 && dtype != DType::Float32) {
    return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported");
  }
  std::vector<int32_t> paddings;
  if (!constant_ints(ctx, ctx.input_index(1), "paddings", &paddings)) return false;
  const std::vector<int64_t> in_shape = ctx.shape(input);
  const std::vector<int64_t> out_shape = ctx.shape(output);
  if (in_shape.size() != out_shape.size() || paddings.size() != 2 * in_shape.size()) {
    return ctx.fail("paddings need a (before, after) pair per dimension");
  }
  std::vector<int32_t> before(in_shape.size());
  for (size_t d = 0; d < in_shape.size(); ++d) {
    before[d] = paddings[2 * d];
    const int32_t after = paddings[2 * d + 1];
    if (before[d] < 0 || after < 0) return ctx.fail("negative paddings are not supported");
    if (out_shape[d] != in_shape[d] + before[d] + after) return ctx.fail("output shape is not the padded input shape");
  }
  int64_t value = 0;
  if (!pad_value(ctx, input, output, &value)) return false;
  ctx.add_node("pad", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)),
                       ArgDef::int_array(ctx.int_array(ctx.op_name() + " before", before)), ArgDef::integer(value)});
  return ctx.error().empty();
}

// ---- TRANSPOSE ----

bool convert_transpose(ImportContext& ctx) {
  if (!expect_arity(ctx, 2, 2)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  if (ctx.dtype(output) != ctx.dtype(input)) return ctx.fail("input and output types differ");
  std::vector<int32_t> permutation;
  if (!constant_ints(ctx, ctx.input_index(1), "permutation", &permutation)) return false;
  const std::vector<int64_t> in_shape = ctx.shape(input);
  const std::vector<int64_t> out_shape = ctx.shape(output);
  if (permutation.size() != in_shape.size() || out_shape.size() != in_shape.size()) {
    return ctx.fail("permutation needs one entry per dimension");
  }
  std::vector<bool> seen(in_shape.size(), false);
  for (size_t d = 0; d < permutation.size(); ++d) {
    const int32_t source = permutation[d];
    if (source < 0 || static_cast<size_t>(source) >= in_shape.size() || seen[static_cast<size_t>(source)]) {
      return ctx.fail("permutation is not a permutation");
    }
    seen[static_cast<size_t>(source)] = true;
    if (out_shape[d] != in_shape[static_cast<size_t>(source)]) return ctx.fail("output shape is not the permuted input shape");
  }
  ctx.add_node("transpose", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)),
                             ArgDef::int_array(ctx.int_array(ctx.op_name() + " permutation", permutation))});
  return ctx.error().empty();
}

// ---- STRIDED_SLICE ----

// TFLM's strided-slice logic (StridedSliceStartForAxis / StridedSliceEndForAxis), which its
// kernel walks with: negative indices count from the end, then clamp, then the masks.
struct SliceAxis {
  int32_t start = 0;
  int32_t stride = 1;
  int32_t count = 0;
};

int32_t clamp_index(int32_t v, int32_t low, int32_t high) { return v > high ? high : (v < low ? low : v); }

SliceAxis resolve_axis(int32_t size, int32_t begin, int32_t end, int32_t stride, bool begin_masked, bool end_masked,
                       bool shrink) {
  SliceAxis axis;
  axis.stride = stride;
  int32_t start = begin < 0 ? begin + size : begin;
  start = stride > 0 ? clamp_index(start, 0, size) : clamp_index(start, -1, size - 1);
  if (begin_masked) start = stride > 0 ? 0 : size - 1;
  int32_t stop = 0;
  if (shrink) {
    stop = start >= size ? start : start + 1;
  } else {
    stop = end < 0 ? end + size : end;
    stop = stride > 0 ? clamp_index(stop, 0, size) : clamp_index(stop, -1, size - 1);
    if (end_masked) stop = stride > 0 ? size : -1;
  }
  // Iterations of TFLM's loop: start, start + stride, ... while short of stop.
  const int64_t span = stride > 0 ? int64_t{stop} - start : int64_t{start} - stop;
  const int64_t step = stride > 0 ? stride : -int64_t{stride};
  axis.count = span <= 0 ? 0 : static_cast<int32_t>((span + step - 1) / step);
  axis.start = axis.count == 0 ? 0 : start;
  return axis;
}

bool convert_strided_slice(ImportContext& ctx) {
  if (!expect_arity(ctx, 4, 4)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  if (ctx.dtype(output) != ctx.dtype(input)) return ctx.fail("input and output types differ");
  const auto* options = ctx.options<tflite::StridedSliceOptions>();
  const int32_t begin_mask = options != nullptr ? options->begin_mask() : 0;
  const int32_t end_mask = options != nullptr ? options->end_mask() : 0;
  const int32_t shrink_mask = options != nullptr ? options->shrink_axis_mask() : 0;
  // TFLM ignores these (it builds its parameters with them cleared); refuse rather than
  // silently compute something else than TensorFlow meant.
  if (options != nullptr && (options->ellipsis_mask() != 0 || options->new_axis_mask() != 0)) {
    return ctx.fail("ellipsis_mask and new_axis_mask are not supported");
  }
  if (options != nullptr && options->offset()) return ctx.fail("offset is not supported");
  std::vector<int32_t> begin;
  std::vector<int32_t> end;
  std::vector<int32_t> strides;
  if (!constant_ints(ctx, ctx.input_index(1), "begin", &begin) || !constant_ints(ctx, ctx.input_index(2), "end", &end) ||
      !constant_ints(ctx, ctx.input_index(3), "strides", &strides)) {
    return false;
  }
  const std::vector<int64_t> in_shape = ctx.shape(input);
  const size_t rank = in_shape.size();
  if (begin.size() != rank || end.size() != rank || strides.size() != rank) {
    return ctx.fail("begin, end and strides need one entry per input dimension");
  }
  std::vector<int32_t> starts(rank);
  std::vector<int32_t> steps(rank);
  std::vector<int32_t> counts(rank);
  int64_t walked = 1;
  for (size_t d = 0; d < rank; ++d) {
    if (strides[d] == 0) return ctx.fail("stride is zero");
    if (in_shape[d] > std::numeric_limits<int32_t>::max()) return ctx.fail("dimension too large");
    const uint32_t bit = uint32_t{1} << d;
    const SliceAxis axis = resolve_axis(static_cast<int32_t>(in_shape[d]), begin[d], end[d], strides[d],
                                        (begin_mask & bit) != 0, (end_mask & bit) != 0, (shrink_mask & bit) != 0);
    starts[d] = axis.start;
    steps[d] = axis.stride;
    counts[d] = axis.count;
    walked *= axis.count;
  }
  uint64_t out_elements = 1;
  for (const int64_t dim : ctx.shape(output)) out_elements *= static_cast<uint64_t>(dim);
  if (static_cast<uint64_t>(walked) != out_elements) {
    return ctx.fail("the slice has " + std::to_string(walked) + " elements, the output " + std::to_string(out_elements));
  }
  const std::string name = ctx.op_name();
  ctx.add_node("strided_slice", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)),
                                 ArgDef::int_array(ctx.int_array(name + " begin", starts)),
                                 ArgDef::int_array(ctx.int_array(name + " stride", steps)),
                                 ArgDef::int_array(ctx.int_array(name + " count", counts))});
  return ctx.error().empty();
}

// ---- LEAKY_RELU ----

bool convert_leaky_relu(ImportContext& ctx) {
  if (!expect_arity(ctx, 1, 1)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(input);
  if (ctx.dtype(output) != dtype) return ctx.fail("input and output types differ");
  const auto* options = ctx.options<tflite::LeakyReluOptions>();
  const float alpha = options != nullptr ? options->alpha() : 0.0f;
  if (dtype == DType::Float32) {
    ctx.add_node("leaky_relu_f32", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::real(alpha)});
    return ctx.error().empty();
  }
  if (dtype != DType::Int8 && dtype != DType::Int16) return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported");
  if (!per_tensor_quantized(ctx, input) || !per_tensor_quantized(ctx, output)) {
    return ctx.fail("input and output must be quantized per tensor");
  }
  // CalculateOpDataLeakyRelu: both ratios in float, then widened.
  const float input_scale = ctx.scale(input);
  const float output_scale = ctx.scale(output);
  const FixedPointMultiplier alpha_m = quantize_multiplier(static_cast<double>(input_scale * alpha / output_scale));
  const FixedPointMultiplier identity_m = quantize_multiplier(static_cast<double>(input_scale / output_scale));
  if (alpha_m.multiplier == INT32_MIN || alpha_m.shift < -31 || alpha_m.shift > 31 || identity_m.shift < -31 ||
      identity_m.shift > 31) {
    return ctx.fail("rescaling is out of range");
  }
  ctx.add_node(dtype == DType::Int8 ? "leaky_relu_s8" : "leaky_relu_s16",
               {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::integer(ctx.zero_point(input)),
                ArgDef::integer(ctx.zero_point(output)), ArgDef::integer(identity_m.multiplier),
                ArgDef::integer(identity_m.shift), ArgDef::integer(alpha_m.multiplier), ArgDef::integer(alpha_m.shift)});
  return ctx.error().empty();
}

// ---- QUANTIZE and DEQUANTIZE ----

bool in_type_range(int64_t v, DType dtype) { return v >= type_min(dtype) && v <= type_max(dtype); }

bool convert_quantize(ImportContext& ctx) {
  if (!expect_arity(ctx, 1, 1)) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const DType in_type = ctx.dtype(input);
  const DType out_type = ctx.dtype(output);
  if (!per_tensor_quantized(ctx, output)) return ctx.fail("output must be quantized per tensor");
  const int32_t out_zero_point = ctx.zero_point(output);
  if (!in_type_range(out_zero_point, out_type)) return ctx.fail("output zero point is outside its type");
  if (in_type == DType::Float32) {
    if (out_type != DType::Int8 && out_type != DType::Int16) return ctx.fail("float32 quantizes to int8 or int16 only");
    ctx.add_node(std::string("quantize_f32_") + type_suffix(out_type),
                 {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)),
                  ArgDef::real(static_cast<double>(ctx.scale(output))), ArgDef::integer(out_zero_point)});
    return ctx.error().empty();
  }
  // PrepareQuantizeReference's list of integer pairs.
  const bool supported = (in_type == DType::Int8 && (out_type == DType::Int8 || out_type == DType::UInt8 ||
                                                     out_type == DType::Int16 || out_type == DType::Int32)) ||
                         (in_type == DType::UInt8 && out_type == DType::Int8) ||
                         (in_type == DType::Int16 && (out_type == DType::Int8 || out_type == DType::Int16 || out_type == DType::Int32)) ||
                         (in_type == DType::Int32 && (out_type == DType::Int8 || out_type == DType::Int16));
  if (!supported) {
    return ctx.fail(std::string(dtype_name(in_type)) + " to " + dtype_name(out_type) + " is not supported");
  }
  if (!per_tensor_quantized(ctx, input)) return ctx.fail("input must be quantized per tensor");
  const int32_t in_zero_point = ctx.zero_point(input);
  if (!in_type_range(in_zero_point, in_type) || in_zero_point == INT32_MIN) return ctx.fail("input zero point is outside its type");
  // PrepareQuantizeReference: the ratio of the two scales, in double.
  const FixedPointMultiplier m =
      quantize_multiplier(static_cast<double>(ctx.scale(input)) / static_cast<double>(ctx.scale(output)));
  if (m.shift < -31 || m.shift > 30) return ctx.fail("rescaling is out of range");
  ctx.add_node(std::string("requantize_") + type_suffix(in_type) + "_" + type_suffix(out_type),
               {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::integer(in_zero_point),
                ArgDef::integer(out_zero_point), ArgDef::integer(m.multiplier), ArgDef::integer(m.shift)});
  return ctx.error().empty();
}

bool convert_dequantize(ImportContext& ctx) {
  if (!expect_arity(ctx, 1, 1)) return false;
  const int32_t input = ctx.input_index(0);
  const DType in_type = ctx.dtype(input);
  if (ctx.dtype(ctx.output_index(0)) != DType::Float32) return ctx.fail("output must be float32");
  if (in_type != DType::Int8 && in_type != DType::UInt8 && in_type != DType::Int16) {
    return ctx.fail("input must be int8, uint8 or int16");
  }
  if (!per_tensor_quantized(ctx, input)) return ctx.fail("input must be quantized per tensor");
  const int32_t zero_point = ctx.zero_point(input);
  if (!in_type_range(zero_point, in_type)) return ctx.fail("input zero point is outside its type");
  ctx.add_node(std::string("dequantize_") + type_suffix(in_type) + "_f32",
               {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)),
                ArgDef::real(static_cast<double>(ctx.scale(input))), ArgDef::integer(zero_point)});
  return ctx.error().empty();
}

}  // namespace

void register_elementwise_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::ADD, convert_add, {"int8", "int16", "int32", "float32"});
  table.add(tflite::BuiltinOperator::SUB, convert_sub, {"int8", "int16", "int32", "float32"});
  table.add(tflite::BuiltinOperator::PAD, convert_pad, {"int8", "int16", "int32", "float32"});
  table.add(tflite::BuiltinOperator::PADV2, convert_pad, {"int8", "int16", "int32", "float32"});
  table.add(tflite::BuiltinOperator::TRANSPOSE, convert_transpose, every_dtype());
  table.add(tflite::BuiltinOperator::STRIDED_SLICE, convert_strided_slice, every_dtype());
  table.add(tflite::BuiltinOperator::LEAKY_RELU, convert_leaky_relu, {"int8", "int16", "float32"});
  table.add(tflite::BuiltinOperator::QUANTIZE, convert_quantize,
            {"float32 to int8/int16", "int8 to int8/uint8/int16/int32", "uint8 to int8", "int16 to int8/int16/int32",
             "int32 to int8/int16"});
  table.add(tflite::BuiltinOperator::DEQUANTIZE, convert_dequantize, {"int8 to float32", "uint8 to float32", "int16 to float32"});
}

}  // namespace grt::tools
