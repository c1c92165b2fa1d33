// IF and WHILE (TFLM's control flow) imported from TFLite models with several subgraphs and
// run under every strategy and argument mode subgraphs run with; the loader's refusals of
// subgraph tables, indices, recursion and signatures; cancelling a WHILE that never ends;
// CALL_ONCE whose initialiser computes (TFLM's call_once.cc: the initialiser runs on the
// first invoke only).
// Expected values are worked out by hand from TFLM's semantics (if.cc, while.cc): IF runs
// one branch on a copy of its inputs; WHILE's outputs start as its inputs and are replaced
// by the body's outputs while the condition subgraph gives true.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "graphrt/allocator.h"
#include "graphrt/graphrt.h"
#include "graphrt/dynamic_memory.h"
#include "graphrt/heap_allocator.h"
#include "graphrt/page_allocator.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/planner.h"
#include "tflite_op_model.h"
#include "test_models.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tflite::BuiltinOptions;
using tflite::TensorType;
using tools::AlignedBytes;
using tools::ArgKind;
using tools::ModelDef;

BuiltinOptionsWriter while_options(int32_t cond_index, int32_t body_index) {
  return builtin_options(BuiltinOptions::WhileOptions, [=](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateWhileOptions(fbb, cond_index, body_index).Union();
  });
}

BuiltinOptionsWriter named_variable(const std::string& shared_name) {
  return builtin_options(BuiltinOptions::VarHandleOptions, [=](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateVarHandleOptionsDirect(fbb, nullptr, shared_name.c_str()).Union();
  });
}

