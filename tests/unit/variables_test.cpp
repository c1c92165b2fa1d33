// Resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) imported from TFLite
// models and run: a variable is State, so it accumulates across grt_run and goes back to
// TFLM's start (the first assigned value's zero point, as bytes) on grt_reset_state; and
// CALL_ONCE, whose initialiser's constants are folded into that start (one that computes
// runs as a node: control_flow_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/importer.h"
#include "one_node.h"
#include "tflite_op_model.h"
#include "variable_models.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tflite::BuiltinOptions;
using tflite::TensorType;

// x int8 [3] (zero point -3) -> y: the variable as the previous run left it, then v := x.
// Read before assigned in operator order, as TFLM allows (it sizes variables before running).
TfliteModelSpec delay_line(const std::string& read_name = "delay", const std::string& assign_name = "delay") {
  TfliteModelSpec m;
  const int32_t x = m.add_tensor({.name = "x", .type = TensorType::INT8, .shape = {3}, .scale = {0.5f}, .zero_point = {-3}});
  const int32_t read_handle = resource(&m, "read_handle");
  const int32_t assign_handle = resource(&m, "assign_handle");
  const int32_t y = m.add_tensor({.name = "y", .type = TensorType::INT8, .shape = {3}, .scale = {0.5f}, .zero_point = {-3}});
  m.inputs = {x};
  m.outputs = {y};
  m.add_op(BuiltinOperator::VAR_HANDLE, {}, {read_handle}, var_handle_options(read_name, "box"));
  m.add_op(BuiltinOperator::READ_VARIABLE, {read_handle}, {y});
  m.add_op(BuiltinOperator::VAR_HANDLE, {}, {assign_handle}, var_handle_options(assign_name));
  m.add_op(BuiltinOperator::ASSIGN_VARIABLE, {assign_handle, x}, {});
  return m;
}

tools::ModelDef imported(const TfliteModelSpec& spec) {
  const std::vector<uint8_t> bytes = build_tflite(spec);
  tools::ModelDef def;
  const tools::ImportResult result = tools::import_tflite(bytes.data(), bytes.size(), &def);
  EXPECT_TRUE(result.ok) << result.error;
  return def;
}

std::string import_error(const TfliteModelSpec& spec) {
  const std::vector<uint8_t> bytes = build_tflite(spec);
  tools::ModelDef def;
  const tools::ImportResult result = tools::import_tflite(bytes.data(), bytes.size(), &def);
  EXPECT_FALSE(result.ok);
  return result.error;
}

template <typename T>
std::vector<T> run(Loaded& loaded, const std::vector<T>& x) {
  loaded.set_input(0, x);
  EXPECT_EQ(loaded.run(), GRT_OK) << loaded.run_message();
  return loaded.output<T>(0);
}

