// State tensors (TensorKind State): set at init, kept across grt_run, reset by
// grt_reset_state, under every strategy; counted in the exact budgets; planned in a slot of
// their own; refused in a shared pool. And the SVDF kernels that keep their memory there.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

#include "graphrt/dynamic_memory.h"
#include "graphrt/heap_allocator.h"
#include "graphrt/shared_pool.h"
#include "graphrt/tools/planner.h"
#include "byte_values.h"
#include "test_models.h"

namespace grt::test {
namespace {

using tools::AlignedBytes;
using tools::ArgDef;
using tools::DType;
using tools::ModelDef;
using tools::TensorKind;

// x float32 [1, 2] -> SVDF (2 filters, memory 3, rank 1) -> y [1, 2]. weights_feature is the
// identity and every filter's time weights are (1, 10, 100), so y = bias + the filter's
// memory read as a 3-digit number, newest step in the units.
ModelDef float_svdf(std::vector<float> initial_state = {}) {
  ModelDef m;
  m.name = "svdf_f32";
  const uint32_t x = m.add_activation("x", DType::Float32, {1, 2});
  const uint32_t feature = m.add_constant_values<float>("feature", DType::Float32, {2, 2}, {1, 0, 0, 1});
  const uint32_t time = m.add_constant_values<float>("time", DType::Float32, {2, 3}, {1, 10, 100, 1, 10, 100});
  const uint32_t bias = m.add_constant_values<float>("bias", DType::Float32, {2}, {0.5f, 0.25f});
  const uint32_t state = m.add_state("state", DType::Float32, {1, 6}, bytes_of(initial_state));
  const uint32_t y = m.add_activation("y", DType::Float32, {1, 2});
  m.inputs = {x};
  m.outputs = {y};
  m.add_node("svdf_f32", {ArgDef::input(x), ArgDef::input(feature), ArgDef::input(time), ArgDef::input(bias), ArgDef::output(state),
                          ArgDef::output(y), ArgDef::integer(1), ArgDef::real(-FLT_MAX), ArgDef::real(FLT_MAX)});
  tools::plan_default(&m);
  return m;
}

std::vector<float> run_once(grt_executor* x, const std::vector<float>& in) {
  std::memcpy(grt_input(x, 0)->data, in.data(), in.size() * sizeof(float));
  EXPECT_EQ(grt_run(x), GRT_OK) << grt_last_error(x)->message;
  const float* out = static_cast<const float*>(grt_output(x, 0)->data);
  return {out[0], out[1]};
}

using Outputs = std::vector<float>;
// Inputs (1, 2) three times from zero state: the memories fill 001, 011, 111 and 002, 022, 222.
const Outputs kFirst = {100.5f, 200.25f}, kSecond = {110.5f, 220.25f}, kThird = {111.5f, 222.25f};

void expect_state_kept_and_reset(grt_executor* x) {
  EXPECT_EQ(run_once(x, {1, 2}), kFirst);
  EXPECT_EQ(run_once(x, {1, 2}), kSecond);
  EXPECT_EQ(run_once(x, {1, 2}), kThird);
  ASSERT_EQ(grt_reset_state(x), GRT_OK);
  EXPECT_EQ(run_once(x, {1, 2}), kFirst);
}

TEST(State, KeptAcrossRunsAndResetUnderTheStaticPool) {
  const AlignedBytes blob = to_blob(float_svdf());  // outlives the executor
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  expect_state_kept_and_reset(run.executor);
}

TEST(State, StartsFromItsInitialBytes) {
  // Shifted left: 2 3 4 | 5 6 6, then the newest steps 1 and 2: 2 3 1 | 5 6 2.
  const AlignedBytes blob = to_blob(float_svdf({1, 2, 3, 4, 5, 6}));  // outlives the executor
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  EXPECT_EQ(run_once(run.executor, {1, 2}), (Outputs{132.5f, 265.25f}));
  ASSERT_EQ(grt_reset_state(run.executor), GRT_OK);
  EXPECT_EQ(run_once(run.executor, {1, 2}), (Outputs{132.5f, 265.25f}));
}

struct AllocatorRun {
  AllocatorRun(const AlignedBytes& blob, grt_strategy strategy, const grt_allocator* allocator) {
    grt_requirements req{};
    status = grt_model_requirements(blob.data(), blob.size(), strategy, &req, &error);
    if (status != GRT_OK) return;
    storage = AlignedBytes(req.bookkeeping_bytes);
    grt_options options{};
    options.registry = &registry.registry;
    options.memory.strategy = strategy;
    options.memory.allocator = allocator;
    status = grt_init(&executor, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error);
  }
  Registry registry;
  AlignedBytes storage;
  grt_executor* executor = nullptr;
  grt_error error{};
  grt_status status = GRT_ERR_ARGUMENT;
};

// DYNAMIC frees intermediates inside each run; state is taken at init and held.
TEST(State, KeptAcrossRunsUnderTheDynamicAndStackStrategies) {
  const AlignedBytes blob = to_blob(float_svdf());
  for (const grt_strategy strategy : {GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK}) {
    grt_heap_allocator heap;
    grt_heap_init(&heap, 0);
    const grt_allocator allocator = grt_heap_as_allocator(&heap);
    AllocatorRun run(blob, strategy, &allocator);
    ASSERT_EQ(run.status, GRT_OK) << run.error.message;
    expect_state_kept_and_reset(run.executor);
    // A new allocator means new memory: state starts again.
    run_once(run.executor, {1, 2});
    ASSERT_EQ(grt_set_allocator(run.executor, &allocator), GRT_OK);
    EXPECT_EQ(run_once(run.executor, {1, 2}), kFirst);
    grt_release(run.executor);
    EXPECT_EQ(heap.bytes_in_use, 0u);
    EXPECT_EQ(grt_reset_state(run.executor), GRT_ERR_ARGUMENT);
  }
}

TEST(State, ResetRefusesNull) { EXPECT_EQ(grt_reset_state(nullptr), GRT_ERR_ARGUMENT); }

// The static pool's figure holds the state: init works with it and fails one byte short.
TEST(State, StaticBudgetIsExact) {
  const ModelDef m = float_svdf();
  const AlignedBytes blob = to_blob(m);
  grt_requirements req{};
  grt_error error{};
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &req, &error), GRT_OK);
  ASSERT_EQ(req.pool_count, 1u);
  // x, y (8 bytes each) and the 24-byte state, all live at once, each in 16-byte slots.
  EXPECT_EQ(req.pool_bytes[0], 16u + 16u + 32u);
  for (const size_t bytes : {req.pool_bytes[0], req.pool_bytes[0] - 1}) {
    AlignedBytes pool(bytes), storage(req.bookkeeping_bytes);
    void* pools[] = {pool.data()};
    size_t sizes[] = {bytes};
    Registry registry;
    grt_options options{};
    options.registry = &registry.registry;
    options.memory.pool_buffers = pools;
    options.memory.pool_sizes = sizes;
    options.memory.pool_count = 1;
    grt_executor* x = nullptr;
    EXPECT_EQ(grt_init(&x, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error),
              bytes == req.pool_bytes[0] ? GRT_OK : GRT_ERR_POOL_TOO_SMALL) << error.message;
  }
}