template <typename T>
std::vector<uint8_t> raw(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// cond (bool [1]), a, b (float32 [4]) -> IF: a + b (subgraph 1) or a * b (subgraph 2).
TfliteModelSpec add_or_mul() {
  TfliteModelSpec m;
  const int32_t cond = m.add_tensor({.name = "cond", .type = TensorType::BOOL, .shape = {1}});
  const int32_t a = m.add_tensor({.name = "a", .type = TensorType::FLOAT32, .shape = {4}});
  const int32_t b = m.add_tensor({.name = "b", .type = TensorType::FLOAT32, .shape = {4}});
  const int32_t out = m.add_tensor({.name = "out", .type = TensorType::FLOAT32, .shape = {4}});
  m.add_op(BuiltinOperator::IF, {cond, a, b}, {out}, if_options(1, 2));
  m.inputs = {cond, a, b};
  m.outputs = {out};
  m.subgraphs = {float_binary_subgraph(BuiltinOperator::ADD), float_binary_subgraph(BuiltinOperator::MUL)};
  return m;
}

// The loop values of the WHILE models: i (int32 [1]), n (int32 [1]), acc (float32 [2]).
struct LoopTensors {
  int32_t i, n, acc;
};

LoopTensors loop_tensors(TfliteModelSpec* g, const std::string& prefix) {
  LoopTensors t;
  t.i = g->add_tensor({.name = prefix + "i", .type = TensorType::INT32, .shape = {1}});
  t.n = g->add_tensor({.name = prefix + "n", .type = TensorType::INT32, .shape = {1}});
  t.acc = g->add_tensor({.name = prefix + "acc", .type = TensorType::FLOAT32, .shape = {2}});
  g->inputs = {t.i, t.n, t.acc};
  return t;
}

// Condition: i < n.
TfliteModelSpec less_than_n() {
  TfliteModelSpec g;
  const LoopTensors t = loop_tensors(&g, "");
  const int32_t flag = g.add_tensor({.name = "flag", .type = TensorType::BOOL, .shape = {1}});
  g.add_op(BuiltinOperator::LESS, {t.i, t.n}, {flag});
  g.outputs = {flag};
  return g;
}

// Body: i + 1, n passed through (output = input tensor), acc * 2.
TfliteModelSpec count_and_double() {
  TfliteModelSpec g;
  const LoopTensors t = loop_tensors(&g, "");
  const int32_t one = g.add_tensor({.name = "one", .type = TensorType::INT32, .shape = {1}, .data = raw(std::vector<int32_t>{1})});
  const int32_t two = g.add_tensor({.name = "two", .type = TensorType::FLOAT32, .shape = {1}, .data = raw(std::vector<float>{2})});
  const int32_t next_i = g.add_tensor({.name = "next_i", .type = TensorType::INT32, .shape = {1}});
  const int32_t next_acc = g.add_tensor({.name = "next_acc", .type = TensorType::FLOAT32, .shape = {2}});
  g.add_op(BuiltinOperator::ADD, {t.i, one}, {next_i});
  g.add_op(BuiltinOperator::MUL, {t.acc, two}, {next_acc});
  g.outputs = {next_i, t.n, next_acc};
  return g;
}

// The main graph of both WHILE models: i, n, acc -> WHILE(cond 1, body 2) -> i', n', acc'.
TfliteModelSpec while_main() {
  TfliteModelSpec m;
  const LoopTensors in = loop_tensors(&m, "in_");
  const int32_t i = m.add_tensor({.name = "out_i", .type = TensorType::INT32, .shape = {1}});
  const int32_t n = m.add_tensor({.name = "out_n", .type = TensorType::INT32, .shape = {1}});
  const int32_t acc = m.add_tensor({.name = "out_acc", .type = TensorType::FLOAT32, .shape = {2}});
  m.add_op(BuiltinOperator::WHILE, {in.i, in.n, in.acc}, {i, n, acc}, while_options(1, 2));
  m.outputs = {i, n, acc};
  return m;
}

TfliteModelSpec counting_loop() {
  TfliteModelSpec m = while_main();
  m.subgraphs = {less_than_n(), count_and_double()};
  return m;
}

// A subgraph of one float32 [2] value: out = op(x, constant c).
TfliteModelSpec scalar_op_subgraph(BuiltinOperator op, float c) {
  TfliteModelSpec g;
  const int32_t x = g.add_tensor({.name = "x", .type = TensorType::FLOAT32, .shape = {2}});
  const int32_t k = g.add_tensor({.name = "k", .type = TensorType::FLOAT32, .shape = {1}, .data = raw(std::vector<float>{c})});
  const int32_t out = g.add_tensor({.name = "out", .type = TensorType::FLOAT32, .shape = {2}});
  g.add_op(op, {x, k}, {out});
  g.inputs = {x};
  g.outputs = {out};
  return g;
}

// Body with an IF: acc + 1 while i < 2 (subgraph 3), acc * 2 after (subgraph 4); i + 1.
TfliteModelSpec nested_loop() {
  TfliteModelSpec m = while_main();
  TfliteModelSpec body;
  const LoopTensors t = loop_tensors(&body, "");
  const int32_t one = body.add_tensor({.name = "one", .type = TensorType::INT32, .shape = {1}, .data = raw(std::vector<int32_t>{1})});
  const int32_t two = body.add_tensor({.name = "two", .type = TensorType::INT32, .shape = {1}, .data = raw(std::vector<int32_t>{2})});
  const int32_t early = body.add_tensor({.name = "early", .type = TensorType::BOOL, .shape = {1}});
  const int32_t next_i = body.add_tensor({.name = "next_i", .type = TensorType::INT32, .shape = {1}});
  const int32_t next_acc = body.add_tensor({.name = "next_acc", .type = TensorType::FLOAT32, .shape = {2}});
  body.add_op(BuiltinOperator::LESS, {t.i, two}, {early});
  body.add_op(BuiltinOperator::IF, {early, t.acc}, {next_acc}, if_options(3, 4));
  body.add_op(BuiltinOperator::ADD, {t.i, one}, {next_i});
  body.outputs = {next_i, t.n, next_acc};
  m.subgraphs = {less_than_n(), body, scalar_op_subgraph(BuiltinOperator::ADD, 1), scalar_op_subgraph(BuiltinOperator::MUL, 2)};
  return m;
}

ModelDef imported(const TfliteModelSpec& spec) {
  const std::vector<uint8_t> bytes = build_tflite(spec);
  ModelDef def;
  const tools::ImportResult result = tools::import_tflite(bytes.data(), bytes.size(), &def);
  EXPECT_TRUE(result.ok) << result.error;
  tools::plan_default(&def);
  return def;
}

std::string import_error(const TfliteModelSpec& spec) {
  const std::vector<uint8_t> bytes = build_tflite(spec);
  ModelDef def;
  const tools::ImportResult result = tools::import_tflite(bytes.data(), bytes.size(), &def);
  EXPECT_FALSE(result.ok);
  return result.error;
}

// An executor under one strategy (static pools or a stack allocator) and argument mode,
// sized exactly from grt_model_requirements_for.
struct ControlRun {
  ControlRun(const AlignedBytes& blob, grt_strategy strategy, grt_arguments arguments, const grt_registry* own = nullptr,
             const grt_hooks* hooks = nullptr) {
    grt_options options{};
    options.hooks = hooks;
    options.registry = own != nullptr ? own : &registry.registry;
    options.memory.strategy = strategy;
    options.arguments = arguments;
    grt_requirements req{};
    status = grt_model_requirements_for(blob.data(), blob.size(), &options, &req, &error);
    if (status != GRT_OK) return;
    storage.resize(req.bookkeeping_bytes);
    if (strategy == GRT_STRATEGY_STATIC) {
      for (uint32_t p = 0; p < req.pool_count; ++p) {
        pools.emplace_back(req.pool_bytes[p]);
        pool_pointers.push_back(pools.back().data());
        pool_sizes.push_back(req.pool_bytes[p]);
      }
      options.memory.pool_buffers = pool_pointers.data();
      options.memory.pool_sizes = pool_sizes.data();
      options.memory.pool_count = req.pool_count;
    } else if (strategy == GRT_STRATEGY_DYNAMIC) {
      grt_heap_init(&heap, 0);  // frees in any order; the page budget test below sizes exactly
      allocator = grt_heap_as_allocator(&heap);
      options.memory.allocator = &allocator;
    } else {
      arena.resize(req.allocator_bytes);
      grt_stack_init(&stack, arena.data(), arena.size());
      allocator = grt_stack_as_allocator(&stack);
      options.memory.allocator = &allocator;
    }
    status = grt_init(&executor, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error);
  }
  // Gives the dynamic strategies' memory back (the heap's, which LeakSanitizer would report).
  ~ControlRun() {
    if (executor != nullptr) grt_release(executor);
  }
  ControlRun(const ControlRun&) = delete;
  ControlRun& operator=(const ControlRun&) = delete;
  template <typename T>
  void set(uint32_t index, const std::vector<T>& values) {
    DLTensor* t = grt_input(executor, index);
    ASSERT_EQ(grt_tensor_bytes(t), values.size() * sizeof(T)) << "input " << index;
    std::memcpy(t->data, values.data(), values.size() * sizeof(T));
  }
  template <typename T>
  std::vector<T> get(uint32_t index) const {
    const DLTensor* t = grt_output(executor, index);
    std::vector<T> values(grt_tensor_bytes(t) / sizeof(T));
    std::memcpy(values.data(), t->data, values.size() * sizeof(T));
    return values;
  }

  Registry registry;
  grt_status status = GRT_ERR_ARGUMENT;
  grt_error error{};
  AlignedBytes storage, arena;
  std::vector<AlignedBytes> pools;
  std::vector<void*> pool_pointers;
  std::vector<size_t> pool_sizes;
  grt_stack_allocator stack{};
  grt_heap_allocator heap{};
  grt_allocator allocator{};
  grt_executor* executor = nullptr;
};

struct Mode {
  grt_strategy strategy;
  grt_arguments arguments;
};
constexpr Mode kModes[] = {{GRT_STRATEGY_STATIC, GRT_ARGUMENTS_LEAN},   {GRT_STRATEGY_STATIC, GRT_ARGUMENTS_PREPARED},
                           {GRT_STRATEGY_STACK, GRT_ARGUMENTS_LEAN},    {GRT_STRATEGY_STACK, GRT_ARGUMENTS_PREPARED},
                           {GRT_STRATEGY_DYNAMIC, GRT_ARGUMENTS_LEAN},  {GRT_STRATEGY_DYNAMIC, GRT_ARGUMENTS_PREPARED}};

using F = std::vector<float>;
using I = std::vector<int32_t>;

TEST(ControlFlow, IfChoosesAddOrMulByItsCondition) {
  const ModelDef def = imported(add_or_mul());
  ASSERT_EQ(def.subgraphs.size(), 2u);
  const AlignedBytes blob = to_blob(def);
  for (const Mode mode : kModes) {
    ControlRun run(blob, mode.strategy, mode.arguments);
    ASSERT_EQ(run.status, GRT_OK) << run.error.message;
    run.set(1, F{1, 2, 3, 4});
    run.set(2, F{10, 20, 30, 40});
    for (const bool cond : {true, false, true}) {
      run.set(0, std::vector<uint8_t>{static_cast<uint8_t>(cond)});
      ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
      EXPECT_EQ(run.get<float>(0), cond ? (F{11, 22, 33, 44}) : (F{10, 40, 90, 160}));
    }
  }
}

TEST(ControlFlow, WhileCountsToNWithLoopCarriedValues) {
  const AlignedBytes blob = to_blob(imported(counting_loop()));
  for (const Mode mode : kModes) {
    ControlRun run(blob, mode.strategy, mode.arguments);
    ASSERT_EQ(run.status, GRT_OK) << run.error.message;
    // i from 0 to n, acc doubled n times; n = 0 runs no body: the outputs are the inputs.
    for (const int32_t n : {5, 0, 3}) {
      run.set(0, I{0});
      run.set(1, I{n});
      run.set(2, F{1.5f, -0.25f});
      ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
      EXPECT_EQ(run.get<int32_t>(0), I{n});
      EXPECT_EQ(run.get<int32_t>(1), I{n});
      const float scale = static_cast<float>(1 << n);
      EXPECT_EQ(run.get<float>(2), (F{1.5f * scale, -0.25f * scale}));
    }
    // Starting past n: the condition is false at once.
    run.set(0, I{7});
    run.set(1, I{2});
    ASSERT_EQ(grt_run(run.executor), GRT_OK);
    EXPECT_EQ(run.get<int32_t>(0), I{7});
  }
}

TEST(ControlFlow, IfNestedInAWhileBody) {
  const ModelDef def = imported(nested_loop());
  ASSERT_EQ(def.subgraphs.size(), 4u);
  const AlignedBytes blob = to_blob(def);
  for (const Mode mode : kModes) {
    ControlRun run(blob, mode.strategy, mode.arguments);
    ASSERT_EQ(run.status, GRT_OK) << run.error.message;
    run.set(0, I{0});
    run.set(1, I{4});
    run.set(2, F{1, -3});
    ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
    // i = 0, 1: acc + 1 -> {3, -1}; i = 2, 3: acc * 2 -> {12, -4}.
    EXPECT_EQ(run.get<int32_t>(0), I{4});
    EXPECT_EQ(run.get<float>(2), (F{12, -4}));
  }
}

TEST(ControlFlow, SubgraphsAreOrderedCallersFirstAndPlannedForTheirCallersWholeNode) {
  const ModelDef def = imported(nested_loop());
  // The body (TFLite subgraph 2) invokes 3 and 4: it comes before them in the blob.
  ASSERT_EQ(def.subgraphs.size(), 4u);
  const uint32_t while_node = 0;
  EXPECT_EQ(def.main_node_count(), 1u);
  for (const auto& g : def.subgraphs) {
    for (uint32_t n = g.first_node; n < g.first_node + g.node_count; ++n) {
      for (const auto& a : def.nodes[n].args) {
        if (a.kind == ArgKind::Subgraph) {
          EXPECT_GT(&def.subgraphs[static_cast<size_t>(a.value)], &g);
        }
      }
    }
  }
  // Every subgraph activation is live at the WHILE node: none shares bytes with another,
  // nor with the WHILE's own inputs and outputs.
  const std::vector<tools::Block> blocks = tools::planning_blocks(def);
  for (const auto& b : blocks) {
    if (b.tensor >= static_cast<int64_t>(def.subgraphs[0].first_tensor)) {
      EXPECT_EQ(b.live.first, while_node);
      EXPECT_EQ(b.live.last, while_node);
    }
  }
}

TEST(ControlFlow, ImporterRefusesRecursionAndMismatchedSignatures) {
  TfliteModelSpec recursive = nested_loop();
  recursive.subgraphs[1].ops[1].options = if_options(2, 4);  // the body invokes itself
  EXPECT_NE(import_error(recursive).find("subgraph 2: operator #1 invokes subgraph 2, which is running already: recursion is not supported"),
            std::string::npos);

  TfliteModelSpec main_again = add_or_mul();
  main_again.ops[0].options = if_options(0, 2);
  EXPECT_NE(import_error(main_again).find("invokes subgraph 0, which is running already"), std::string::npos);

  TfliteModelSpec missing = add_or_mul();
  missing.ops[0].options = if_options(1, 9);
  EXPECT_NE(import_error(missing).find("operator #0 invokes subgraph 9, but the model has 3"), std::string::npos);

  TfliteModelSpec narrow = add_or_mul();
  narrow.subgraphs[1].tensors[0].shape = {2};
  EXPECT_NE(import_error(narrow).find("IF #0: value 0 is FLOAT32[4], but the else-branch has FLOAT32[2]"), std::string::npos);

  TfliteModelSpec int_cond = add_or_mul();
  int_cond.tensors[0].type = TensorType::INT32;
  EXPECT_NE(import_error(int_cond).find("condition must be one bool"), std::string::npos);

  TfliteModelSpec arity = counting_loop();
  arity.subgraphs[1].outputs.pop_back();
  EXPECT_NE(import_error(arity).find("WHILE #0: the body (subgraph 2) has 2 outputs; the operator passes 3"), std::string::npos);
}

// ---- the loader and the kernels' checks, on blobs broken on purpose ----

// The blob's index of the subgraph the TFLite builder named so (its order is the importer's).
uint32_t subgraph_named(const ModelDef& def, const std::string& name) {
  for (uint32_t s = 0; s < def.subgraphs.size(); ++s) {
    if (def.subgraphs[s].name == name) return s;
  }
  ADD_FAILURE() << "no subgraph " << name;
  return 0;
}

std::string init_message(const ModelDef& def, grt_status expected) {
  ControlRun run(to_blob(def), GRT_STRATEGY_STATIC, GRT_ARGUMENTS_LEAN);
  EXPECT_EQ(run.status, expected) << run.error.message;
  return run.error.message;
}

#define EXPECT_REFUSED(def, status, text) EXPECT_NE(init_message(def, status).find(text), std::string::npos) << init_message(def, status)

TEST(ControlFlowLoader, RefusesABadSubgraphIndex) {
  ModelDef def = imported(add_or_mul());
  def.nodes[0].args[1].value = 7;
  EXPECT_REFUSED(def, GRT_ERR_INDEX_RANGE, "argument 1 invokes subgraph 7, but the blob has 2");
}

TEST(ControlFlowLoader, RefusesRecursion) {
  const ModelDef def = imported(nested_loop());
  // The body (TFLite subgraph 2) and its IF node, made to invoke the body itself.
  const uint32_t body = subgraph_named(def, "subgraph2");
  uint32_t if_node = def.subgraphs[body].first_node;
  while (def.nodes[if_node].args[0].kind != ArgKind::Subgraph) ++if_node;
  ModelDef broken = def;
  broken.nodes[if_node].args[0].value = body;
  const std::string graph = std::to_string(body + 1);
  EXPECT_REFUSED(broken, GRT_ERR_INDEX_RANGE, "a node of graph " + graph + " may invoke only subgraphs from " + graph + " on (no recursion)");
  // The main graph's WHILE made to invoke an earlier graph is impossible (the main graph is
  // first); a subgraph invoking one before it is refused the same way.
  for (uint32_t target = 0; target < body; ++target) {
    ModelDef earlier = def;
    earlier.nodes[if_node].args[1].value = target;
    EXPECT_REFUSED(earlier, GRT_ERR_INDEX_RANGE, "no recursion");
  }
}

TEST(ControlFlowLoader, RefusesSubgraphRangesThatDoNotTile) {
  ModelDef def = imported(add_or_mul());
  ModelDef gap = def;
  gap.subgraphs[1].first_tensor += 1;
  EXPECT_REFUSED(gap, GRT_ERR_GRAPH, "subgraph 1 starts at node");
  ModelDef short_end = def;
  short_end.subgraphs[1].node_count = 0;
  EXPECT_REFUSED(short_end, GRT_ERR_GRAPH, "the last subgraph ends at node");
  ModelDef past_end = def;
  past_end.subgraphs[1].tensor_count += 5;
  EXPECT_REFUSED(past_end, GRT_ERR_INDEX_RANGE, "subgraph 1 ends at node");
  ModelDef foreign_io = def;
  foreign_io.subgraphs[0].inputs[0] = def.inputs[1];
  EXPECT_REFUSED(foreign_io, GRT_ERR_INDEX_RANGE, "subgraph 0 lists tensor");
  ModelDef foreign_arg = def;
  foreign_arg.nodes[0].args[3].value = def.subgraphs[0].inputs[0];  // the IF reads a branch's tensor
  EXPECT_REFUSED(foreign_arg, GRT_ERR_GRAPH, "which is not a tensor of its graph");
  // The branch's node made to write its own input instead of the branch's output.
  ModelDef unwritten = def;
  for (auto& a : unwritten.nodes[def.subgraphs[0].first_node].args) {
    if (a.kind == ArgKind::Output) a.value = def.subgraphs[0].inputs[0];
  }
  EXPECT_EQ(init_message(unwritten, GRT_ERR_GRAPH_ORDER).find("subgraph 0 output 0"), 0u);
}

TEST(ControlFlowLoader, KernelChecksRefuseMismatchedArityDtypeAndShape) {
  const ModelDef def = imported(add_or_mul());
  ModelDef arity = def;
  arity.subgraphs[subgraph_named(def, "subgraph2")].outputs.pop_back();  // the else-branch
  EXPECT_REFUSED(arity, GRT_ERR_KERNEL_ARGS, "the branches differ in arity");
  ModelDef dtype = def;
  dtype.tensors[dtype.subgraphs[1].inputs[0]].dtype = tools::DType::Int32;
  EXPECT_REFUSED(dtype, GRT_ERR_KERNEL_ARGS, "an input differs in dtype or shape from a branch's");
  ModelDef shape = def;
  shape.tensors[shape.subgraphs[0].outputs[0]].shape = {2};
  EXPECT_REFUSED(shape, GRT_ERR_KERNEL_ARGS, "an output differs in dtype or shape from a branch's");
  ModelDef not_bool = def;
  not_bool.tensors[def.inputs[0]].dtype = tools::DType::Int8;
  EXPECT_REFUSED(not_bool, GRT_ERR_KERNEL_ARGS, "argument 2 has the wrong dtype");
  // A control kernel on a node without subgraph arguments.
  ModelDef plain = def;
  plain.nodes[0].args[0] = tools::ArgDef::integer(0);
  EXPECT_REFUSED(plain, GRT_ERR_KERNEL_ARGS, "arguments 0 and 1 must be subgraphs");

  ModelDef loop = imported(counting_loop());
  const uint32_t cond = subgraph_named(loop, "subgraph1");
  const uint32_t body_index = subgraph_named(loop, "subgraph2");
  ModelDef flag = loop;
  flag.tensors[flag.subgraphs[cond].outputs[0]].dtype = tools::DType::Int8;
  EXPECT_REFUSED(flag, GRT_ERR_KERNEL_ARGS, "the condition's output must be one bool");
  ModelDef body = loop;
  body.tensors[body.subgraphs[body_index].outputs[2]].shape = {1};
  EXPECT_REFUSED(body, GRT_ERR_KERNEL_ARGS, "differs in dtype or shape from the body's");
}

// Under DYNAMIC a subgraph's tensors are taken before its control node and each of its
// nodes takes its workspace from the allocator: the page budget's replay runs both branches,
// so the fewest pages it gives are enough for either, and one fewer is not.
TEST(ControlFlowDynamic, PageBudgetCountsTheWorkspacesOfTheNodesASubgraphRuns) {
  ModelDef def = if_else_copy(64);
  // The else branch's second copy asks for a workspace larger than everything else.
  def.nodes.back().workspace_bytes = 4096;
  tools::plan_default(&def);
  const AlignedBytes blob = to_blob(def);
  constexpr size_t kPage = 64;
  grt_requirements req{};
  grt_error error{};
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, &req, &error), GRT_OK) << error.message;
  grt_page_budget budget{};
  grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, kPage, GRT_PAGE_FIRST_FIT, nullptr, 0, &budget, &error);
  AlignedBytes scratch(budget.scratch_bytes);
  ASSERT_EQ(grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, kPage, GRT_PAGE_FIRST_FIT, scratch.data(),
                                    scratch.size(), &budget, &error),
            GRT_OK)
      << error.message;
  EXPECT_GE(budget.peak_pages, 4096 / kPage) << "the else branch's workspace was not replayed";
  // Runs both branches with `pages` pages: the status of the worse.
  const auto run_with = [&](size_t pages) {
    AlignedBytes buffer(grt_page_buffer_bytes(pages, kPage) + kPage);
    uint8_t* start = buffer.data() + (kPage - reinterpret_cast<uintptr_t>(buffer.data()) % kPage) % kPage;
    grt_page_allocator pager;
    EXPECT_TRUE(grt_page_init_buffer(&pager, start, grt_page_buffer_bytes(pages, kPage), kPage, GRT_PAGE_FIRST_FIT));
    const grt_allocator allocator = grt_page_as_allocator(&pager);
    Registry registry;
    grt_options options{};
    options.registry = &registry.registry;
    options.memory.strategy = GRT_STRATEGY_DYNAMIC;
    options.memory.allocator = &allocator;
    AlignedBytes storage(req.bookkeeping_bytes);
    grt_executor* x = nullptr;
    grt_status status = grt_init(&x, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error);
    for (const uint8_t cond : {1, 0}) {
      if (status != GRT_OK) break;
      std::memset(grt_input(x, 0)->data, cond, 1);
      std::memset(grt_input(x, 1)->data, 7, 64);
      status = grt_run(x);
      if (status == GRT_OK) {
        EXPECT_EQ(static_cast<const int8_t*>(grt_output(x, 0)->data)[63], 7);
      } else {
        error = *grt_last_error(x);
      }
    }
    return status;
  };
  EXPECT_EQ(run_with(budget.page_count), GRT_OK) << error.message;
  EXPECT_EQ(run_with(budget.page_count - 1), GRT_ERR_OUT_OF_MEMORY);
  EXPECT_NE(std::string(error.message).find("a workspace of 4096 bytes"), std::string::npos) << error.message;
}

