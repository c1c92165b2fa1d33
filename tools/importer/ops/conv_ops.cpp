// Converters for the conv kernel family (see kernels/src/conv/ for each kernel's argument
// list): CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV. Padding, per-channel multipliers and
// shifts and activation ranges are derived exactly as TFLM's Prepare does, so the kernels
// only do integer (or float) arithmetic.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/quantize_params.h"

namespace grt::tools {
namespace {

struct Window {
  int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1, pad_top = 0, pad_left = 0;
};

// TFLite's ComputeOutSize (padding.h).
int64_t windowed_output_size(tflite::Padding padding, int64_t image, int64_t filter, int64_t stride, int64_t dilation) {
  const int64_t effective_filter = (filter - 1) * dilation + 1;
  if (stride == 0) return 0;
  return padding == tflite::Padding::SAME ? (image + stride - 1) / stride : (image + stride - effective_filter) / stride;
}

// TFLite's ComputePaddingWithOffset: the leading half of the total padding.
int64_t leading_padding(int64_t stride, int64_t dilation, int64_t image, int64_t filter, int64_t output) {
  const int64_t effective_filter = (filter - 1) * dilation + 1;
  const int64_t total = (output - 1) * stride + effective_filter - image;
  return total > 0 ? total / 2 : 0;
}

// ComputePaddingHeightWidth over (image_h, image_w); the sizes it derives are returned too.
Window padded_window(tflite::Padding padding, Window w, int64_t image_h, int64_t image_w, int64_t filter_h,
                     int64_t filter_w, int64_t* derived_h, int64_t* derived_w) {
  *derived_h = windowed_output_size(padding, image_h, filter_h, w.stride_h, w.dilation_h);
  *derived_w = windowed_output_size(padding, image_w, filter_w, w.stride_w, w.dilation_w);
  w.pad_top = leading_padding(w.stride_h, w.dilation_h, image_h, filter_h, *derived_h);
  w.pad_left = leading_padding(w.stride_w, w.dilation_w, image_w, filter_w, *derived_w);
  return w;
}

bool valid_window_options(ImportContext& ctx, const Window& w) {
  if (w.stride_h < 1 || w.stride_w < 1) return ctx.fail("stride must be at least 1");
  if (w.dilation_h < 1 || w.dilation_w < 1) return ctx.fail("dilation must be at least 1");
  return true;
}

std::vector<ArgDef> window_args(const Window& w, bool with_dilation) {
  std::vector<ArgDef> args = {ArgDef::integer(w.stride_h), ArgDef::integer(w.stride_w)};
  if (with_dilation) {
    args.push_back(ArgDef::integer(w.dilation_h));
    args.push_back(ArgDef::integer(w.dilation_w));
  }
  args.push_back(ArgDef::integer(w.pad_top));
  args.push_back(ArgDef::integer(w.pad_left));
  return args;
}

void append(std::vector<ArgDef>* args, const std::vector<ArgDef>& more) { args->insert(args->end(), more.begin(), more.end()); }

bool is_4d(const std::vector<int64_t>& shape) { return shape.size() == 4; }

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i != 0 ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// The activation's clamp for a quantized output, like CalculateActivationRangeQuantized.
bool quantized_activation(ImportContext& ctx, tflite::ActivationFunctionType activation, int32_t output, int32_t type_min,
                          int32_t type_max, int32_t* act_min, int32_t* act_max) {
  if (activation > tflite::ActivationFunctionType::RELU6) {
    return ctx.fail(std::string("fused activation ") + tflite::EnumNameActivationFunctionType(activation) + " is not supported");
  }
  quantized_activation_range(static_cast<int>(activation), ctx.scale(output), ctx.zero_point(output), type_min, type_max,
                             act_min, act_max);
  return true;
}

bool float_activation(ImportContext& ctx, tflite::ActivationFunctionType activation, std::vector<ArgDef>* args) {
  if (activation > tflite::ActivationFunctionType::RELU6) {
    return ctx.fail(std::string("fused activation ") + tflite::EnumNameActivationFunctionType(activation) + " is not supported");
  }
  float low = 0.0f;
  float high = 0.0f;
  float_activation_range(static_cast<int>(activation), &low, &high);
  args->push_back(ArgDef::real(low));
  args->push_back(ArgDef::real(high));
  return true;
}

// Per-channel multipliers and shifts as PopulateConvolutionQuantizationParams derives them:
// effective scale = input_scale * filter_scale[c] / output_scale, in double; a single filter
// scale is broadcast. Emitted as two IntArray arguments.
bool requantization_args(ImportContext& ctx, int32_t input, int32_t filter, int32_t output, int64_t channels,
                         int32_t max_shift, std::vector<ArgDef>* args) {
  const std::vector<float> filter_scales = ctx.scales(filter);
  if (filter_scales.size() != 1 && static_cast<int64_t>(filter_scales.size()) != channels) {
    return ctx.fail("filter has " + std::to_string(filter_scales.size()) + " scales for " + std::to_string(channels) +
                    " output channels");
  }
  const double input_scale = static_cast<double>(ctx.scale(input));
  const double output_scale = static_cast<double>(ctx.scale(output));
  if (!(output_scale > 0.0)) return ctx.fail("output has no quantization scale");
  std::vector<int32_t> multipliers(static_cast<size_t>(channels));
  std::vector<int32_t> shifts(static_cast<size_t>(channels));
  for (size_t c = 0; c < multipliers.size(); ++c) {
    const double filter_scale = static_cast<double>(filter_scales.size() == 1 ? filter_scales[0] : filter_scales[c]);
    const FixedPointMultiplier m = quantize_multiplier(input_scale * filter_scale / output_scale);
    if (m.shift > max_shift || m.shift < -31) {
      return ctx.fail("effective scale of channel " + std::to_string(c) + " is out of the kernel's range");
    }
    multipliers[c] = m.multiplier;
    shifts[c] = m.shift;
  }
  const std::string base = ctx.op_name();
  args->push_back(ArgDef::int_array(ctx.int_array(base + " multipliers", multipliers)));
  args->push_back(ArgDef::int_array(ctx.int_array(base + " shifts", shifts)));
  return true;
}

// The optional bias input as the kernel's bias argument, widened to int64 when the model
// stores a narrower one for a 16-bit kernel (TFLM widens int16 biases of TRANSPOSE_CONV).
bool bias_arg(ImportContext& ctx, int input_slot, DType wanted, int64_t channels, std::vector<ArgDef>* args) {
  if (ctx.input_count() <= input_slot || !ctx.has_input(input_slot)) {
    args->push_back(ArgDef::none());
    return true;
  }
  const int32_t bias = ctx.input_index(input_slot);
  const std::vector<int64_t> shape = ctx.shape(bias);
  uint64_t count = 1;
  for (const int64_t d : shape) {
    if (d < 0) return ctx.fail("bias has a dynamic shape; graphrt needs every dimension known");
    count *= static_cast<uint64_t>(d);  // a corrupt shape may wrap here; importing the tensor refuses its size
  }
  if (count != static_cast<uint64_t>(channels)) {
    return ctx.fail("bias has " + std::to_string(count) + " values for " + std::to_string(channels) + " channels");
  }
  const DType type = ctx.dtype(bias);
  if (type == wanted) {
    args->push_back(ArgDef::input(ctx.graph_tensor(bias)));
    return true;
  }
  if (wanted == DType::Int64 && type == DType::Int16 && ctx.is_constant(bias)) {
    const std::vector<int16_t> narrow = ctx.constant_values<int16_t>(bias);
    std::vector<uint8_t> bytes(narrow.size() * sizeof(int64_t));
    for (size_t i = 0; i < narrow.size(); ++i) {
      const int64_t wide = narrow[i];
      std::memcpy(bytes.data() + i * sizeof(int64_t), &wide, sizeof(int64_t));
    }
    args->push_back(ArgDef::input(ctx.constant(ctx.op_name() + " bias", DType::Int64, {channels}, std::move(bytes))));
    return true;
  }
  return ctx.fail(std::string("bias type ") + dtype_name(type) + " is not supported here (wants " + dtype_name(wanted) + ")");
}

bool zero_point_is_zero(ImportContext& ctx, int32_t tensor, const char* role) {
  if (ctx.zero_point(tensor) != 0) return ctx.fail(std::string(role) + " of a 16-bit kernel needs zero point 0");
  return true;
}

// What CONV_2D and DEPTHWISE_CONV_2D read from their options.
struct ConvOptions {
  Window window;  // strides and dilations; padding filled in by set_up_conv
  tflite::Padding padding;
  tflite::ActivationFunctionType activation;
};

// The tensors, shapes and padded window of a (depthwise) convolution, checked.
struct ConvSetup {
  int32_t x = -1, filter = -1, y = -1;
  std::vector<int64_t> xs, fs, ys;
  Window window;
  int64_t channels = 0;
  DType in_type = DType::Int8, filter_type = DType::Int8, out_type = DType::Int8;
};

bool set_up_conv(ImportContext& ctx, const ConvOptions& options, ConvSetup* c) {
  if (ctx.input_count() < 2 || ctx.output_count() != 1) return ctx.fail("expects (input, filter[, bias]) -> output");
  c->x = ctx.input_index(0);
  c->filter = ctx.input_index(1);
  c->y = ctx.output_index(0);
  c->xs = ctx.shape(c->x);
  c->fs = ctx.shape(c->filter);
  c->ys = ctx.shape(c->y);
  if (!is_4d(c->xs) || !is_4d(c->fs) || !is_4d(c->ys)) return ctx.fail("input, filter and output must be 4-D");
  Window w = options.window;
  if (!valid_window_options(ctx, w)) return false;
  int64_t out_h = 0, out_w = 0;
  c->window = padded_window(options.padding, w, c->xs[1], c->xs[2], c->fs[1], c->fs[2], &out_h, &out_w);
  if (out_h != c->ys[1] || out_w != c->ys[2]) {
    return ctx.fail("output " + shape_text(c->ys) + " does not match the window's " + std::to_string(out_h) + "x" + std::to_string(out_w));
  }
  c->channels = c->ys[3];
  c->in_type = ctx.dtype(c->x);
  c->filter_type = ctx.dtype(c->filter);
  c->out_type = ctx.dtype(c->y);
  return ctx.error().empty();
}

bool all_types(const ConvSetup& c, DType in, DType filter, DType out) {
  return c.in_type == in && c.filter_type == filter && c.out_type == out;
}

// X, filter, bias?, Y, window, Float act_min, act_max.
bool emit_float_conv(ImportContext& ctx, const ConvSetup& c, tflite::ActivationFunctionType activation, const char* kernel) {
  std::vector<ArgDef> args = {ArgDef::input(ctx.graph_tensor(c.x)), ArgDef::input(ctx.graph_tensor(c.filter))};
  if (!bias_arg(ctx, 2, DType::Float32, c.channels, &args)) return false;
  args.push_back(ArgDef::output(ctx.graph_tensor(c.y)));
  append(&args, window_args(c.window, true));
  if (!float_activation(ctx, activation, &args)) return false;
  ctx.add_node(kernel, std::move(args));
  return ctx.error().empty();
}

// conv2d_s8's prepared argument 16, carried beside the bias: per filter, the bias plus the
// input offset's share of the sum, bias[c] + input_offset * sum_k filter[c][k], wrapped to
// int32 as the kernel's sums wrap. With it a kernel sums raw int8 products (the DSP path,
// kernels/src/conv/conv2d_dsp.h) and prepares nothing on the device. Emitted only when the
// filter and the bias are constants.
void folded_bias_arg(ImportContext& ctx, const ConvSetup& c, const std::vector<int8_t>& filter, std::vector<ArgDef>* args) {
  const bool has_bias = ctx.input_count() > 2 && ctx.has_input(2);
  if (filter.empty() || (has_bias && !ctx.is_constant(ctx.input_index(2)))) return;
  const std::vector<int32_t> bias = has_bias ? ctx.constant_values<int32_t>(ctx.input_index(2)) : std::vector<int32_t>{};
  const size_t channels = static_cast<size_t>(c.channels);
  if (channels == 0 || filter.size() % channels != 0 || (has_bias && bias.size() != channels)) return;
  const size_t filter_size = filter.size() / channels;
  const int64_t input_offset = -static_cast<int64_t>(ctx.zero_point(c.x));
  std::vector<int32_t> folded(channels);
  for (size_t ch = 0; ch < channels; ++ch) {
    int64_t weights = 0;
    for (size_t k = 0; k < filter_size; ++k) weights += filter[ch * filter_size + k];
    const uint32_t sum = static_cast<uint32_t>(has_bias ? bias[ch] : 0) + static_cast<uint32_t>(input_offset * weights);
    folded[ch] = static_cast<int32_t>(sum);
  }
  args->push_back(ArgDef::int_array(ctx.int_array(ctx.op_name() + " folded bias", folded)));
}

// X, filter, bias?, Y, multipliers, shifts, window, input offset, output offset, act range
// (conv2d_s8: then the folded bias). `filter` replaces the model's filter when given (a
// lowered depthwise convolution's, with its constant values in `filter_values`).
bool emit_int8_conv(ImportContext& ctx, const ConvSetup& c, tflite::ActivationFunctionType activation, const char* kernel,
                    const ArgDef* filter = nullptr, const std::vector<int8_t>* filter_values = nullptr) {
  std::vector<ArgDef> args = {ArgDef::input(ctx.graph_tensor(c.x)),
                              filter != nullptr ? *filter : ArgDef::input(ctx.graph_tensor(c.filter))};
  if (!bias_arg(ctx, 2, DType::Int32, c.channels, &args)) return false;
  args.push_back(ArgDef::output(ctx.graph_tensor(c.y)));
  if (!requantization_args(ctx, c.x, c.filter, c.y, c.channels, 31, &args)) return false;
  append(&args, window_args(c.window, true));
  int32_t act_min = 0, act_max = 0;
  if (!quantized_activation(ctx, activation, c.y, INT8_MIN, INT8_MAX, &act_min, &act_max)) return false;
  args.push_back(ArgDef::integer(-ctx.zero_point(c.x)));
  args.push_back(ArgDef::integer(ctx.zero_point(c.y)));
  args.push_back(ArgDef::integer(act_min));
  args.push_back(ArgDef::integer(act_max));
  if (std::string(kernel) == "conv2d_s8") {
    const std::vector<int8_t> values = filter_values != nullptr ? *filter_values
                                       : ctx.is_constant(c.filter) ? ctx.constant_values<int8_t>(c.filter)
                                                                   : std::vector<int8_t>{};
    folded_bias_arg(ctx, c, values, &args);
  }
  ctx.add_node(kernel, std::move(args));
  return ctx.error().empty();
}

bool unsupported_types(ImportContext& ctx, const ConvSetup& c) {
  return ctx.fail(std::string("types ") + dtype_name(c.in_type) + " x " + dtype_name(c.filter_type) + " -> " + dtype_name(c.out_type) +
                  " are not supported");
}

template <typename Options>
ConvOptions conv_options(const Options& options) {
  ConvOptions o;
  o.window.stride_h = options.stride_h();
  o.window.stride_w = options.stride_w();
  o.window.dilation_h = options.dilation_h_factor();
  o.window.dilation_w = options.dilation_w_factor();
  o.padding = options.padding();
  o.activation = options.fused_activation_function();
  return o;
}

// ---- CONV_2D: inputs (X, filter [Cout,KH,KW,Cin/groups], bias?) ----
bool convert_conv2d(ImportContext& ctx) {
  const auto* options = ctx.options<tflite::Conv2DOptions>();
  if (options == nullptr) return ctx.fail("has no Conv2DOptions");
  const ConvOptions o = conv_options(*options);
  ConvSetup c;
  if (!set_up_conv(ctx, o, &c)) return false;
  if (all_types(c, DType::Float32, DType::Float32, DType::Float32)) return emit_float_conv(ctx, c, o.activation, "conv2d_f32");
  if (all_types(c, DType::Int8, DType::Int8, DType::Int8)) return emit_int8_conv(ctx, c, o.activation, "conv2d_s8");
  if (all_types(c, DType::Int16, DType::Int8, DType::Int16)) {
    // TFLM accumulates in 32 bits when the bias is int32 (or absent with quantized_bias_type
    // INT32); only the 64-bit accumulation has a kernel.
    const bool has_bias = ctx.input_count() > 2 && ctx.has_input(2);
    if ((has_bias && ctx.dtype(ctx.input_index(2)) == DType::Int32) ||
        (!has_bias && options->quantized_bias_type() == tflite::TensorType::INT32)) {
      return ctx.fail("16x8 convolution with 32-bit accumulation (int32 bias) is not supported");
    }
    if (!zero_point_is_zero(ctx, c.x, "input") || !zero_point_is_zero(ctx, c.y, "output")) return false;
    std::vector<ArgDef> args = {ArgDef::input(ctx.graph_tensor(c.x)), ArgDef::input(ctx.graph_tensor(c.filter))};
    if (!bias_arg(ctx, 2, DType::Int64, c.channels, &args)) return false;
    args.push_back(ArgDef::output(ctx.graph_tensor(c.y)));
    if (!requantization_args(ctx, c.x, c.filter, c.y, c.channels, 7, &args)) return false;
    append(&args, window_args(c.window, true));
    int32_t act_min = 0, act_max = 0;
    if (!quantized_activation(ctx, o.activation, c.y, INT16_MIN, INT16_MAX, &act_min, &act_max)) return false;
    args.push_back(ArgDef::integer(act_min));
    args.push_back(ArgDef::integer(act_max));
    ctx.add_node("conv2d_s16", std::move(args));
    return ctx.error().empty();
  }
  return unsupported_types(ctx, c);
}

// A depthwise convolution of a one-channel input (person_detect's first layer) is a
// convolution: output channel m filters the only input channel with taps [.., .., m]. It is
// emitted as conv2d_s8 with the filter transposed to [M,KH,KW,1] on the host, so it runs
// on the convolution's fast paths; the sums, per-channel requantization and clamp are the
// same integers as TFLM's depthwise kernel computes.
bool emit_single_channel_depthwise(ImportContext& ctx, const ConvSetup& c, tflite::ActivationFunctionType activation) {
  const std::vector<int8_t> depthwise = ctx.constant_values<int8_t>(c.filter);
  const size_t outputs = static_cast<size_t>(c.fs[3]);
  const size_t taps = static_cast<size_t>(c.fs[1] * c.fs[2]);
  if (depthwise.size() != taps * outputs) return ctx.fail("filter size does not match its shape");
  std::vector<int8_t> transposed(depthwise.size());
  for (size_t t = 0; t < taps; ++t) {
    for (size_t m = 0; m < outputs; ++m) transposed[m * taps + t] = depthwise[t * outputs + m];
  }
  std::vector<uint8_t> bytes(transposed.size());
  std::memcpy(bytes.data(), transposed.data(), bytes.size());
  const ArgDef filter = ArgDef::input(ctx.constant(ctx.op_name() + " filter as a convolution's", DType::Int8,
                                                   {c.fs[3], c.fs[1], c.fs[2], 1}, std::move(bytes)));
  return emit_int8_conv(ctx, c, activation, "conv2d_s8", &filter, &transposed);
}

// ---- DEPTHWISE_CONV_2D: inputs (X, filter [1,KH,KW,C*M], bias?) ----
bool convert_depthwise_conv2d(ImportContext& ctx) {
  const auto* options = ctx.options<tflite::DepthwiseConv2DOptions>();
  if (options == nullptr) return ctx.fail("has no DepthwiseConv2DOptions");
  const ConvOptions o = conv_options(*options);
  ConvSetup c;
  if (!set_up_conv(ctx, o, &c)) return false;
  if (c.xs[3] < 1 || c.ys[3] % c.xs[3] != 0) return ctx.fail("output channels are not a multiple of the input channels");
  const int64_t multiplier = c.ys[3] / c.xs[3];
  if (options->depth_multiplier() != 0 && options->depth_multiplier() != multiplier) {
    return ctx.fail("depth_multiplier " + std::to_string(options->depth_multiplier()) + " disagrees with the shapes (" +
                    std::to_string(multiplier) + ")");
  }
  if (all_types(c, DType::Float32, DType::Float32, DType::Float32)) return emit_float_conv(ctx, c, o.activation, "depthwise_conv2d_f32");
  if (all_types(c, DType::Int8, DType::Int8, DType::Int8)) {
    if (c.xs[3] == 1 && ctx.is_constant(c.filter)) return emit_single_channel_depthwise(ctx, c, o.activation);
    return emit_int8_conv(ctx, c, o.activation, "depthwise_conv2d_s8");
  }
  return unsupported_types(ctx, c);
}

// ---- TRANSPOSE_CONV: inputs (output_shape, filter [Cout,KH,KW,Cin], X, bias?) ----
// output_shape may be a model input: like TFLM, its values are ignored and the output
// tensor's static shape is used.
bool convert_transpose_conv(ImportContext& ctx) {
  const auto* options = ctx.options<tflite::TransposeConvOptions>();
  if (options == nullptr) return ctx.fail("has no TransposeConvOptions");
  if (ctx.input_count() < 3 || ctx.output_count() != 1) return ctx.fail("expects (output_shape, filter, input[, bias]) -> output");
  const int32_t filter = ctx.input_index(1);
  const int32_t x = ctx.input_index(2);
  const int32_t y = ctx.output_index(0);
  const std::vector<int64_t> xs = ctx.shape(x), fs = ctx.shape(filter), ys = ctx.shape(y);
  if (!is_4d(xs) || !is_4d(fs) || !is_4d(ys)) return ctx.fail("input, filter and output must be 4-D");
  Window w;
  w.stride_h = options->stride_h();
  w.stride_w = options->stride_w();
  if (!valid_window_options(ctx, w)) return false;
  // TFLM pads as a convolution from the output back to the input would.
  int64_t unused_h = 0, unused_w = 0;
  w = padded_window(options->padding(), w, ys[1], ys[2], fs[1], fs[2], &unused_h, &unused_w);
  const int64_t channels = ys[3];
  const DType in_type = ctx.dtype(x), filter_type = ctx.dtype(filter), out_type = ctx.dtype(y);
  if (!ctx.error().empty()) return false;
  if (!(in_type == DType::Int16 && filter_type == DType::Int8 && out_type == DType::Int16)) {
    return ctx.fail(std::string("types ") + dtype_name(in_type) + " x " + dtype_name(filter_type) + " -> " + dtype_name(out_type) +
                    " are not supported (only int16 x int8)");
  }
  if (!zero_point_is_zero(ctx, x, "input") || !zero_point_is_zero(ctx, y, "output")) return false;
  std::vector<ArgDef> args = {ArgDef::input(ctx.graph_tensor(x)), ArgDef::input(ctx.graph_tensor(filter))};
  if (!bias_arg(ctx, 3, DType::Int64, channels, &args)) return false;
  args.push_back(ArgDef::output(ctx.graph_tensor(y)));
  if (!requantization_args(ctx, x, filter, y, channels, 7, &args)) return false;
  append(&args, window_args(w, false));
  int32_t act_min = 0, act_max = 0;
  if (!quantized_activation(ctx, options->fused_activation_function(), y, INT16_MIN, INT16_MAX, &act_min, &act_max)) return false;
  args.push_back(ArgDef::integer(act_min));
  args.push_back(ArgDef::integer(act_max));
  ctx.add_node("transpose_conv_s16", std::move(args));
  return ctx.error().empty();
}

}  // namespace

void register_conv_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::CONV_2D, convert_conv2d, {"int8", "int16 (int8 weights, int64 bias)", "float32"});
  table.add(tflite::BuiltinOperator::DEPTHWISE_CONV_2D, convert_depthwise_conv2d, {"int8", "float32"});
  table.add(tflite::BuiltinOperator::TRANSPOSE_CONV, convert_transpose_conv, {"int16 (int8 weights, int64 bias)"});
}

}  // namespace grt::tools
