// Converters for the signal library's operators that keep samples from one invocation to
// the next: SignalDelay, SignalFramer, SignalStacker and SignalOverlapAdd. TFLM holds that
// state in persistent buffers of the kernel; graphrt holds it in State tensors created here,
// so the plan never reuses it, grt_reset_state restores it and the exact budget counts it.
#include <cstdint>
#include <string>
#include <vector>

#include "signal_common.h"

namespace grt::tools::signal {
namespace {

bool convert_delay(ImportContext& ctx) {
  if (!expect_counts(ctx, 1, 1)) return false;
  SignalOptions options(ctx);
  int64_t delay = 0;
  if (!options.integer("delay_length", 0, INT32_MAX, &delay)) return false;
  if (!expect_type(ctx, ctx.input_index(0), TensorType::INT16, "input") ||
      !expect_type(ctx, ctx.output_index(0), TensorType::INT16, "output")) {
    return false;
  }
  const std::vector<int64_t> shape = ctx.shape(ctx.input_index(0));
  if (shape.empty() || shape.back() == 0) return ctx.fail("input has rank 0 or empty frames");
  if (ctx.shape(ctx.output_index(0)) != shape) return ctx.fail("output's shape differs from the input's");
  if (delay == 0) {  // nothing is held back
    ctx.add_node("copy", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0))});
    return ctx.error().empty();
  }
  const int64_t rows = static_cast<int64_t>(elements(shape)) / shape.back();
  if (rows * delay > INT32_MAX) return ctx.fail("history of " + std::to_string(rows) + " rows x " + std::to_string(delay) + " samples is too large");
  const uint32_t history = zero_state(ctx, "history", DType::Int16, rows * delay);
  ctx.add_node("signal_delay", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::output(history), ArgDef::integer(delay)});
  return ctx.error().empty();
}

// The output_valid flag TFLM's Framer and Stacker write: a bool scalar.
bool expect_valid_flag(ImportContext& ctx, int32_t tensor) {
  if (!expect_type(ctx, tensor, TensorType::BOOL, "output_valid")) return false;
  if (!ctx.shape(tensor).empty()) return ctx.fail("output_valid must be a scalar");
  return true;
}

bool convert_framer(ImportContext& ctx) {
  if (!expect_counts(ctx, 1, 2)) return false;
  SignalOptions options(ctx);
  int64_t size = 0;
  int64_t step = 0;
  int64_t prefill = 0;
  if (!options.integer("frame_size", 1, INT32_MAX, &size) || !options.integer("frame_step", 1, INT32_MAX, &step) ||
      !options.integer("prefill", 0, 1, &prefill)) {
    return false;
  }
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  if (!expect_type(ctx, input, TensorType::INT16, "input") || !expect_type(ctx, output, TensorType::INT16, "output") ||
      !expect_valid_flag(ctx, ctx.output_index(1))) {
    return false;
  }
  // TFLM's prefill writes frame_size - frame_step zeros, which must not be negative.
  if (prefill != 0 && step > size) return ctx.fail("prefill needs frame_step " + std::to_string(step) + " <= frame_size " + std::to_string(size));
  const std::vector<int64_t> in_shape = ctx.shape(input);
  const std::vector<int64_t> out_shape = ctx.shape(output);
  if (in_shape.empty() || out_shape.size() != in_shape.size() + 1) return ctx.fail("output rank is not input rank + 1");
  const int64_t row = in_shape.back();
  if (row < step || row % step != 0) return ctx.fail("input rows of " + std::to_string(row) + " samples are not a whole number of frame_step " + std::to_string(step));
  const int64_t frames = row / step;
  std::vector<int64_t> expected(in_shape.begin(), in_shape.end() - 1);
  expected.push_back(frames);
  expected.push_back(size);
  if (out_shape != expected) return ctx.fail("output's last dimensions are not [" + std::to_string(frames) + ", " + std::to_string(size) + "]");
  const int64_t rows = static_cast<int64_t>(elements(in_shape)) / row;
  const int64_t capacity = (size + step - 1) / step * step;
  if (rows * capacity > INT32_MAX) return ctx.fail("pending samples of " + std::to_string(rows) + " rows x " + std::to_string(capacity) + " are too large");
  const uint32_t pending = zero_state(ctx, "pending samples", DType::Int16, rows * capacity);
  const uint32_t fill = count_state(ctx, "pending count", static_cast<int32_t>(prefill != 0 ? size - step : 0));
  ctx.add_node("signal_framer", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::output(ctx.output(1)),
                                 ArgDef::output(pending), ArgDef::output(fill), ArgDef::integer(size), ArgDef::integer(step)});
  return ctx.error().empty();
}