// Subgraph k runs subgraph k + 1 as both branches of an IF, 20 deep: 2^21 subgraph node runs for a
// replay that follows every branch. Sizing refuses it by name instead of running that long.
TEST(ControlFlowDynamic, ReplayRefusesControlFlowThatNestsTooDeeply) {
  constexpr uint32_t kDepth = 20;
  ModelDef m;
  m.name = "nested_ifs";
  uint32_t cond = m.add_activation("cond", tools::DType::Bool, {1});
  uint32_t x = m.add_activation("x", tools::DType::Int8, {1, 4});
  const uint32_t y = m.add_activation("y", tools::DType::Int8, {1, 4});
  m.inputs = {cond, x};
  m.outputs = {y};
  // The condition, then the branch's inputs: that condition again and x.
  m.add_node("if_else", {tools::ArgDef::subgraph(0), tools::ArgDef::subgraph(0), tools::ArgDef::input(cond), tools::ArgDef::input(cond),
                         tools::ArgDef::input(x), tools::ArgDef::output(y)});
  for (uint32_t k = 0; k < kDepth; ++k) {
    m.begin_subgraph("level" + std::to_string(k));
    cond = m.add_activation("cond", tools::DType::Bool, {1});
    x = m.add_activation("in", tools::DType::Int8, {1, 4});
    const uint32_t out = m.add_activation("out", tools::DType::Int8, {1, 4});
    m.subgraphs.back().inputs = {cond, x};
    m.subgraphs.back().outputs = {out};
    if (k + 1 < kDepth) {
      m.add_node("if_else", {tools::ArgDef::subgraph(k + 1), tools::ArgDef::subgraph(k + 1), tools::ArgDef::input(cond),
                             tools::ArgDef::input(cond), tools::ArgDef::input(x), tools::ArgDef::output(out)});
    } else {
      m.add_node("copy", {tools::ArgDef::input(x), tools::ArgDef::output(out)});
    }
  }
  m.end_subgraph();
  tools::plan_default(&m);
  const AlignedBytes blob = to_blob(m);
  grt_error error{};
  grt_page_budget budget{};
  AlignedBytes scratch(1 << 16);
  EXPECT_EQ(grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, 64, GRT_PAGE_FIRST_FIT, scratch.data(), scratch.size(),
                                    &budget, &error),
            GRT_ERR_GRAPH);
  EXPECT_NE(std::string(error.message).find("control flow nests too deeply to replay"), std::string::npos) << error.message;
  // Running it is another matter: an IF takes one branch, 20 subgraph runs in all.
  ControlRun run(blob, GRT_STRATEGY_DYNAMIC, GRT_ARGUMENTS_LEAN);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  run.set(0, std::vector<uint8_t>{1});
  run.set(1, std::vector<int8_t>{4, 3, 2, 1});
  ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
  EXPECT_EQ(run.get<int8_t>(0), (std::vector<int8_t>{4, 3, 2, 1}));
}

