// Converters for the pool family (kernels/src/pool/): MAX_POOL_2D and L2_POOL_2D here,
// RESIZE_* in pool_resize_ops.cpp, the space/depth rearrangements and MIRROR_PAD in
// pool_rearrange_ops.cpp, BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND in pool_batch_ops.cpp.
// The helpers they share (pool_ops.h) are defined here too.
#include "pool_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graphrt/tools/quantize_params.h"

namespace grt::tools {
namespace pool {

bool expect_operands(ImportContext& ctx, int inputs) {
  if (ctx.input_count() != inputs) {
    return ctx.fail("expects " + std::to_string(inputs) + " input" + (inputs == 1 ? "" : "s") + ", has " +
                    std::to_string(ctx.input_count()));
  }
  if (ctx.output_count() != 1) return ctx.fail("expects 1 output, has " + std::to_string(ctx.output_count()));
  for (int i = 0; i < inputs; ++i) {
    if (!ctx.has_input(i)) return ctx.fail("input " + std::to_string(i) + " is missing");
  }
  return true;
}

bool strides_of(const std::vector<int64_t>& shape, std::vector<int64_t>* strides) {
  strides->assign(shape.size(), 1);
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    (*strides)[d] = stride;
    if (shape[d] < 0 || (shape[d] > 0 && stride > std::numeric_limits<int32_t>::max() / shape[d])) return false;
    stride *= shape[d];
  }
  return true;
}

bool add_offset_gather(ImportContext& ctx, std::string_view kernel, const OffsetTables& tables) {
  std::vector<int32_t> extents = tables.extents;
  std::vector<int32_t> offsets;
  // A lone run still gets one outer dimension, so no table is an empty tensor.
  if (extents.size() == 1) {
    extents.insert(extents.begin(), 1);
    offsets.push_back(0);
  }
  for (const std::vector<int64_t>& table : tables.offsets) {
    for (const int64_t offset : table) {
      if (offset < 0 || offset > std::numeric_limits<int32_t>::max()) return ctx.fail("tensor is too large");
      offsets.push_back(static_cast<int32_t>(offset));
    }
  }
  const std::string name = ctx.op_name();
  ctx.add_node(kernel, {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)),
                        ArgDef::int_array(ctx.int_array(name + " extents", extents)),
                        ArgDef::int_array(ctx.int_array(name + " offsets", offsets))});
  return ctx.error().empty();
}

bool constant_int32(ImportContext& ctx, int input, const char* what, std::vector<int32_t>* values) {
  const int32_t tensor = ctx.input_index(input);
  if (!ctx.is_constant(tensor)) return ctx.fail(std::string(what) + " must be a constant");
  if (ctx.dtype(tensor) != DType::Int32) return ctx.fail(std::string(what) + " must be int32");
  *values = ctx.constant_values<int32_t>(tensor);
  return true;
}

bool output_is(ImportContext& ctx, const std::vector<int64_t>& expected) {
  if (ctx.shape(ctx.output_index(0)) != expected) {
    std::string text;
    for (const int64_t d : expected) text += (text.empty() ? "" : ", ") + std::to_string(d);
    return ctx.fail("output shape must be [" + text + "]");
  }
  return fits_tables(ctx, expected);
}

bool fits_tables(ImportContext& ctx, const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides;
  if (!strides_of(shape, &strides)) return ctx.fail("tensor is too large");
  int64_t entries = 0;
  for (const int64_t d : shape) entries += d;
  if (entries > kMaxTableEntries) return ctx.fail("tensor dimensions are too large for index tables");
  return true;
}

}  // namespace pool