// The stack strategy takes the state at init with the activations: its figure is exact too.
TEST(State, StackBudgetIsExact) {
  const AlignedBytes blob = to_blob(float_svdf());
  grt_requirements req{};
  grt_error error{};
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STACK, &req, &error), GRT_OK);
  for (const size_t bytes : {req.allocator_bytes, req.allocator_bytes - 1}) {
    AlignedBytes arena(bytes);
    grt_stack_allocator stack;
    grt_stack_init(&stack, arena.data(), bytes);
    const grt_allocator allocator = grt_stack_as_allocator(&stack);
    AllocatorRun run(blob, GRT_STRATEGY_STACK, &allocator);
    EXPECT_EQ(run.status, bytes == req.allocator_bytes ? GRT_OK : GRT_ERR_OUT_OF_MEMORY) << run.error.message;
    if (run.status == GRT_OK) expect_state_kept_and_reset(run.executor);
  }
}

// Another executor would overwrite it between runs.
TEST(State, SharedPoolRefusesAModelWithState) {
  const AlignedBytes blob = to_blob(float_svdf());
  grt_requirements req{};
  grt_error error{};
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &req, &error), GRT_OK);
  AlignedBytes arena(4096), storage(req.bookkeeping_bytes);
  grt_shared_pool shared;
  ASSERT_EQ(grt_shared_pool_init(&shared, "shared", arena.data(), arena.size()), GRT_OK);
  Registry registry;
  grt_options options{};
  options.registry = &registry.registry;
  options.shared_pool = &shared;
  grt_executor* x = nullptr;
  EXPECT_EQ(grt_init(&x, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error), GRT_ERR_ARGUMENT);
  EXPECT_NE(std::string(error.message).find("cannot hold state"), std::string::npos) << error.message;
}