// The builder's hand-made blob (also the fuzz corpus's seed): then copies once, else twice.
TEST(ControlFlow, HandBuiltIfBlobRuns) {
  const AlignedBytes blob = to_blob(if_else_copy());
  for (const Mode mode : kModes) {
    ControlRun run(blob, mode.strategy, mode.arguments);
    ASSERT_EQ(run.status, GRT_OK) << run.error.message;
    for (const uint8_t cond : {0, 1}) {
      run.set(0, std::vector<uint8_t>{cond});
      run.set(1, std::vector<int8_t>{1, -2, 3, -4});
      ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
      EXPECT_EQ(run.get<int8_t>(0), (std::vector<int8_t>{1, -2, 3, -4}));
    }
  }
}

// ---- cancellation: a WHILE whose condition never turns false ----

grt_executor* g_cancel_target = nullptr;
int g_body_runs = 0;

// A body kernel that cancels the run on its 1000th call, as another thread would.
extern "C" int count_then_cancel(TVMValue*, int*, int, TVMValue*, int*, void*) {
  if (++g_body_runs == 1000) grt_cancel(g_cancel_target);
  return 0;
}

TEST(ControlFlow, CancelStopsAWhileThatNeverEnds) {
  // Condition: a constant true passed through (cond's output is its own input, set from a
  // constant by the main graph). Body: the counting kernel and a copy.
  ModelDef def;
  const uint32_t flag_in = def.add_activation("go", tools::DType::Bool, {1});
  const uint32_t flag_out = def.add_activation("went", tools::DType::Bool, {1});
  def.inputs = {flag_in};
  def.outputs = {flag_out};
  def.add_node("while_loop", {tools::ArgDef::subgraph(0), tools::ArgDef::subgraph(1), tools::ArgDef::input(flag_in),
                              tools::ArgDef::output(flag_out)});
  def.begin_subgraph("cond");
  const uint32_t c = def.add_activation("c", tools::DType::Bool, {1});
  def.subgraphs.back().inputs = {c};
  def.subgraphs.back().outputs = {c};
  def.begin_subgraph("body");
  const uint32_t b = def.add_activation("b", tools::DType::Bool, {1});
  const uint32_t b_out = def.add_activation("b_out", tools::DType::Bool, {1});
  def.add_node("count_then_cancel", {tools::ArgDef::input(b)});
  def.add_node("copy", {tools::ArgDef::input(b), tools::ArgDef::output(b_out)});
  def.subgraphs.back().inputs = {b};
  def.subgraphs.back().outputs = {b_out};
  def.end_subgraph();
  tools::plan_default(&def);
  const AlignedBytes blob = to_blob(def);
  for (const Mode mode : kModes) {
    Registry registry;
    ASSERT_EQ(grt_registry_add(&registry.registry, "count_then_cancel", count_then_cancel, nullptr), GRT_OK);
    ControlRun run(blob, mode.strategy, mode.arguments, &registry.registry);
    ASSERT_EQ(run.status, GRT_OK) << run.error.message;
    g_cancel_target = run.executor;
    g_body_runs = 0;
    run.set(0, std::vector<uint8_t>{1});
    EXPECT_EQ(grt_run(run.executor), GRT_ERR_CANCELLED);
    EXPECT_EQ(g_body_runs, 1000);  // stopped right after the call that cancelled
    EXPECT_NE(std::string(grt_last_error(run.executor)->message).find("cancelled in node 0 (while_loop)"), std::string::npos)
        << grt_last_error(run.executor)->message;
    // A false flag ends it at once, and the executor runs again after a cancellation.
    run.set(0, std::vector<uint8_t>{0});
    g_body_runs = 0;
    EXPECT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
    EXPECT_EQ(g_body_runs, 0);
  }
}

