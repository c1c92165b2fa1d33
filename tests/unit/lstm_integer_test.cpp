// lstm_s8 (integer UNIDIRECTIONAL_SEQUENCE_LSTM) from TFLM's semantics, on one cell: the gates
// are driven by their biases (the products' multipliers are 1), so i = f = o = sigmoid(0) =
// 1/2 exactly and g = tanh(1). With the cell state at 2^-12 and h at 2^-7 the steps are
//   c1 = i * g = 1560 (0.381), c2 = f * c1 + i * g = 780 + 1560, c3 = 1170 + 1560,
// and h = o * tanh(c) in 1/128 steps: 64 * tanh(c / 4096) rounds to 23, 33, 37. lstm_s16
// takes the same steps with h at 2^-15.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../../tools/importer/ops/sigmoid_table.h"
#include "graphrt/tools/planner.h"
#include "graphrt/tools/quantize_params.h"
#include "test_models.h"

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

void push_multiplier(std::vector<ArgDef>* args, double real) {
  const tools::FixedPointMultiplier m = tools::quantize_multiplier(real);
  args->push_back(ArgDef::integer(m.multiplier));
  args->push_back(ArgDef::integer(m.shift));
}

ModelDef integer_lstm(const Setup& s) {
  ModelDef m;
  const DType act = s.wide ? DType::Int16 : DType::Int8;
  const uint32_t x = m.add_activation("x", act, {1, s.time, 1});
  std::vector<ArgDef> args = {ArgDef::input(x)};
  for (int i = 0; i < 4; ++i) args.push_back(ArgDef::input(m.add_constant_values<int8_t>("w" + std::to_string(i), DType::Int8, {1, 1}, {s.input_weight})));
  for (int i = 0; i < 4; ++i) args.push_back(ArgDef::input(m.add_constant_values<int8_t>("r" + std::to_string(i), DType::Int8, {1, 1}, {0})));
  // Q3.12 pre-activations: g's bias 4096 is 1.0.
  for (const int32_t bias : {0, 0, 4096, 0}) {
    args.push_back(ArgDef::input(s.wide ? m.add_constant_values<int64_t>("b", DType::Int64, {1}, {bias})
                                        : m.add_constant_values<int32_t>("b", DType::Int32, {1}, {bias})));
  }
  const std::vector<uint8_t> h_initial(s.wide ? 2 : 1, static_cast<uint8_t>(static_cast<int8_t>(s.hidden_zero)));
  args.push_back(ArgDef::output(m.add_state("h", act, {1, 1}, h_initial)));
  args.push_back(ArgDef::output(m.add_state("c", DType::Int16, {1, 1}, {})));
  const uint32_t y = m.add_activation("y", act, {1, s.time, 1});
  args.push_back(ArgDef::output(y));
  const tools::activation::SigmoidTable table = tools::activation::sigmoid_q16_table();
  args.push_back(ArgDef::input(m.add_constant_values<uint16_t>("table", DType::Int16, {256}, std::vector<uint16_t>(table.begin(), table.end()))));
  args.push_back(ArgDef::integer(0));                               // batch major
  for (int i = 0; i < 8; ++i) push_multiplier(&args, 1.0);          // products taken as they are
  push_multiplier(&args, 1.0 / 32768);                              // f (2^-15) * c (2^-12) -> 2^-12
  push_multiplier(&args, 1.0 / 32768 / 32768 * 4096);               // i * g -> 2^-12
  push_multiplier(&args, 1.0 / 32768 / 32768 * (s.wide ? 32768 : 128));  // o * tanh(c) -> h's scale
  args.push_back(ArgDef::integer(s.input_zero));
  args.push_back(ArgDef::integer(s.hidden_zero));
  args.push_back(ArgDef::integer(3));                               // c at 2^-12: Q3.12 times 3
  args.push_back(ArgDef::integer(0));
  args.push_back(ArgDef::integer(s.cell_clip));
  m.inputs = {x};
  m.outputs = {y};
  m.add_node(s.wide ? "lstm_s16" : "lstm_s8", std::move(args));
  tools::plan_default(&m);
  return m;
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
  grt_error error{};
  EXPECT_EQ(init_status(to_blob(m), &error), GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(std::string(error.message).find("256 entries"), std::string::npos) << error.message;
}

}  // namespace
}  // namespace grt::test