TEST(ResourceVariables, AccumulateAcrossRunsAndResetToZero) {
  const tools::ModelDef def = imported(accumulator());
  size_t states = 0;
  for (const tools::TensorDef& t : def.tensors) states += t.kind == tools::TensorKind::State ? 1 : 0;
  EXPECT_EQ(states, 1u);  // the variable; the RESOURCE handle is no tensor
  Loaded loaded(def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  using F = std::vector<float>;
  EXPECT_EQ(run(loaded, F{1, 2, 3, 4}), (F{1, 2, 3, 4}));
  EXPECT_EQ(run(loaded, F{1, 2, 3, 4}), (F{2, 4, 6, 8}));
  EXPECT_EQ(run(loaded, F{0.5f, 0, 0, -8}), (F{2.5f, 4, 6, 0}));
  ASSERT_EQ(grt_reset_state(loaded.executor()), GRT_OK);
  EXPECT_EQ(run(loaded, F{1, 2, 3, 4}), (F{1, 2, 3, 4}));
}

TEST(ResourceVariables, StartAtTheAssignedValuesZeroPointAndHandlesShareByName) {
  // The read handle names a container, the assigning one none: TFLM finds one variable.
  Loaded loaded(imported(delay_line()));
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  using I = std::vector<int8_t>;
  EXPECT_EQ(run(loaded, I{1, 2, 3}), (I{-3, -3, -3}));
  EXPECT_EQ(run(loaded, I{4, 5, 6}), (I{1, 2, 3}));
  EXPECT_EQ(run(loaded, I{7, 8, 9}), (I{4, 5, 6}));
  ASSERT_EQ(grt_reset_state(loaded.executor()), GRT_OK);
  EXPECT_EQ(run(loaded, I{0, 0, 0}), (I{-3, -3, -3}));
}

TEST(ResourceVariables, RefuseWhatTflmCannotRun) {
  // Read, never assigned: TFLM has no size for it.
  EXPECT_NE(import_error(delay_line("delay", "other")).find("no ASSIGN_VARIABLE of this subgraph gives a size"), std::string::npos);

  TfliteModelSpec no_name = accumulator();
  no_name.ops[0].options = var_handle_options(std::nullopt);
  EXPECT_NE(import_error(no_name).find("VAR_HANDLE #0: has no VarHandleOptions with a shared_name"), std::string::npos);

  // A value of another size than the variable's.
  TfliteModelSpec wider = accumulator();
  const int32_t wide = wider.add_tensor({.name = "wide", .type = TensorType::FLOAT32, .shape = {5}, .data = std::vector<uint8_t>(20, 0)});
  wider.add_op(BuiltinOperator::ASSIGN_VARIABLE, {1, wide}, {});
  EXPECT_NE(import_error(wider).find("ASSIGN_VARIABLE #4: value 'wide' (20 bytes) does not match variable 'sum' (16 bytes)"),
            std::string::npos);

  TfliteModelSpec narrow_read = accumulator();
  narrow_read.tensors[2].shape = {2};
  EXPECT_NE(import_error(narrow_read).find("READ_VARIABLE #1: output 'v' (8 bytes) does not match variable 'sum' (16 bytes)"),
            std::string::npos);

  // A resource no VAR_HANDLE writes.
  TfliteModelSpec orphan = accumulator();
  const int32_t stray = resource(&orphan, "stray");
  orphan.ops[1].inputs = {stray};
  EXPECT_NE(import_error(orphan).find("READ_VARIABLE #1: input 0 (tensor 4) is not the output of a VAR_HANDLE of this subgraph"),
            std::string::npos);
}

// Initial values the importer would write itself (one zero-point byte per element) stay
// within kMaxWrittenBytes beyond the file's size: a few bytes of file declaring a huge
// variable get a clear refusal, before anything is allocated, not gigabytes of memory (the
// importer's fuzzer found an LSTM state of 1.8 GB).
TEST(ResourceVariables, RefuseInitialValuesPastTheImportersLimit) {
  constexpr int32_t kHuge = int32_t{1} << 27;  // 128 MiB of int8
  static_assert(uint64_t{kHuge} > tools::kMaxWrittenBytes + 4096);  // the file is far smaller
  TfliteModelSpec huge = delay_line();
  for (TfliteTensorSpec& t : huge.tensors) {
    if (t.type == TensorType::INT8) t.shape = {kHuge};
  }
  EXPECT_NE(import_error(huge).find("the initial values of variable 'delay' (zero point -3) would take 134217728 bytes of the "
                                    "blob, past what graphrt writes itself for this model ("),
            std::string::npos)
      << import_error(huge);

  // TFLite's own variable tensors (SVDF and LSTM state) start at their zero point too.
  const auto state_model = [](int32_t elements) {
    TfliteModelSpec m;
    const int32_t x = m.add_tensor({.name = "x", .shape = {elements}, .scale = {0.5f}, .zero_point = {-3}});
    const int32_t state = m.add_tensor({.name = "state", .shape = {elements}, .scale = {0.5f}, .zero_point = {-3}, .is_variable = true});
    const int32_t y = m.add_tensor({.name = "y", .shape = {elements}, .scale = {0.5f}, .zero_point = {-3}});
    m.add_op(BuiltinOperator::ADD, {x, state}, {y});
    m.inputs = {x};
    m.outputs = {y};
    return m;
  };
  EXPECT_NE(import_error(state_model(kHuge)).find("the initial values of variable tensor 'state' (zero point -3) would take 134217728 bytes"),
            std::string::npos)
      << import_error(state_model(kHuge));
  // The same model at a real size imports, its state starting at the zero point.
  const tools::ModelDef small = imported(state_model(4));
  bool found = false;
  for (const tools::TensorDef& t : small.tensors) {
    if (t.name != "state") continue;
    found = true;
    EXPECT_EQ(t.kind, tools::TensorKind::State);
    EXPECT_EQ(small.buffers[t.buffer], std::vector<uint8_t>(4, static_cast<uint8_t>(-3)));
  }
  EXPECT_TRUE(found);
}

// The started accumulator's sequence: the initialiser's start (10 20 30 40) under the first
// run's inputs, the sum across runs, and after grt_reset_state the start again (graphrt's
// reset goes back to the initialiser's values; TFLM's to zeros: see call_once_ops.cpp).
void expect_starts_accumulates_and_resets(Loaded& loaded) {
  using F = std::vector<float>;
  EXPECT_EQ(run(loaded, F{1, 1, 1, 1}), (F{11, 21, 31, 41}));
  EXPECT_EQ(run(loaded, F{1, 1, 1, 1}), (F{12, 22, 32, 42}));
  ASSERT_EQ(grt_reset_state(loaded.executor()), GRT_OK);
  EXPECT_EQ(run(loaded, F{1, 1, 1, 1}), (F{11, 21, 31, 41}));
}

TEST(CallOnce, InitialiserConstantsAreTheVariablesStart) {
  const tools::ModelDef def = imported(started_accumulator());
  EXPECT_TRUE(def.subgraphs.empty());  // folded: no call_once node
  Loaded loaded(def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  expect_starts_accumulates_and_resets(loaded);
}

// An ADD in the initialiser (its result unused) makes it one that computes: it runs as the
// call_once node, and the constant it assigns reaches the variable on the first run instead
// of at init. Same results, reset included (the initialiser runs again after it).
TEST(CallOnce, InitialiserThatComputesRunsAsANode) {
  const tools::ModelDef def = imported(computing_started_accumulator());
  ASSERT_EQ(def.subgraphs.size(), 1u);
  EXPECT_EQ(def.kernels.at(def.nodes.at(0).kernel), "call_once");
  Loaded loaded(def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  expect_starts_accumulates_and_resets(loaded);
}

TEST(CallOnce, RefusesInitialisersItCannotFold) {
  TfliteModelSpec far = started_accumulator();
  far.ops[0].options = builtin_options(BuiltinOptions::CallOnceOptions,
                                       [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateCallOnceOptions(fbb, 5).Union(); });
  EXPECT_NE(import_error(far).find("CALL_ONCE #0: init_subgraph_index 5 is not another subgraph (the model has 2)"), std::string::npos);

  TfliteModelSpec late = started_accumulator();
  std::swap(late.ops[0], late.ops[1]);
  EXPECT_NE(import_error(late).find("CALL_ONCE #1: must be the first operator"), std::string::npos);

  EXPECT_NE(import_error(started_accumulator({1, 2})).find("CALL_ONCE's initialiser assigns variable 'sum' 8 bytes; it has 16"),
            std::string::npos);
}

}  // namespace
}  // namespace grt::test