// The before_node hook sees the body's nodes on every iteration and stops the loop.
int g_hook_calls = 0;
int stop_at_500th_subgraph_node(void*, uint32_t node) {
  if (node == 0) return 0;  // the WHILE itself
  return ++g_hook_calls == 500 ? 1 : 0;
}

TEST(ControlFlow, BeforeNodeHookSeesSubgraphNodesAndStopsAWhile) {
  // cond: i < n; body: i + 1 (counting_loop) with n far beyond what the hook allows.
  const AlignedBytes blob = to_blob(imported(counting_loop()));
  grt_hooks hooks{};
  hooks.before_node = stop_at_500th_subgraph_node;
  ControlRun run(blob, GRT_STRATEGY_STATIC, GRT_ARGUMENTS_PREPARED, nullptr, &hooks);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  run.set(0, I{0});
  run.set(1, I{1 << 30});
  run.set(2, F{1, 1});
  g_hook_calls = 0;
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_CANCELLED) << grt_last_error(run.executor)->message;
  EXPECT_EQ(g_hook_calls, 500);
}

// A CALL_ONCE initialiser that computes: sum := a + b (an ADD of two constants), scale := 5
// then scale := 7 (constants, the last one wins).
TfliteModelSpec computing_initialiser() {
  TfliteModelSpec init;
  const int32_t a = init.add_tensor({.name = "a", .type = TensorType::FLOAT32, .shape = {4}, .data = raw(F{1, 2, 3, 4})});
  const int32_t b = init.add_tensor({.name = "b", .type = TensorType::FLOAT32, .shape = {4}, .data = raw(F{10, 20, 30, 40})});
  const int32_t start = init.add_tensor({.name = "start", .type = TensorType::FLOAT32, .shape = {4}});
  const int32_t five = init.add_tensor({.name = "five", .type = TensorType::INT32, .shape = {1}, .data = raw(I{5})});
  const int32_t seven = init.add_tensor({.name = "seven", .type = TensorType::INT32, .shape = {1}, .data = raw(I{7})});
  const int32_t sum = init.add_tensor({.name = "sum_handle", .type = TensorType::RESOURCE, .shape = {}});
  const int32_t scale = init.add_tensor({.name = "scale_handle", .type = TensorType::RESOURCE, .shape = {}});
  init.add_op(BuiltinOperator::VAR_HANDLE, {}, {scale}, named_variable("scale"));
  init.add_op(BuiltinOperator::ASSIGN_VARIABLE, {scale, five}, {});
  init.add_op(BuiltinOperator::ADD, {a, b}, {start});
  init.add_op(BuiltinOperator::VAR_HANDLE, {}, {sum}, named_variable("sum"));
  init.add_op(BuiltinOperator::ASSIGN_VARIABLE, {sum, start}, {});
  init.add_op(BuiltinOperator::ASSIGN_VARIABLE, {scale, seven}, {});
  return init;
}