// The planner gives state bytes no other tensor ever shares, even ones live long after
// the state's last access.
TEST(State, PlannerNeverOverlapsIt) {
  ModelDef m = float_svdf();
  // Two copies after the SVDF, y -> c -> a: their slots could reuse bytes dead after node 0.
  const uint32_t c = m.add_activation("c", DType::Float32, {1, 2});
  const uint32_t a = m.add_activation("a", DType::Float32, {1, 2});
  m.add_node("copy", {ArgDef::input(m.outputs[0]), ArgDef::output(c)});
  m.add_node("copy", {ArgDef::input(c), ArgDef::output(a)});
  m.outputs = {a};
  tools::plan_default(&m);
  uint32_t state = 0;
  for (uint32_t t = 0; t < m.tensors.size(); ++t) {
    if (m.tensors[t].kind == TensorKind::State) state = t;
  }
  const auto& s = m.tensors[state];
  for (uint32_t t = 0; t < m.tensors.size(); ++t) {
    const auto& o = m.tensors[t];
    if (t == state || o.kind != TensorKind::Activation || o.pool != s.pool) continue;
    EXPECT_TRUE(o.offset + o.bytes() <= s.offset || s.offset + s.bytes() <= o.offset) << "tensor " << t << " shares state bytes";
  }
}

// svdf_s8 with int16 state and unit scales (multiplier 2^30, shift 1 is x 1): input zero
// point -1, so X (3, 5) counts as (4, 6); feature weights diag(1, 2) give 4 and 12; time
// weights (1, 10, 100); the output rescale is 1/4, rounded half away from zero, plus 3.
TEST(State, SvdfInt8WithInt16StateKeepsItsMemory) {
  ModelDef m;
  const uint32_t x = m.add_activation("x", DType::Int8, {1, 2});
  const uint32_t feature = m.add_constant_values<int8_t>("feature", DType::Int8, {2, 2}, {1, 0, 0, 2});
  const uint32_t time = m.add_constant_values<int16_t>("time", DType::Int16, {2, 3}, {1, 10, 100, 1, 10, 100});
  const uint32_t bias = m.add_constant_values<int32_t>("bias", DType::Int32, {2}, {7, -1000});
  const uint32_t state = m.add_state("state", DType::Int16, {1, 6}, {});
  const uint32_t y = m.add_activation("y", DType::Int8, {1, 2});
  m.inputs = {x};
  m.outputs = {y};
  m.add_node("svdf_s8", {ArgDef::input(x), ArgDef::input(feature), ArgDef::input(time), ArgDef::input(bias), ArgDef::output(state),
                         ArgDef::output(y), ArgDef::integer(1), ArgDef::integer(-1), ArgDef::integer(1 << 30), ArgDef::integer(1),
                         ArgDef::integer(1 << 30), ArgDef::integer(-1), ArgDef::integer(3), ArgDef::integer(0)});
  tools::plan_default(&m);
  const AlignedBytes blob = to_blob(m);  // outlives the executor
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  const auto once = [&] {
    const int8_t in[2] = {3, 5};
    std::memcpy(grt_input(run.executor, 0)->data, in, 2);
    EXPECT_EQ(grt_run(run.executor), GRT_OK);
    const int8_t* out = static_cast<const int8_t*>(grt_output(run.executor, 0)->data);
    return std::vector<int>{out[0], out[1]};
  };
  // (400 + 7) / 4 = 101.75 -> 102 + 3; (1200 - 1000) / 4 + 3 = 53.
  EXPECT_EQ(once(), (std::vector<int>{105, 53}));
  // (440 + 7) / 4 = 111.75 -> 112 + 3; (1320 - 1000) / 4 + 3 = 83.
  EXPECT_EQ(once(), (std::vector<int>{115, 83}));
  ASSERT_EQ(grt_reset_state(run.executor), GRT_OK);
  EXPECT_EQ(once(), (std::vector<int>{105, 53}));
}

