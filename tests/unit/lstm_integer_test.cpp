// lstm_s8 (integer UNIDIRECTIONAL_SEQUENCE_LSTM) from TFLM's semantics, on one cell: the gates
// are driven by their biases (the products' multipliers are 1), so i = f = o = sigmoid(0) =
// 1/2 exactly and g = tanh(1). With the cell state at 2^-12 and h at 2^-7 the steps are
//   c1 = i * g = 1560 (0.381), c2 = f * c1 + i * g = 780 + 1560, c3 = 1170 + 1560,
// and h = o * tanh(c) in 1/128 steps: 64 * tanh(c / 4096) rounds to 23, 33, 37. lstm_s16
// takes the same steps with h at 2^-15. Then the check of the parameters array (argument 8)
// and the importer's stacking of TFLite's per-gate tensors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../../tools/importer/ops/sigmoid_table.h"
#include "byte_values.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"
#include "graphrt/tools/quantize_params.h"
#include "test_models.h"
#include "tflite_op_model.h"

namespace grt::test {
namespace {

using tools::AlignedBytes;
using tools::ArgDef;
using tools::DType;
using tools::ModelDef;

struct Setup {
  int time = 1;
  int32_t input_zero = 0;
  int8_t input_weight = 0;  // every gate's one input weight
  int32_t hidden_zero = 0;
  int16_t cell_clip = 0;
  bool wide = false;  // lstm_s16: int16 x, h and y at 2^-15, int64 biases
};

void push_multiplier(std::vector<int32_t>* parameters, double real) {
  const tools::FixedPointMultiplier m = tools::quantize_multiplier(real);
  parameters->push_back(m.multiplier);
  parameters->push_back(m.shift);
}

// The kernels' parameters array (argument 8), field by field.
std::vector<int32_t> parameters_for(const Setup& s) {
  std::vector<int32_t> p = {0};                                  // 0: batch major
  for (int i = 0; i < 8; ++i) push_multiplier(&p, 1.0);          // 1..16: products taken as they are
  push_multiplier(&p, 1.0 / 32768);                              // 17, 18: f (2^-15) * c (2^-12) -> 2^-12
  push_multiplier(&p, 1.0 / 32768 / 32768 * 4096);               // 19, 20: i * g -> 2^-12
  push_multiplier(&p, 1.0 / 32768 / 32768 * (s.wide ? 32768 : 128));  // 21, 22: o * tanh(c) -> h's scale
  p.push_back(s.input_zero);                                     // 23
  p.push_back(s.hidden_zero);                                    // 24
  p.push_back(3);                                                // 25, 26: c at 2^-12: Q3.12 times 3
  p.push_back(0);
  p.push_back(s.cell_clip);                                      // 27
  return p;
}

ModelDef integer_lstm(const Setup& s, const std::vector<int32_t>& parameters) {
  ModelDef m;
  const DType act = s.wide ? DType::Int16 : DType::Int8;
  const uint32_t x = m.add_activation("x", act, {1, s.time, 1});
  const uint32_t w = m.add_constant_values<int8_t>("w", DType::Int8, {4, 1, 1}, std::vector<int8_t>(4, s.input_weight));
  const uint32_t r = m.add_constant_values<int8_t>("r", DType::Int8, {4, 1, 1}, {0, 0, 0, 0});
  // Q3.12 pre-activations: g's bias 4096 is 1.0.
  const std::vector<int32_t> biases = {0, 0, 4096, 0};
  const uint32_t b = s.wide ? m.add_constant_values<int64_t>("b", DType::Int64, {4, 1}, std::vector<int64_t>(biases.begin(), biases.end()))
                            : m.add_constant_values<int32_t>("b", DType::Int32, {4, 1}, biases);
  const std::vector<uint8_t> h_initial(s.wide ? 2 : 1, static_cast<uint8_t>(static_cast<int8_t>(s.hidden_zero)));
  const uint32_t h = m.add_state("h", act, {1, 1}, h_initial);
  const uint32_t c = m.add_state("c", DType::Int16, {1, 1}, {});
  const uint32_t y = m.add_activation("y", act, {1, s.time, 1});
  const tools::activation::SigmoidTable table = tools::activation::sigmoid_q16_table();
  const uint32_t t = m.add_constant_values<uint16_t>("table", DType::Int16, {256}, std::vector<uint16_t>(table.begin(), table.end()));
  m.inputs = {x};
  m.outputs = {y};
  m.add_node(s.wide ? "lstm_s16" : "lstm_s8", {ArgDef::input(x), ArgDef::input(w), ArgDef::input(r), ArgDef::input(b), ArgDef::output(h),
                                               ArgDef::output(c), ArgDef::output(y), ArgDef::input(t),
                                               ArgDef::int_array(m.add_int_array("parameters", parameters))});
  tools::plan_default(&m);
  return m;
}

ModelDef integer_lstm(const Setup& s) { return integer_lstm(s, parameters_for(s)); }

// What init says refusing a model's kernel arguments (empty when init succeeds or fails otherwise).
std::string refusal(const ModelDef& m) {
  grt_error error{};
  return init_status(to_blob(m), &error) == GRT_ERR_KERNEL_ARGS ? error.message : "";
}

std::vector<int8_t> run_once(grt_executor* executor, const std::vector<int8_t>& in) {
  std::memcpy(grt_input(executor, 0)->data, in.data(), in.size());
  EXPECT_EQ(grt_run(executor), GRT_OK) << grt_last_error(executor)->message;
  const auto* out = static_cast<const int8_t*>(grt_output(executor, 0)->data);
  return std::vector<int8_t>(out, out + in.size());
}

TEST(LstmS8, CellStateCarriesAcrossRunsAndResets) {
  const AlignedBytes blob = to_blob(integer_lstm({}));
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  EXPECT_EQ(run_once(run.executor, {0}), std::vector<int8_t>{23});
  EXPECT_EQ(run_once(run.executor, {0}), std::vector<int8_t>{33});
  EXPECT_EQ(run_once(run.executor, {0}), std::vector<int8_t>{37});
  ASSERT_EQ(grt_reset_state(run.executor), GRT_OK);
  EXPECT_EQ(run_once(run.executor, {0}), std::vector<int8_t>{23});
}

TEST(LstmS8, StepsOfOneRunFollowEachOther) {
  const AlignedBytes blob = to_blob(integer_lstm({.time = 3}));
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  EXPECT_EQ(run_once(run.executor, {0, 0, 0}), (std::vector<int8_t>{23, 33, 37}));
}

TEST(LstmS8, ClipsTheCellState) {
  // c2 = 2340 clipped to 2000 (0.488): 64 * tanh(0.488) = 28.98 -> 29; c3 = 1000 + 1560 -> 2000.
  const AlignedBytes blob = to_blob(integer_lstm({.time = 3, .cell_clip = 2000}));
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  EXPECT_EQ(run_once(run.executor, {0, 0, 0}), (std::vector<int8_t>{23, 29, 29}));
}

TEST(LstmS8, SubtractsTheInputZeroPointAndAddsTheHiddenOne) {
  // x at its zero point contributes nothing whatever the weights; h is offset by its zero
  // point, which the recurrent product subtracts again (its weights are 0 here anyway).
  const AlignedBytes blob = to_blob(integer_lstm({.time = 3, .input_zero = 5, .input_weight = 127, .hidden_zero = -3}));
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  EXPECT_EQ(run_once(run.executor, {5, 5, 5}), (std::vector<int8_t>{20, 30, 34}));
}

TEST(LstmS16, RunsTheSameStepsWithInt16ActivationsAndInt64Biases) {
  // h at 2^-15: 16384 * tanh(c / 4096), to within the table's interpolation (one step).
  const AlignedBytes blob = to_blob(integer_lstm({.time = 3, .wide = true}));
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  const std::vector<int16_t> in(3, 0);
  std::memcpy(grt_input(run.executor, 0)->data, in.data(), in.size() * sizeof(int16_t));
  ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
  const auto* out = static_cast<const int16_t*>(grt_output(run.executor, 0)->data);
  int step = 0;
  for (const int cell : {1560, 2340, 2730}) EXPECT_NEAR(out[step++], 16384.0 * std::tanh(cell / 4096.0), 1.0) << cell;
}

TEST(LstmS8, CheckRefusesATableOfTheWrongSize) {
  ModelDef m = integer_lstm({});
  for (auto& t : m.tensors) {
    if (t.name == "table") t.shape = {128};
  }
  for (auto& b : m.buffers) {
    if (b.size() == 512) b.resize(256);
  }
  tools::plan_default(&m);
  EXPECT_NE(refusal(m).find("256 entries"), std::string::npos) << refusal(m);
}

TEST(LstmS8, CheckRefusesAParametersArrayOfTheWrongLength) {
  std::vector<int32_t> parameters = parameters_for({});
  ASSERT_EQ(parameters.size(), 28u);
  parameters.pop_back();
  EXPECT_NE(refusal(integer_lstm({}, parameters)).find("parameters must hold 28 int32 values"), std::string::npos)
      << refusal(integer_lstm({}, parameters));
  parameters.resize(29);
  EXPECT_NE(refusal(integer_lstm({}, parameters)).find("parameters must hold 28"), std::string::npos);
}

// Each field in the range the arithmetic takes, as the kernels' argument checks had it when
// these were arguments of their own.
TEST(LstmS8, CheckRefusesAParameterOutOfRange) {
  const struct {
    bool wide;
    int field;
    int32_t value;
    const char* message;
  } cases[] = {
      {false, 0, 2, "time_major must be 0 or 1"},
      {false, 1, -1, "gate product's multiplier is negative"},
      {false, 2, 31, "gate product shifts must lie in [-31, 30]"},        // gate i's input product
      {false, 16, -32, "gate product shifts must lie in [-31, 30]"},      // gate o's recurrent product
      {true, 10, 8, "gate product shifts must lie in [-31, 7]"},          // int64 accumulators
      {false, 21, -1, "cell product's multiplier is negative"},
      {false, 18, 31, "cell product shifts must lie in [-31, 30]"},
      {true, 22, 31, "cell product shifts must lie in [-31, 30]"},
      {false, 23, 128, "zero points must lie in the activation type's range"},
      {false, 24, -129, "zero points must lie in the activation type's range"},
      {true, 24, 32768, "zero points must lie in the activation type's range"},
      {false, 25, 32768, "tanh(c) multiplier must lie in [0, 32767]"},
      {false, 26, 17, "tanh(c) shift must lie in [0, 16]"},
      {false, 27, -1, "cell clip must lie in [0, 32767]"},
  };
  for (const auto& c : cases) {
    std::vector<int32_t> parameters = parameters_for({.wide = c.wide});
    parameters.at(static_cast<size_t>(c.field)) = c.value;
    const std::string message = refusal(integer_lstm({.wide = c.wide}, parameters));
    EXPECT_NE(message.find(c.message), std::string::npos) << "field " << c.field << " = " << c.value << ": " << message;
  }
  // What the ranges admit passes: a zero point of 127 or of -32768 for int16.
  std::vector<int32_t> edge = parameters_for({});
  edge[23] = 127;
  EXPECT_EQ(refusal(integer_lstm({}, edge)), "");
  edge = parameters_for({.wide = true});
  edge[24] = -32768;
  EXPECT_EQ(refusal(integer_lstm({.wide = true}, edge)), "");
}

// A TFLite int8 LSTM (2 cells over 3 inputs) whose every gate tensor holds its own values:
// the importer stacks them in gate order i, f, g, o, puts the scalars in the parameters
// array, and leaves the per-gate constants out of the blob.
TfliteModelSpec tflite_lstm() {
  using tflite::TensorType;
  TfliteModelSpec m;
  const int32_t x = m.add_tensor({.name = "x", .shape = {1, 2, 3}, .scale = {1.0f / 128}, .zero_point = {5}});
  std::vector<int32_t> inputs = {x};
  for (int gate = 0; gate < 4; ++gate) {  // input weights [2, 3]: 10 g + k
    std::vector<int8_t> values(6);
    for (int k = 0; k < 6; ++k) values[static_cast<size_t>(k)] = static_cast<int8_t>(10 * gate + k);
    inputs.push_back(m.add_tensor({.name = "w" + std::to_string(gate), .shape = {2, 3}, .data = bytes_of(values), .scale = {1.0f / 32}}));
  }
  for (int gate = 0; gate < 4; ++gate) {  // recurrent weights [2, 2]: 50 + 10 g + k
    std::vector<int8_t> values(4);
    for (int k = 0; k < 4; ++k) values[static_cast<size_t>(k)] = static_cast<int8_t>(50 + 10 * gate + k);
    inputs.push_back(m.add_tensor({.name = "r" + std::to_string(gate), .shape = {2, 2}, .data = bytes_of(values), .scale = {1.0f / 32}}));
  }
  inputs.insert(inputs.end(), {-1, -1, -1});  // no peephole
  for (int gate = 0; gate < 4; ++gate) {  // biases [2]: 1000 g + k
    const std::vector<int32_t> values = {1000 * gate, 1000 * gate + 1};
    inputs.push_back(m.add_tensor({.name = "b" + std::to_string(gate), .type = TensorType::INT32, .shape = {2}, .data = bytes_of(values),
                                   .scale = {1.0f / 4096}}));
  }
  inputs.insert(inputs.end(), {-1, -1});  // no projection
  inputs.push_back(m.add_tensor({.name = "h", .shape = {1, 2}, .scale = {1.0f / 128}, .zero_point = {-3}, .is_variable = true}));
  inputs.push_back(m.add_tensor({.name = "c", .type = TensorType::INT16, .shape = {1, 2}, .scale = {1.0f / 4096}, .is_variable = true}));
  inputs.insert(inputs.end(), {-1, -1, -1, -1});  // no layer normalisation
  const int32_t y = m.add_tensor({.name = "y", .shape = {1, 2, 2}, .scale = {1.0f / 128}, .zero_point = {-3}});
  m.inputs = {x};
  m.outputs = {y};
  m.add_op(tflite::BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM, inputs, {y},
           builtin_options(tflite::BuiltinOptions::UnidirectionalSequenceLSTMOptions, [](flatbuffers::FlatBufferBuilder& fbb) {
             return tflite::CreateUnidirectionalSequenceLSTMOptions(fbb, tflite::ActivationFunctionType::TANH).Union();
           }));
  return m;
}

tools::ImportResult import(const TfliteModelSpec& spec, ModelDef* def) {
  const std::vector<uint8_t> bytes = build_tflite(spec);
  return tools::import_tflite(bytes.data(), bytes.size(), def);
}

TEST(LstmImport, StacksTheGatesAndPacksTheScalars) {
  ModelDef def;
  const tools::ImportResult result = import(tflite_lstm(), &def);
  ASSERT_TRUE(result.ok) << result.error;
  ASSERT_EQ(def.nodes.size(), 1u);
  EXPECT_EQ(def.kernels.at(def.nodes[0].kernel), "lstm_s8");
  EXPECT_EQ(def.nodes[0].workspace_bytes, 0u);  // each cell's gates are used at once
  const std::vector<ArgDef>& args = def.nodes[0].args;
  ASSERT_EQ(args.size(), 9u);
  const auto tensor = [&](int a) -> const tools::TensorDef& { return def.tensors.at(static_cast<size_t>(args.at(static_cast<size_t>(a)).value)); };
  const auto bytes = [&](int a) { return def.buffers.at(tensor(a).buffer); };
  std::vector<int8_t> w, r;
  std::vector<int32_t> b;
  for (int gate = 0; gate < 4; ++gate) {
    for (int k = 0; k < 6; ++k) w.push_back(static_cast<int8_t>(10 * gate + k));
    for (int k = 0; k < 4; ++k) r.push_back(static_cast<int8_t>(50 + 10 * gate + k));
    b.insert(b.end(), {1000 * gate, 1000 * gate + 1});
  }
  EXPECT_EQ(tensor(1).shape, (std::vector<int64_t>{4, 2, 3}));
  EXPECT_EQ(bytes(1), bytes_of(w));
  EXPECT_EQ(tensor(2).shape, (std::vector<int64_t>{4, 2, 2}));
  EXPECT_EQ(bytes(2), bytes_of(r));
  EXPECT_EQ(tensor(3).shape, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(bytes(3), bytes_of(b));
  EXPECT_EQ(tensor(4).name, "h");
  EXPECT_EQ(tensor(5).name, "c");
  EXPECT_EQ(tensor(6).name, "y");
  EXPECT_EQ(tensor(7).shape, (std::vector<int64_t>{256}));
  EXPECT_EQ(args[8].kind, tools::ArgKind::IntArray);
  const std::vector<uint8_t> raw = bytes(8);
  std::vector<int32_t> p(raw.size() / sizeof(int32_t));
  std::memcpy(p.data(), raw.data(), raw.size());
  ASSERT_EQ(p.size(), 28u);
  const tools::FixedPointMultiplier one = tools::quantize_multiplier(1.0);  // 2^-7 * 2^-5 onto 2^-12
  EXPECT_EQ(p[0], 0);                                                      // batch major
  EXPECT_EQ((std::vector<int32_t>{p[1], p[2], p[15], p[16]}), (std::vector<int32_t>{one.multiplier, one.shift, one.multiplier, one.shift}));
  EXPECT_EQ(p[23], 5);   // x's zero point
  EXPECT_EQ(p[24], -3);  // h's
  EXPECT_EQ((std::vector<int32_t>{p[25], p[26], p[27]}), (std::vector<int32_t>{3, 0, 0}));  // c at 2^-12; no clip
  // W, R, B, the table and the parameters: no per-gate constant left.
  int constants = 0;
  for (const tools::TensorDef& t : def.tensors) constants += t.kind == tools::TensorKind::Constant ? 1 : 0;
  EXPECT_EQ(constants, 5);
}

TEST(LstmImport, RefusesGateTensorsItCannotStack) {
  TfliteModelSpec computed = tflite_lstm();
  computed.tensors[2].data.clear();  // gate f's input weights: a model input
  computed.inputs.push_back(2);
  ModelDef def;
  EXPECT_NE(import(computed, &def).error.find("input weights must be constant (input 2)"), std::string::npos);
  TfliteModelSpec uneven = tflite_lstm();
  uneven.tensors[7].shape = {1, 4};  // gate g's recurrent weights
  EXPECT_NE(import(uneven, &def).error.find("the four gates' recurrent weights must share one shape and dtype (input 7)"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