// x float32 [4] -> y = sum + x, sum := y; z = scale. The sum and scale start where the
// CALL_ONCE initialiser (subgraph 1) puts them.
TfliteModelSpec initialised_accumulator() {
  TfliteModelSpec m;
  const int32_t x = m.add_tensor({.name = "x", .type = TensorType::FLOAT32, .shape = {4}});
  const int32_t sum = m.add_tensor({.name = "sum_handle", .type = TensorType::RESOURCE, .shape = {}});
  const int32_t scale = m.add_tensor({.name = "scale_handle", .type = TensorType::RESOURCE, .shape = {}});
  const int32_t v = m.add_tensor({.name = "v", .type = TensorType::FLOAT32, .shape = {4}});
  const int32_t y = m.add_tensor({.name = "y", .type = TensorType::FLOAT32, .shape = {4}});
  const int32_t z = m.add_tensor({.name = "z", .type = TensorType::INT32, .shape = {1}});
  m.inputs = {x};
  m.outputs = {y, z};
  m.add_op(BuiltinOperator::CALL_ONCE, {}, {}, builtin_options(BuiltinOptions::CallOnceOptions, [](flatbuffers::FlatBufferBuilder& fbb) {
             return tflite::CreateCallOnceOptions(fbb, 1).Union();
           }));
  m.add_op(BuiltinOperator::VAR_HANDLE, {}, {sum}, named_variable("sum"));
  m.add_op(BuiltinOperator::READ_VARIABLE, {sum}, {v});
  m.add_op(BuiltinOperator::ADD, {v, x}, {y});
  m.add_op(BuiltinOperator::ASSIGN_VARIABLE, {sum, y}, {});
  m.add_op(BuiltinOperator::VAR_HANDLE, {}, {scale}, named_variable("scale"));
  m.add_op(BuiltinOperator::READ_VARIABLE, {scale}, {z});
  m.subgraphs = {computing_initialiser()};
  return m;
}