TEST(State, SvdfCheckRefusesAStateOfTheWrongShape) {
  ModelDef m = float_svdf();
  for (auto& t : m.tensors) {
    if (t.kind == TensorKind::State) t.shape = {1, 5};
  }
  m.buffers[m.tensors[4].buffer].clear();
  tools::plan_default(&m);
  grt_error error{};
  EXPECT_EQ(init_status(to_blob(m), &error), GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(std::string(error.message).find("state must be"), std::string::npos) << error.message;
}

// lstm_f32 with one cell over one input (x = 1) and one step: only the cell gate g has an
// input weight and a bias, 1/2 each, so i = f = o = sigmoid(0) = 1/2 and g = tanh(1), and the
// cell state halves and gains g / 2 each run: c1 = g / 2, c2 = c1 / 2 + g / 2; h = tanh(c) / 2.
// `gates`: how many gates W stacks (the kernel takes 4).
ModelDef float_lstm(int64_t gates = 4) {
  ModelDef m;
  const uint32_t x = m.add_activation("x", DType::Float32, {1, 1, 1});
  std::vector<float> g_only(static_cast<size_t>(gates), 0.0f);  // i, f, g, o
  g_only.at(2) = 0.5f;
  const uint32_t w = m.add_constant_values<float>("w", DType::Float32, {gates, 1, 1}, g_only);
  const uint32_t r = m.add_constant_values<float>("r", DType::Float32, {4, 1, 1}, {0.0f, 0.0f, 0.0f, 0.0f});
  const uint32_t b = m.add_constant_values<float>("b", DType::Float32, {4, 1}, {0.0f, 0.0f, 0.5f, 0.0f});
  const uint32_t h = m.add_state("h", DType::Float32, {1, 1}, {});
  const uint32_t c = m.add_state("c", DType::Float32, {1, 1}, {});
  const uint32_t y = m.add_activation("y", DType::Float32, {1, 1, 1});
  m.inputs = {x};
  m.outputs = {y};
  m.add_node("lstm_f32", {ArgDef::input(x), ArgDef::input(w), ArgDef::input(r), ArgDef::input(b), ArgDef::output(h), ArgDef::output(c),
                          ArgDef::output(y), ArgDef::integer(0), ArgDef::real(0.0)});
  tools::plan_default(&m);
  return m;
}

TEST(State, LstmKeepsItsCellStateAcrossRuns) {
  const AlignedBytes blob = to_blob(float_lstm());  // outlives the executor
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  const auto once = [&] {
    *static_cast<float*>(grt_input(run.executor, 0)->data) = 1.0f;
    EXPECT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
    return *static_cast<const float*>(grt_output(run.executor, 0)->data);
  };
  const float g = std::tanh(1.0f);
  const float c1 = 0.5f * g;
  const float c2 = 0.5f * c1 + 0.5f * g;
  EXPECT_NEAR(once(), 0.5f * std::tanh(c1), 1e-6);
  EXPECT_NEAR(once(), 0.5f * std::tanh(c2), 1e-6);
  ASSERT_EQ(grt_reset_state(run.executor), GRT_OK);
  EXPECT_NEAR(once(), 0.5f * std::tanh(c1), 1e-6);
}

TEST(State, LstmCheckRefusesWeightsThatDoNotStackFourGates) {
  grt_error error{};
  EXPECT_EQ(init_status(to_blob(float_lstm(3)), &error), GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(std::string(error.message).find("must stack the 4 gates"), std::string::npos) << error.message;
}

}  // namespace
}  // namespace grt::test
