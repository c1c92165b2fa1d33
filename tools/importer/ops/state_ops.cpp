// Operators that keep state across runs in a TFLite variable tensor (a State tensor of the
// blob: see ImportContext::graph_tensor): SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM.
#include <algorithm>
#include <cmath>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/quantize_params.h"
#include "activation_tables.h"
#include "sigmoid_table.h"

namespace grt::tools {
namespace {

// ---- SVDF ----

// Inputs: X, weights_feature, weights_time, bias (optional), activation state (variable).
// TFLM's PrepareSvdf: the int8 path takes each effective scale as a float product widened
// to double, and applies no fused activation (only the int8 clamp).
bool convert_svdf(ImportContext& ctx) {
  if (ctx.input_count() != 5 || ctx.output_count() != 1) return ctx.fail("expects 5 inputs and 1 output");
  const auto* o = ctx.options<tflite::SVDFOptions>();
  if (o == nullptr) return ctx.fail("has no SVDFOptions");
  const int32_t input = ctx.input_index(0);
  const int32_t feature = ctx.input_index(1);
  const int32_t time = ctx.input_index(2);
  const int32_t state = ctx.input_index(4);
  const int32_t output = ctx.output_index(0);
  if (!ctx.has_input(0) || !ctx.has_input(1) || !ctx.has_input(2) || !ctx.has_input(4)) return ctx.fail("misses a required input");
  if (ctx.tensor(state) == nullptr || !ctx.tensor(state)->is_variable()) return ctx.fail("activation state (input 4) is not a variable tensor");
  if (!ctx.is_constant(feature) || !ctx.is_constant(time)) return ctx.fail("weights must be constant");
  if (o->rank() < 1) return ctx.fail("rank must be at least 1");
  std::vector<ArgDef> args = {ArgDef::input(ctx.input(0)),
                              ArgDef::input(ctx.input(1)),
                              ArgDef::input(ctx.input(2)),
                              ctx.has_input(3) ? ArgDef::input(ctx.input(3)) : ArgDef::none(),
                              ArgDef::output(ctx.graph_tensor(state)),
                              ArgDef::output(ctx.output(0)),
                              ArgDef::integer(o->rank())};
  if (!ctx.error().empty()) return false;
  const DType input_type = ctx.dtype(input);
  if (input_type == DType::Int8) {
    const DType state_type = ctx.dtype(state);
    if (ctx.dtype(feature) != DType::Int8 || ctx.dtype(output) != DType::Int8 || ctx.dtype(time) != state_type ||
        (state_type != DType::Int16 && state_type != DType::Int8) || (ctx.has_input(3) && ctx.dtype(ctx.input_index(3)) != DType::Int32)) {
      return ctx.fail("int8 SVDF needs int8 weights_feature and output, weights_time of the state's type (int16 or int8), int32 bias");
    }
    const float scale_1 = ctx.scale(input) * ctx.scale(feature) / ctx.scale(state);
    const float scale_2 = ctx.scale(state) * ctx.scale(time) / ctx.scale(output);
    const FixedPointMultiplier m1 = quantize_multiplier(static_cast<double>(scale_1));
    const FixedPointMultiplier m2 = quantize_multiplier(static_cast<double>(scale_2));
    const int32_t state_zero = state_type == DType::Int8 ? ctx.zero_point(state) : 0;
    if (state_type == DType::Int16 && ctx.zero_point(state) != 0) return ctx.fail("int16 state needs zero point 0");
    args.push_back(ArgDef::integer(ctx.zero_point(input)));
    args.push_back(ArgDef::integer(m1.multiplier));
    args.push_back(ArgDef::integer(m1.shift));
    args.push_back(ArgDef::integer(m2.multiplier));
    args.push_back(ArgDef::integer(m2.shift));
    args.push_back(ArgDef::integer(ctx.zero_point(output)));
    args.push_back(ArgDef::integer(state_zero));
    ctx.add_node("svdf_s8", std::move(args));
  } else if (input_type == DType::Float32) {
    for (const int32_t t : {feature, time, state, output}) {
      if (ctx.dtype(t) != DType::Float32) return ctx.fail("float32 SVDF needs float32 weights, state and output");
    }
    if (ctx.has_input(3) && ctx.dtype(ctx.input_index(3)) != DType::Float32) return ctx.fail("float32 SVDF needs a float32 bias");
    const auto activation = o->fused_activation_function();
    if (activation != tflite::ActivationFunctionType::NONE && activation != tflite::ActivationFunctionType::RELU &&
        activation != tflite::ActivationFunctionType::RELU_N1_TO_1 && activation != tflite::ActivationFunctionType::RELU6) {
      return ctx.fail("fused activation is not supported");
    }
    float act_min = 0.0f, act_max = 0.0f;
    float_activation_range(static_cast<int>(activation), &act_min, &act_max);
    args.push_back(ArgDef::real(act_min));
    args.push_back(ArgDef::real(act_max));
    ctx.add_node("svdf_f32", std::move(args));
  } else {
    return ctx.fail("supports int8 and float32 inputs only");
  }
  return ctx.error().empty();
}

// ---- UNIDIRECTIONAL_SEQUENCE_LSTM ----

// TFLite's input order: 0 X; 1..4 input weights (i, f, g, o); 5..8 recurrent weights;
// 9..11 peephole weights; 12..15 biases; 16, 17 projection weights and bias; 18 h state and
// 19 c state (variables); 20..23 layer-norm coefficients.
constexpr int kLstmInputs = 24;
constexpr int kLstmHState = 18;
constexpr int kLstmCState = 19;

// The four gates' constants (TFLite inputs first..first + 3, gates i, f, g, o) as one
// constant [4, their shape]: the kernels take one tensor argument where TFLite has four.
// The gates' own tensors are never asked for (ctx.input), so the blob does not hold them.
uint32_t stacked_gates(ImportContext& ctx, int first, const std::string& what) {
  TensorDef gate;  // gate i's tensor, which every gate's must match
  gate.dtype = ctx.dtype(ctx.input_index(first));
  gate.shape = ctx.shape(ctx.input_index(first));
  std::vector<uint8_t> bytes;
  for (int i = first; i < first + 4; ++i) {
    const int32_t t = ctx.input_index(i);
    const std::string input = " (input " + std::to_string(i) + ")";
    const std::vector<uint8_t> data = ctx.constant_bytes(t);
    if (!ctx.is_constant(t)) {
      ctx.fail(what + " must be constant" + input);
    } else if (ctx.dtype(t) != gate.dtype || ctx.shape(t) != gate.shape) {
      ctx.fail("the four gates' " + what + " must share one shape and dtype" + input);
    } else if (data.size() != gate.bytes()) {
      ctx.fail(what + input + " has " + std::to_string(data.size()) + " bytes of data, its shape needs " + std::to_string(gate.bytes()));
    }
    if (!ctx.error().empty()) return 0;
    bytes.insert(bytes.end(), data.begin(), data.end());
  }
  std::vector<int64_t> shape = {4};
  shape.insert(shape.end(), gate.shape.begin(), gate.shape.end());
  return ctx.constant(ctx.op_name() + " " + what, gate.dtype, std::move(shape), std::move(bytes));
}

// Arguments 0..6 of every LSTM kernel (kernels/src/state/lstm_shape.h).
std::vector<ArgDef> lstm_operands(ImportContext& ctx) {
  return {ArgDef::input(ctx.input(0)),
          ArgDef::input(stacked_gates(ctx, 1, "input weights")),
          ArgDef::input(stacked_gates(ctx, 5, "recurrent weights")),
          ArgDef::input(stacked_gates(ctx, 12, "biases")),
          ArgDef::output(ctx.input(kLstmHState)),
          ArgDef::output(ctx.input(kLstmCState)),
          ArgDef::output(ctx.output(0))};
}

void push_multiplier(std::vector<int32_t>* parameters, double real) {
  const FixedPointMultiplier m = quantize_multiplier(real);
  parameters->push_back(m.multiplier);
  parameters->push_back(m.shift);
}

// TFLM's integer LSTM Prepare (PrepareGateParametersInteger, CreateLstmCellStateInfo): every
// gate's two fully-connected products go to int16 at 2^-12 (a float product of the scales,
// as GetQuantizedConvolutionMultipler takes it), the gates come out in Q0.15 (2^-15), and
// the element-wise products are rescaled into the cell state's and h's scales.
bool convert_integer_lstm(ImportContext& ctx, const tflite::UnidirectionalSequenceLSTMOptions& o) {
  constexpr float kGateInputScale = 1.0f / 4096;   // Q3.12
  constexpr float kGateOutputScale = 1.0f / 32768;  // Q0.15
  const int32_t input = ctx.input_index(0);
  const int32_t hidden = ctx.input_index(kLstmHState);
  const int32_t cell = ctx.input_index(kLstmCState);
  const DType activation_type = ctx.dtype(input);
  const bool wide = activation_type == DType::Int16;
  const char* type_name = wide ? "int16" : "int8";
  if (ctx.dtype(hidden) != activation_type || ctx.dtype(ctx.output_index(0)) != activation_type) {
    return ctx.fail(std::string(type_name) + " LSTM needs an " + type_name + " h state and output");
  }
  if (ctx.dtype(cell) != DType::Int16) return ctx.fail(std::string(type_name) + " LSTM needs an int16 c state");
  for (int i = 1; i <= 8; ++i) {
    const int32_t w = ctx.input_index(i);
    if (ctx.dtype(w) != DType::Int8) return ctx.fail(std::string(type_name) + " LSTM needs int8 weights (input " + std::to_string(i) + ")");
    if (ctx.scales(w).size() != 1) return ctx.fail("weights must be quantized per tensor (input " + std::to_string(i) + ")");
    if (ctx.zero_point(w) != 0) return ctx.fail("weights need zero point 0 (input " + std::to_string(i) + ")");
  }
  const DType bias_type = wide ? DType::Int64 : DType::Int32;
  for (int i = 12; i <= 15; ++i) {
    if (ctx.dtype(ctx.input_index(i)) != bias_type) {
      return ctx.fail(std::string(type_name) + " LSTM needs " + dtype_name(bias_type) + " biases (input " + std::to_string(i) + ")");
    }
  }
  if (o.fused_activation_function() != tflite::ActivationFunctionType::TANH) return ctx.fail("supports the TANH activation only");
  for (const int32_t t : {input, hidden, cell}) {
    if (ctx.scales(t).size() != 1 || !(ctx.scale(t) > 0.0f)) return ctx.fail("input, h and c states must be quantized per tensor");
  }
  if (!ctx.error().empty()) return false;
  const float cell_scale = ctx.scale(cell);
  std::vector<ArgDef> args = lstm_operands(ctx);
  const std::string table = activation::sigmoid_q16_table_bytes();
  args.push_back(ArgDef::input(ctx.constant(ctx.op_name() + " sigmoid table", DType::Int16, {256}, std::vector<uint8_t>(table.begin(), table.end()))));
  // The parameters array, in the order of kernels/src/state/lstm_integer.cpp.
  std::vector<int32_t> parameters = {o.time_major() ? 1 : 0};
  for (int gate = 0; gate < 4; ++gate) {
    push_multiplier(&parameters, static_cast<double>(ctx.scale(input) * ctx.scale(ctx.input_index(1 + gate))) / static_cast<double>(kGateInputScale));
  }
  for (int gate = 0; gate < 4; ++gate) {
    push_multiplier(&parameters, static_cast<double>(ctx.scale(hidden) * ctx.scale(ctx.input_index(5 + gate))) / static_cast<double>(kGateInputScale));
  }
  const auto product = [](float a, float b, float out) { return static_cast<double>(a) * static_cast<double>(b) / static_cast<double>(out); };
  push_multiplier(&parameters, product(kGateOutputScale, cell_scale, cell_scale));
  push_multiplier(&parameters, product(kGateOutputScale, kGateOutputScale, cell_scale));
  push_multiplier(&parameters, product(kGateOutputScale, kGateOutputScale, ctx.scale(hidden)));
  parameters.push_back(ctx.zero_point(input));
  parameters.push_back(ctx.zero_point(hidden));
  // tanh(c): c's scale 2^p onto the table's Q3.12 steps times 3, as TFLM's Tanh does it.
  int cell_power = 0;
  (void)activation::checked_log2(cell_scale, &cell_power);  // TFLM takes the rounded log2 either way
  const int left_shift = 15 + cell_power - 3;
  if (left_shift > 12 || left_shift < -16) return ctx.fail("c state scale " + std::to_string(cell_scale) + " is out of range");
  parameters.push_back(left_shift >= 0 ? 3 << left_shift : 3);
  parameters.push_back(left_shift >= 0 ? 0 : -left_shift);
  const double clip = o.cell_clip() > 0.0f ? static_cast<double>(o.cell_clip()) / static_cast<double>(cell_scale) : 0.0;
  const auto quantized_clip = static_cast<int16_t>(std::min(std::max(clip, -32768.0), 32767.0));  // truncated, as TFLM's
  if (o.cell_clip() > 0.0f && quantized_clip <= 0) return ctx.fail("cell clip " + std::to_string(o.cell_clip()) + " is below one step of the c state");
  parameters.push_back(quantized_clip);
  args.push_back(ArgDef::int_array(ctx.int_array(ctx.op_name() + " parameters", parameters)));
  ctx.add_node(wide ? "lstm_s16" : "lstm_s8", std::move(args));
  return ctx.error().empty();
}

bool convert_sequence_lstm(ImportContext& ctx) {
  if (ctx.input_count() != kLstmInputs || ctx.output_count() != 1) return ctx.fail("expects 24 inputs and 1 output");
  const auto* o = ctx.options<tflite::UnidirectionalSequenceLSTMOptions>();
  if (o == nullptr) return ctx.fail("has no UnidirectionalSequenceLSTMOptions");
  for (const int absent : {9, 10, 11, 16, 17, 20, 21, 22, 23}) {
    if (ctx.has_input(absent)) return ctx.fail("peephole, projection and layer normalisation are not supported");
  }
  for (int i = 0; i <= 19; ++i) {
    if ((i < 9 || i > 17 || (i >= 12 && i <= 15)) && !ctx.has_input(i)) return ctx.fail("input " + std::to_string(i) + " is missing (CIFG is not supported)");
  }
  for (const int state : {kLstmHState, kLstmCState}) {
    if (!ctx.tensor(ctx.input_index(state))->is_variable()) return ctx.fail("input " + std::to_string(state) + " is not a variable tensor");
  }
  if (o->proj_clip() != 0.0f) return ctx.fail("projection clip is not supported");
  const std::vector<int64_t> weights = ctx.shape(ctx.input_index(1));
  if (weights.size() != 2) return ctx.fail("input weights must be [cells, input]");
  const DType activation_type = ctx.dtype(ctx.input_index(0));
  if (activation_type == DType::Int8 || activation_type == DType::Int16) return convert_integer_lstm(ctx, *o);
  if (activation_type != DType::Float32) {
    return ctx.fail(std::string("supports float32, int8 and int16 inputs, not ") + dtype_name(activation_type));
  }
  for (int i = 0; i < kLstmInputs; ++i) {
    if (ctx.has_input(i) && ctx.dtype(ctx.input_index(i)) != DType::Float32) return ctx.fail("float32 LSTM needs float32 weights and state");
  }
  if (o->fused_activation_function() != tflite::ActivationFunctionType::TANH) return ctx.fail("supports the TANH activation only");
  std::vector<ArgDef> args = lstm_operands(ctx);
  args.push_back(ArgDef::integer(o->time_major() ? 1 : 0));
  args.push_back(ArgDef::real(static_cast<double>(o->cell_clip() > 0.0f ? o->cell_clip() : 0.0f)));
  ctx.add_node("lstm_f32", std::move(args));
  return ctx.error().empty();
}

}  // namespace

void register_state_ops(ConverterTable& table) {
  table.add(tflite::BuiltinOperator::SVDF, convert_svdf, {"int8 (int16 or int8 state)", "float32"});
  table.add(tflite::BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM, convert_sequence_lstm, {"int8 (int16 cell state)", "int16 (int8 weights, int64 bias)", "float32"});
}

}  // namespace grt::tools