// Under every strategy and argument mode, DYNAMIC's included.
TEST(CallOnce, InitialiserRunsOnTheFirstRunAndAgainAfterAReset) {
  const ModelDef def = imported(initialised_accumulator());
  ASSERT_EQ(def.subgraphs.size(), 1u);
  ASSERT_EQ(def.kernels.at(def.nodes.at(0).kernel), "call_once");
  EXPECT_EQ(def.subgraphs[0].outputs.size(), 2u);  // scale, then sum: first assigned first
  const AlignedBytes blob = to_blob(def);
  for (const Mode mode : kModes) {
    ControlRun run(blob, mode.strategy, mode.arguments);
    ASSERT_EQ(run.status, GRT_OK) << run.error.message;
    // 11 22 33 44 once, then the inputs accumulate on it.
    for (const F& expected : {F{12, 23, 34, 45}, F{13, 24, 35, 46}, F{14, 25, 36, 47}}) {
      run.set(0, F{1, 1, 1, 1});
      ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
      EXPECT_EQ(run.get<float>(0), expected);
      EXPECT_EQ(run.get<int32_t>(1), I{7});
    }
    // A reset clears the done flag: the next run initialises again, like a fresh interpreter.
    ASSERT_EQ(grt_reset_state(run.executor), GRT_OK);
    run.set(0, F{2, 2, 2, 2});
    ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
    EXPECT_EQ(run.get<float>(0), (F{13, 24, 35, 46}));
    EXPECT_EQ(run.get<int32_t>(1), I{7});
  }
}