namespace {

using tflite::ActivationFunctionType;

// TFLite's ComputeOutSize and ComputePaddingWithOffset (dilation 1): the output size and the
// padding before the first element.
bool pool_geometry(tflite::Padding padding, int64_t in_size, int32_t filter, int32_t stride, int64_t* out_size,
                   int64_t* pad_before) {
  if (filter <= 0 || stride <= 0 || in_size < 0) return false;
  *out_size = padding == tflite::Padding::SAME ? (in_size + stride - 1) / stride : (in_size + stride - filter) / stride;
  if (*out_size < 0) return false;
  *pad_before = std::max<int64_t>((*out_size - 1) * stride + filter - in_size, 0) / 2;
  return true;
}

// The window arguments 0 to 7 of the pool kernels (kernels/src/pool/pool_window.h), after
// checking the options against the tensors' shapes.
bool pool_window_args(ImportContext& ctx, const tflite::Pool2DOptions& o, std::vector<ArgDef>* args) {
  const std::vector<int64_t> in_shape = ctx.shape(ctx.input_index(0));
  const std::vector<int64_t> out_shape = ctx.shape(ctx.output_index(0));
  if (in_shape.size() != 4 || out_shape.size() != 4) return ctx.fail("input and output must be 4-D (NHWC)");
  if (in_shape[0] != out_shape[0] || in_shape[3] != out_shape[3]) {
    return ctx.fail("input and output differ in batches or channels");
  }
  int64_t out_h = 0, out_w = 0, pad_top = 0, pad_left = 0;
  if (!pool_geometry(o.padding(), in_shape[1], o.filter_height(), o.stride_h(), &out_h, &pad_top) ||
      !pool_geometry(o.padding(), in_shape[2], o.filter_width(), o.stride_w(), &out_w, &pad_left)) {
    return ctx.fail("invalid filter, stride or padding");
  }
  if (out_h != out_shape[1] || out_w != out_shape[2]) {
    return ctx.fail("output is " + std::to_string(out_shape[1]) + "x" + std::to_string(out_shape[2]) +
                    ", the pooling parameters give " + std::to_string(out_h) + "x" + std::to_string(out_w));
  }
  *args = {ArgDef::input(ctx.input(0)),   ArgDef::output(ctx.output(0)),      ArgDef::integer(o.stride_h()),
           ArgDef::integer(o.stride_w()), ArgDef::integer(o.filter_height()), ArgDef::integer(o.filter_width()),
           ArgDef::integer(pad_top),      ArgDef::integer(pad_left)};
  return true;
}

bool clamping_activation(ActivationFunctionType a) {
  return a == ActivationFunctionType::NONE || a == ActivationFunctionType::RELU ||
         a == ActivationFunctionType::RELU_N1_TO_1 || a == ActivationFunctionType::RELU6;
}

const tflite::Pool2DOptions* pool_options(ImportContext& ctx) {
  if (!pool::expect_operands(ctx, 1)) return nullptr;
  const auto* o = ctx.options<tflite::Pool2DOptions>();
  if (o == nullptr) {
    ctx.fail("has no Pool2DOptions");
    return nullptr;
  }
  if (!clamping_activation(o->fused_activation_function())) {
    ctx.fail("fused activation " + std::string(tflite::EnumNameActivationFunctionType(o->fused_activation_function())) +
             " is not supported");
    return nullptr;
  }
  return o;
}

// ---- MAX_POOL_2D ----

// TFLM's PoolingPrepare: int8 and int16 keep the input's quantization (a maximum cannot
// requantize) and clamp to the fused activation's quantized range.
bool convert_max_pool2d(ImportContext& ctx) {
  const tflite::Pool2DOptions* o = pool_options(ctx);
  if (o == nullptr) return false;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  const DType dtype = ctx.dtype(input);
  if (ctx.dtype(output) != dtype) return ctx.fail("input and output types differ");
  std::vector<ArgDef> args;
  if (!pool_window_args(ctx, *o, &args)) return false;
  const int activation = static_cast<int>(o->fused_activation_function());
  if (dtype == DType::Float32) {
    float low = 0, high = 0;
    float_activation_range(activation, &low, &high);
    args.push_back(ArgDef::real(low));
    args.push_back(ArgDef::real(high));
    ctx.add_node("max_pool2d_f32", std::move(args));
    return ctx.error().empty();
  }
  if (dtype != DType::Int8 && dtype != DType::Int16) {
    return ctx.fail(std::string("type ") + dtype_name(dtype) + " is not supported (int8, int16 and float32 are)");
  }
  if (std::abs(static_cast<double>(ctx.scale(input)) - static_cast<double>(ctx.scale(output))) > 1.0e-6 ||
      ctx.zero_point(input) != ctx.zero_point(output)) {
    return ctx.fail("input and output quantization differ");
  }
  const bool is_int8 = dtype == DType::Int8;
  int32_t low = 0, high = 0;
  quantized_activation_range(activation, ctx.scale(output), ctx.zero_point(output), is_int8 ? -128 : -32768,
                             is_int8 ? 127 : 32767, &low, &high);
  if (low > high) return ctx.fail("the fused activation's range is empty at this output quantization");
  args.push_back(ArgDef::integer(low));
  args.push_back(ArgDef::integer(high));
  ctx.add_node(is_int8 ? "max_pool2d_s8" : "max_pool2d_s16", std::move(args));
  return ctx.error().empty();
}

// ---- L2_POOL_2D ----

// TFLM has no quantized L2 pooling: float32 only.
bool convert_l2_pool2d(ImportContext& ctx) {
  const tflite::Pool2DOptions* o = pool_options(ctx);
  if (o == nullptr) return false;
  if (ctx.dtype(ctx.input_index(0)) != DType::Float32 || ctx.dtype(ctx.output_index(0)) != DType::Float32) {
    return ctx.fail("supports float32 only (TFLM has no quantized L2 pooling)");
  }
  std::vector<ArgDef> args;
  if (!pool_window_args(ctx, *o, &args)) return false;
  float low = 0, high = 0;
  float_activation_range(static_cast<int>(o->fused_activation_function()), &low, &high);
  args.push_back(ArgDef::real(low));
  args.push_back(ArgDef::real(high));
  ctx.add_node("l2_pool2d_f32", std::move(args));
  return ctx.error().empty();
}

}  // namespace

void register_pool_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::MAX_POOL_2D, convert_max_pool2d, {"int8", "int16", "float32"});
  table.add(tflite::BuiltinOperator::L2_POOL_2D, convert_l2_pool2d, {"float32"});
  pool::register_pool_resize_ops(table);
  pool::register_pool_rearrange_ops(table);
  pool::register_pool_batch_ops(table);
}

}  // namespace grt::tools