bool convert_stacker(ImportContext& ctx) {
  if (!expect_counts(ctx, 1, 2)) return false;
  SignalOptions options(ctx);
  int64_t channels = 0;
  int64_t left = 0;
  int64_t right = 0;
  int64_t step = 0;
  if (!options.integer("num_channels", 1, INT16_MAX, &channels) || !options.integer("stacker_left_context", 0, INT16_MAX, &left) ||
      !options.integer("stacker_right_context", 0, INT16_MAX, &right) || !options.integer("stacker_step", 1, INT16_MAX, &step)) {
    return false;
  }
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  if (!expect_type(ctx, input, TensorType::INT16, "input") || !expect_type(ctx, output, TensorType::INT16, "output") ||
      !expect_valid_flag(ctx, ctx.output_index(1))) {
    return false;
  }
  const int64_t vectors = left + 1 + right;
  // TFLM drops `step` vectors from a full window of `vectors`: more would underflow it.
  if (step > vectors) return ctx.fail("stacker_step " + std::to_string(step) + " is more than the window's " + std::to_string(vectors) + " vectors");
  const std::vector<int64_t> in_shape = ctx.shape(input);
  const std::vector<int64_t> out_shape = ctx.shape(output);
  if (in_shape.size() != 1 || out_shape.size() != 1) return ctx.fail("input and output must have rank 1");
  if (in_shape[0] != channels) return ctx.fail("input has " + std::to_string(in_shape[0]) + " values, num_channels is " + std::to_string(channels));
  if (out_shape[0] != channels * vectors) {
    return ctx.fail("output has " + std::to_string(out_shape[0]) + " values, num_channels x (left + 1 + right) is " + std::to_string(channels * vectors));
  }
  const uint32_t pending = zero_state(ctx, "window", DType::Int16, channels * vectors);
  const uint32_t fill = count_state(ctx, "window count", -1);
  ctx.add_node("signal_stacker", {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::output(ctx.output(1)),
                                  ArgDef::output(pending), ArgDef::output(fill), ArgDef::integer(channels), ArgDef::integer(left),
                                  ArgDef::integer(right), ArgDef::integer(step)});
  return ctx.error().empty();
}

bool convert_overlap_add(ImportContext& ctx) {
  if (!expect_counts(ctx, 1, 1)) return false;
  SignalOptions options(ctx);
  int64_t type = 0;
  int64_t step = 0;
  if (!options.integer("T", INT32_MIN, INT32_MAX, &type) || !options.integer("frame_step", 1, INT32_MAX, &step)) return false;
  const bool wide = type == static_cast<int64_t>(TensorType::FLOAT32);
  if (!wide && type != static_cast<int64_t>(TensorType::INT16)) return ctx.fail("T is " + std::to_string(type) + "; TFLM's OverlapAdd takes int16 and float32");
  const TensorType tensor_type = wide ? TensorType::FLOAT32 : TensorType::INT16;
  const int32_t input = ctx.input_index(0);
  const int32_t output = ctx.output_index(0);
  if (!expect_type(ctx, input, tensor_type, "input") || !expect_type(ctx, output, tensor_type, "output")) return false;
  const std::vector<int64_t> in_shape = ctx.shape(input);
  const std::vector<int64_t> out_shape = ctx.shape(output);
  if (in_shape.size() < 2 || out_shape.size() + 1 != in_shape.size()) return ctx.fail("input rank is not output rank + 1 (at least 2)");
  const int64_t size = in_shape.back();
  const int64_t frames = in_shape[in_shape.size() - 2];
  if (size == 0 || frames == 0) return ctx.fail("input has no frames");
  // The buffer shifts by frame_step per frame: a longer step than frames would leave gaps.
  if (step > size) return ctx.fail("frame_step " + std::to_string(step) + " is larger than frames of " + std::to_string(size));
  std::vector<int64_t> expected(in_shape.begin(), in_shape.end() - 2);
  expected.push_back(frames * step);
  if (out_shape != expected) return ctx.fail("output's last dimension is not frames x frame_step = " + std::to_string(frames * step));
  const int64_t rows = static_cast<int64_t>(elements(in_shape)) / (size * frames);
  const uint32_t buffer = zero_state(ctx, "overlap buffer", wide ? DType::Float32 : DType::Int16, rows * size);
  ctx.add_node(wide ? "signal_overlap_add_f32" : "signal_overlap_add_s16",
               {ArgDef::input(ctx.input(0)), ArgDef::output(ctx.output(0)), ArgDef::output(buffer), ArgDef::integer(step)});
  return ctx.error().empty();
}

}  // namespace

void register_stream_ops(ConverterTable& table) {
  table.add_custom("SignalDelay", convert_delay, {"int16 (state kept across runs)"});
  table.add_custom("SignalFramer", convert_framer, {"int16 (bool output_valid; state kept across runs)"});
  table.add_custom("SignalStacker", convert_stacker, {"int16 (bool output_valid; state kept across runs)"});
  table.add_custom("SignalOverlapAdd", convert_overlap_add, {"int16 (state kept across runs)", "float32 (state kept across runs)"});
}

}  // namespace grt::tools::signal