// One computed value assigned to two variables: the subgraph passes it out twice.
TEST(CallOnce, OneValueMayStartTwoVariables) {
  TfliteModelSpec m = initialised_accumulator();
  TfliteModelSpec& init = m.subgraphs[0];
  const int32_t copy = init.add_tensor({.name = "copy_handle", .type = TensorType::RESOURCE, .shape = {}});
  init.add_op(BuiltinOperator::VAR_HANDLE, {}, {copy}, named_variable("copy"));
  init.add_op(BuiltinOperator::ASSIGN_VARIABLE, {copy, 2}, {});
  const int32_t handle = m.add_tensor({.name = "copy_handle", .type = TensorType::RESOURCE, .shape = {}});
  const int32_t w = m.add_tensor({.name = "w", .type = TensorType::FLOAT32, .shape = {4}});
  m.add_op(BuiltinOperator::VAR_HANDLE, {}, {handle}, named_variable("copy"));
  m.add_op(BuiltinOperator::READ_VARIABLE, {handle}, {w});
  m.outputs.push_back(w);
  const AlignedBytes blob = to_blob(imported(m));
  for (const Mode mode : kModes) {
    ControlRun run(blob, mode.strategy, mode.arguments);
    ASSERT_EQ(run.status, GRT_OK) << run.error.message;
    run.set(0, F{1, 1, 1, 1});
    ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
    EXPECT_EQ(run.get<float>(0), (F{12, 23, 34, 45}));
    EXPECT_EQ(run.get<float>(2), (F{11, 22, 33, 44}));
  }
}

TEST(CallOnce, RefusesInitialisersItCannotRun) {
  TfliteModelSpec with_input = initialised_accumulator();
  with_input.subgraphs[0].inputs = {2};
  EXPECT_NE(import_error(with_input).find("CALL_ONCE #0: initialiser subgraph 1 has 1 inputs and 0 outputs; CALL_ONCE passes none"),
            std::string::npos)
      << import_error(with_input);

  TfliteModelSpec reading = initialised_accumulator();
  TfliteModelSpec& init = reading.subgraphs[0];
  const int32_t read = init.add_tensor({.name = "read", .type = TensorType::INT32, .shape = {1}});
  init.add_op(BuiltinOperator::READ_VARIABLE, {6}, {read});
  EXPECT_NE(import_error(reading).find("initialiser subgraph 1 operator #6 reads a variable; graphrt runs initialisers that only assign them"),
            std::string::npos)
      << import_error(reading);

  TfliteModelSpec nested = initialised_accumulator();
  nested.subgraphs[0].ops.push_back(nested.ops[0]);
  nested.subgraphs[0].ops.back().options = builtin_options(BuiltinOptions::CallOnceOptions, [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateCallOnceOptions(fbb, 0).Union();
  });
  EXPECT_NE(import_error(nested).find("operator #6 is CALL_ONCE; graphrt runs initialisers without nested control flow"), std::string::npos)
      << import_error(nested);

  // The main graph makes sum float32 [4]; an int32 [4] start has its bytes, not its type.
  TfliteModelSpec retyped = initialised_accumulator();
  retyped.subgraphs[0].tensors[2].type = TensorType::INT32;
  retyped.subgraphs[0].tensors[0].type = TensorType::INT32;
  retyped.subgraphs[0].tensors[1].type = TensorType::INT32;
  EXPECT_NE(import_error(retyped).find("CALL_ONCE's initialiser assigns variable 'sum' 16 bytes of INT32; the variable is 16 bytes of float32"),
            std::string::npos)
      << import_error(retyped);
}

}  // namespace
}  // namespace grt::test
