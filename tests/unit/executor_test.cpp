// The executor: running, zero-copy inputs and outputs, hooks, errors that name the node,
// workspaces, and independence of executors over one blob.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <numeric>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "graphrt/heap_allocator.h"
#include "graphrt/platform.h"
#include "golden.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/planner.h"
#include "test_models.h"
#include "zoo.h"

namespace grt::test {
namespace {

using tools::AlignedBytes;
using tools::ArgDef;
using tools::DType;
using tools::ModelDef;

void fill_input(grt_executor* x, int8_t start) {
  DLTensor* in = grt_input(x, 0);
  auto* p = static_cast<int8_t*>(in->data);
  for (size_t i = 0; i < grt_tensor_bytes(in); ++i) p[i] = static_cast<int8_t>(start + static_cast<int8_t>(i));
}

std::vector<int8_t> output_bytes(grt_executor* x, uint32_t index = 0) {
  DLTensor* out = grt_output(x, index);
  const auto* p = static_cast<const int8_t*>(out->data);
  return std::vector<int8_t>(p, p + grt_tensor_bytes(out));
}

std::vector<int8_t> expected_from(int8_t start, size_t n) {
  std::vector<int8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<int8_t>(start + static_cast<int8_t>(i));
  return v;
}

TEST(Executor, RunsAChainAndOutputsItsInput) {
  const AlignedBytes blob = to_blob(copy_chain(5));
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  fill_input(run.executor, 3);
  ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
  EXPECT_EQ(output_bytes(run.executor), expected_from(3, 16));
  EXPECT_EQ(grt_node_count(run.executor), 5u);
  EXPECT_STREQ(grt_node_kernel(run.executor, 4), "copy");
}

TEST(Executor, TensorsDescribeTheModel) {
  const AlignedBytes blob = to_blob(copy_chain(1, 24));
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK);
  const DLTensor* in = grt_input(run.executor, 0);
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->ndim, 2);
  EXPECT_EQ(in->shape[1], 24);
  EXPECT_EQ(in->dtype.code, kDLInt);
  EXPECT_EQ(in->dtype.bits, 8);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(in->data) % 16, 0u);
  EXPECT_EQ(grt_input(run.executor, 1), nullptr);
  EXPECT_EQ(grt_output(run.executor, 1), nullptr);
}

TEST(Executor, InputsAndOutputsByName) {
  const AlignedBytes blob = to_blob(copy_chain(2));
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK);
  EXPECT_EQ(grt_input_index(run.executor, "x"), 0);
  EXPECT_EQ(grt_output_index(run.executor, "y"), 0);
  EXPECT_EQ(grt_input_index(run.executor, "y"), -1);
  EXPECT_EQ(grt_output_index(run.executor, nullptr), -1);
}

TEST(Executor, BoundCallerBuffersAreUsedInPlace) {
  const AlignedBytes blob = to_blob(copy_chain(2));
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK);
  alignas(16) int8_t in[16];
  alignas(16) int8_t out[16] = {};
  for (int i = 0; i < 16; ++i) in[i] = static_cast<int8_t>(100 - i);
  ASSERT_EQ(grt_bind_input(run.executor, 0, in, sizeof in), GRT_OK);
  ASSERT_EQ(grt_bind_output(run.executor, 0, out, sizeof out), GRT_OK);
  ASSERT_EQ(grt_run(run.executor), GRT_OK);
  EXPECT_EQ(std::memcmp(in, out, 16), 0);
  EXPECT_EQ(grt_bind_input(run.executor, 0, in, 15), GRT_ERR_ARGUMENT);
  EXPECT_NE(std::string(grt_last_error(run.executor)->message).find("needs 16 bytes, 15 given"), std::string::npos);
  EXPECT_EQ(grt_bind_input(run.executor, 0, in + 1, 15 + 1), GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_bind_input(run.executor, 3, in, 16), GRT_ERR_ARGUMENT);
}

TEST(Executor, AliasesShareTheirTargetsBytes) {
  ModelDef m;
  const uint32_t x = m.add_activation("x", DType::Int8, {1, 16});
  const uint32_t square = m.add_alias("x_4x4", x, {4, 4});
  const uint32_t y = m.add_activation("y", DType::Int8, {4, 4});
  m.inputs = {x};
  m.outputs = {y};
  m.add_node("copy", {ArgDef::input(square), ArgDef::output(y)});
  tools::plan_default(&m);
  const AlignedBytes blob = to_blob(m);
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  fill_input(run.executor, -8);
  ASSERT_EQ(grt_run(run.executor), GRT_OK);
  EXPECT_EQ(output_bytes(run.executor), expected_from(-8, 16));
}

struct Profile {
  std::vector<uint32_t> nodes;
  std::vector<std::string> kernels;
  uint32_t stop_before = UINT32_MAX;
  static void node_done(void* user, uint32_t node, const char* kernel, uint64_t) {
    auto* p = static_cast<Profile*>(user);
    p->nodes.push_back(node);
    p->kernels.emplace_back(kernel);
  }
  static int before_node(void* user, uint32_t node) { return node == static_cast<Profile*>(user)->stop_before ? 1 : 0; }
};

TEST(Executor, ProfileHookSeesEveryNode) {
  const AlignedBytes blob = to_blob(copy_chain(3));
  Profile profile;
  grt_hooks hooks{Profile::node_done, nullptr, &profile};
  StaticRun run(blob, nullptr, &hooks);
  ASSERT_EQ(run.status, GRT_OK);
  ASSERT_EQ(grt_run(run.executor), GRT_OK);
  EXPECT_EQ(profile.nodes, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(profile.kernels, (std::vector<std::string>{"copy", "copy", "copy"}));
}

TEST(Executor, BeforeNodeHookCancelsAndTheExecutorStaysUsable) {
  const AlignedBytes blob = to_blob(copy_chain(3));
  Profile profile;
  profile.stop_before = 2;
  grt_hooks hooks{Profile::node_done, Profile::before_node, &profile};
  StaticRun run(blob, nullptr, &hooks);
  ASSERT_EQ(run.status, GRT_OK);
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_CANCELLED);
  EXPECT_NE(std::string(grt_last_error(run.executor)->message).find("before node 2"), std::string::npos);
  EXPECT_EQ(profile.nodes.size(), 2u);
  profile.stop_before = UINT32_MAX;
  fill_input(run.executor, 1);
  EXPECT_EQ(grt_run(run.executor), GRT_OK);
  EXPECT_EQ(output_bytes(run.executor), expected_from(1, 16));
}

// User kernels that exercise the backend API.
grt_executor* g_cancel_target = nullptr;  // test-only: which executor the kernel cancels

int failing_kernel(TVMValue*, int*, int, TVMValue*, int*, void*) {
  TVMAPISetLastError("input scale is zero");
  return -7;
}

int silent_failing_kernel(TVMValue*, int*, int, TVMValue*, int*, void*) { return -3; }

int cancelling_kernel(TVMValue*, int*, int, TVMValue*, int*, void*) {
  grt_cancel(g_cancel_target);
  return 0;
}

int workspace_kernel(TVMValue* args, int*, int, TVMValue*, int*, void*) {
  const int64_t want = args[0].v_int64;
  void* a = TVMBackendAllocWorkspace(kDLCPU, 0, static_cast<uint64_t>(want), kDLInt, 8);
  if (a == nullptr) return -1;
  std::memset(a, 0x5a, static_cast<size_t>(want));
  void* b = TVMBackendAllocWorkspace(kDLCPU, 0, 16, kDLInt, 8);
  if (b == nullptr) return -1;
  if (TVMBackendFreeWorkspace(kDLCPU, 0, a) == 0) return -2;  // not LIFO: must be refused
  if (TVMBackendFreeWorkspace(kDLCPU, 0, b) != 0) return -3;
  if (TVMBackendFreeWorkspace(kDLCPU, 0, a) != 0) return -4;
  return 0;
}

ModelDef single_node(const char* kernel, std::vector<ArgDef> extra = {}, uint64_t workspace = 0) {
  ModelDef m = copy_chain(1);
  m.add_node(kernel, std::move(extra), "user_node");
  m.nodes.back().workspace_bytes = workspace;
  tools::plan_default(&m);
  return m;
}

TEST(Executor, KernelFailureNamesTheNodeAndCarriesTheKernelsMessage) {
  Registry r;
  ASSERT_EQ(grt_registry_add(&r.registry, "scale_check", failing_kernel, nullptr), GRT_OK);
  const AlignedBytes blob = to_blob(single_node("scale_check"));
  StaticRun run(blob, &r.registry);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_KERNEL_FAILED);
  EXPECT_STREQ(grt_last_error(run.executor)->message, "node 1 (scale_check) failed: input scale is zero");
}

TEST(Executor, KernelFailureWithoutMessageGivesTheCode) {
  Registry r;
  ASSERT_EQ(grt_registry_add(&r.registry, "mute", silent_failing_kernel, nullptr), GRT_OK);
  const AlignedBytes blob = to_blob(single_node("mute"));
  StaticRun run(blob, &r.registry);
  ASSERT_EQ(run.status, GRT_OK);
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_KERNEL_FAILED);
  EXPECT_STREQ(grt_last_error(run.executor)->message, "node 1 (mute) failed with code -3");
}

TEST(Executor, CancelFromInsideARunStopsAtTheNextBoundary) {
  Registry r;
  ASSERT_EQ(grt_registry_add(&r.registry, "cancel_me", cancelling_kernel, nullptr), GRT_OK);
  ModelDef m = single_node("cancel_me");
  m.add_node("noop", {});
  const AlignedBytes blob = to_blob(m);
  StaticRun run(blob, &r.registry);
  ASSERT_EQ(run.status, GRT_OK);
  g_cancel_target = run.executor;
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_CANCELLED);
  EXPECT_NE(std::string(grt_last_error(run.executor)->message).find("before node 2"), std::string::npos);
}

TEST(Executor, WorkspacesComeFromThePlanAndFreeInLifoOrder) {
  Registry r;
  ASSERT_EQ(grt_registry_add(&r.registry, "scratch", workspace_kernel, nullptr), GRT_OK);
  const uint64_t budget = GRT_STACK_ALLOCATION_BYTES(100u, 16u) + GRT_STACK_ALLOCATION_BYTES(16u, 16u);
  const AlignedBytes blob = to_blob(single_node("scratch", {ArgDef::integer(100)}, budget));
  StaticRun run(blob, &r.registry);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  EXPECT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
}

TEST(Executor, WorkspaceBeyondThePlanFailsCleanly) {
  Registry r;
  ASSERT_EQ(grt_registry_add(&r.registry, "scratch", workspace_kernel, nullptr), GRT_OK);
  const AlignedBytes blob = to_blob(single_node("scratch", {ArgDef::integer(1000)}, 256));
  StaticRun run(blob, &r.registry);
  ASSERT_EQ(run.status, GRT_OK);
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_KERNEL_FAILED);
  EXPECT_NE(std::string(grt_last_error(run.executor)->message).find("planned workspace"), std::string::npos)
      << grt_last_error(run.executor)->message;
}

TEST(Executor, BackendCallsOutsideARunAreRefused) {
  EXPECT_EQ(TVMBackendAllocWorkspace(kDLCPU, 0, 16, kDLInt, 8), nullptr);
  EXPECT_NE(TVMBackendFreeWorkspace(kDLCPU, 0, nullptr), 0);
  TVMAPISetLastError("nobody is listening");  // must not crash
  EXPECT_EQ(*grt_platform_current_slot(), nullptr);
}

TEST(Executor, TwoExecutorsOverOneBlobDoNotInterfere) {
  const AlignedBytes blob = to_blob(copy_chain(4));
  StaticRun a(blob);
  StaticRun b(blob);
  ASSERT_EQ(a.status, GRT_OK);
  ASSERT_EQ(b.status, GRT_OK);
  fill_input(a.executor, 10);
  fill_input(b.executor, -50);
  ASSERT_EQ(grt_run(a.executor), GRT_OK);
  ASSERT_EQ(grt_run(b.executor), GRT_OK);
  EXPECT_EQ(output_bytes(a.executor), expected_from(10, 16));
  EXPECT_EQ(output_bytes(b.executor), expected_from(-50, 16));
}

TEST(Executor, NullArgumentsAreRefusedNotCrashedOn) {
  EXPECT_EQ(grt_run(nullptr), GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_input(nullptr, 0), nullptr);
  EXPECT_EQ(grt_input_count(nullptr), 0u);
  EXPECT_EQ(grt_last_error(nullptr), nullptr);
  EXPECT_EQ(grt_bind_input(nullptr, 0, nullptr, 0), GRT_ERR_ARGUMENT);
  grt_cancel(nullptr);
  grt_release(nullptr);
  grt_error error{};
  EXPECT_EQ(grt_init(nullptr, nullptr, 0, nullptr, 0, nullptr, &error), GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_model_requirements(nullptr, 0, GRT_STRATEGY_STATIC, nullptr, &error), GRT_ERR_ARGUMENT);
  grt_requirements req{};
  EXPECT_EQ(grt_model_requirements(nullptr, 0, GRT_STRATEGY_STATIC, &req, nullptr), GRT_ERR_ARGUMENT);
}

// The same blob under the allocator-backed strategies.
class Strategies : public ::testing::TestWithParam<grt_strategy> {};

TEST_P(Strategies, SameBlobSameOutputs) {
  const AlignedBytes blob = to_blob(copy_chain(4));
  grt_requirements req{};
  grt_error error{};
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GetParam(), &req, &error), GRT_OK);
  AlignedBytes storage(req.bookkeeping_bytes);
  // Activations come and go in any order under DYNAMIC: a heap serves it; STACK is LIFO.
  AlignedBytes arena(req.allocator_bytes);
  grt_stack_allocator stack;
  grt_stack_init(&stack, arena.data(), arena.size());
  grt_heap_allocator heap;
  grt_heap_init(&heap, 0);
  const grt_allocator allocator = GetParam() == GRT_STRATEGY_STACK ? grt_stack_as_allocator(&stack) : grt_heap_as_allocator(&heap);
  Registry r;
  grt_options options{};
  options.registry = &r.registry;
  options.memory.strategy = GetParam();
  options.memory.allocator = &allocator;
  grt_executor* x = nullptr;
  ASSERT_EQ(grt_init(&x, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error), GRT_OK) << error.message;
  for (int round = 0; round < 3; ++round) {
    fill_input(x, static_cast<int8_t>(round * 7));
    ASSERT_EQ(grt_run(x), GRT_OK) << grt_last_error(x)->message;
    EXPECT_EQ(output_bytes(x), expected_from(static_cast<int8_t>(round * 7), 16));
  }
  grt_release(x);
  EXPECT_EQ(stack.bytes_in_use, 0u);
  EXPECT_EQ(stack.lifo_violations, 0u);
  EXPECT_EQ(heap.bytes_in_use, 0u);
}

INSTANTIATE_TEST_SUITE_P(Executor, Strategies, ::testing::Values(GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK),
                         [](const ::testing::TestParamInfo<grt_strategy>& p) { return p.param == GRT_STRATEGY_DYNAMIC ? "Dynamic" : "Stack"; });

// An executor of `blob` under a dynamic strategy on `allocator`, with `bookkeeping` bytes.
struct AllocatorInit {
  AllocatorInit(const AlignedBytes& blob, grt_strategy strategy, const grt_allocator* allocator, size_t bookkeeping)
      : storage(bookkeeping) {
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

TEST(Executor, RunAfterReleaseIsRefusedNotRunOnNullBuffers) {
  const AlignedBytes blob = to_blob(copy_chain(2));
  grt_requirements req{};
  grt_error error{};
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, &req, &error), GRT_OK);
  grt_heap_allocator heap;
  grt_heap_init(&heap, 0);
  const grt_allocator allocator = grt_heap_as_allocator(&heap);
  AllocatorInit init(blob, GRT_STRATEGY_DYNAMIC, &allocator, req.bookkeeping_bytes);
  ASSERT_EQ(init.status, GRT_OK);
  grt_executor* x = init.executor;
  ASSERT_EQ(grt_run(x), GRT_OK);
  grt_release(x);
  EXPECT_EQ(grt_run(x), GRT_ERR_ARGUMENT);
  EXPECT_NE(std::string(grt_last_error(x)->message).find("holds no memory"), std::string::npos);
  EXPECT_EQ(heap.bytes_in_use, 0u);
}

// Init under GRT_STRATEGY_STACK succeeds with exactly the allocator bytes
// grt_model_requirements reports and fails, giving back what it took, with one byte less.
// Returns the figure.
size_t expect_stack_requirement_exact(const AlignedBytes& blob) {
  grt_requirements req{};
  grt_error error{};
  EXPECT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STACK, &req, &error), GRT_OK) << error.message;
  for (const size_t bytes : {req.allocator_bytes, req.allocator_bytes - 1}) {
    AlignedBytes arena(bytes);
    grt_stack_allocator stack;
    grt_stack_init(&stack, arena.data(), bytes);
    const grt_allocator allocator = grt_stack_as_allocator(&stack);
    const AllocatorInit init(blob, GRT_STRATEGY_STACK, &allocator, req.bookkeeping_bytes);
    if (bytes == req.allocator_bytes) {
      EXPECT_EQ(init.status, GRT_OK) << init.error.message;
    } else {
      EXPECT_EQ(init.status, GRT_ERR_OUT_OF_MEMORY);
      EXPECT_NE(std::string(init.error.message).find("out of memory"), std::string::npos) << init.error.message;
      EXPECT_EQ(stack.bytes_in_use, 0u) << "a failed init must give back what it took";
    }
  }
  return req.allocator_bytes;
}

TEST(Executor, StackStrategyRequirementIsExact) {
  expect_stack_requirement_exact(to_blob(copy_chain(3)));
}

// The last request ends the stack: its bytes are not rounded up to the next 16.
TEST(Executor, StackStrategyRequirementIsExactWhenTheLastRequestIsNotAMultipleOf16) {
  EXPECT_EQ(expect_stack_requirement_exact(to_blob(copy_chain(3, 13))), 3 * (16 + 16) + 16 + 13u);
  ModelDef with_workspace = copy_chain(1, 13);
  with_workspace.nodes[0].workspace_bytes = 20;
  tools::plan_default(&with_workspace);
  EXPECT_EQ(expect_stack_requirement_exact(to_blob(with_workspace)), 2 * (16 + 16) + 16 + 20u);
}

// MLPerf Tiny's keyword spotter from the zoo, imported and planned; empty after a failure.
AlignedBytes kws_blob(const std::filesystem::path& zoo) {
  const std::vector<uint8_t> tflite = read_bytes(zoo / "models" / "mlperf_kws_dscnn_int8.tflite");
  ModelDef model;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &model);
  EXPECT_TRUE(imported.ok) << imported.error;
  std::string error;
  EXPECT_TRUE(imported.ok && tools::plan_model(&model, tools::PlanOptions{}, nullptr, &error)) << error;
  return to_blob(model);
}

// KWS under the stack strategy: the figure was 4 bytes conservative (72,800, 72,796 works).
TEST(Executor, StackStrategyRequirementIsExactOnKws) {
  GRT_REQUIRE_ZOO(zoo);
  EXPECT_EQ(expect_stack_requirement_exact(kws_blob(zoo)), 72796u);
}

// KWS's tensor names are long ("functional_1/.../FusedBatchNormV3;..."): its out-of-memory
// messages, at init and during a run, keep every figure and end complete, names shortened.
TEST(Executor, KwsOutOfMemoryMessagesKeepTheirFigures) {
  GRT_REQUIRE_ZOO(zoo);
  const AlignedBytes blob = kws_blob(zoo);
  grt_requirements req{};
  grt_error error{};
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, &req, &error), GRT_OK) << error.message;
  const std::regex complete(
      "out of memory: (a workspace of )?[0-9]+ bytes \\(allocator has [0-9]+ in use, largest free [0-9]+\\)"
      "( for tensor [0-9]+ '[^']*')?( (at|for) node [0-9]+ \\([a-z0-9_]+\\))?");
  std::set<std::string> messages;
  for (size_t limit = 0; limit <= req.allocator_bytes; limit += 128) {
    grt_heap_allocator heap;
    grt_heap_init(&heap, limit);
    const grt_allocator allocator = grt_heap_as_allocator(&heap);
    AllocatorInit init(blob, GRT_STRATEGY_DYNAMIC, &allocator, req.bookkeeping_bytes);
    grt_executor* x = init.executor;
    grt_status s = init.status;
    std::string message = init.error.message;
    if (s == GRT_OK) {
      std::memset(grt_input(x, 0)->data, 0, grt_tensor_bytes(grt_input(x, 0)));
      s = grt_run(x);
      message = grt_last_error(x)->message;
      grt_release(x);
    }
    if (s == GRT_OK) continue;
    ASSERT_EQ(s, GRT_ERR_OUT_OF_MEMORY) << message;
    EXPECT_TRUE(std::regex_match(message, complete)) << message;
    messages.insert(message);
  }
  EXPECT_GE(messages.size(), 10u);
}

// ---- Argument modes: LEAN (marshalled before each node) and PREPARED (at init) -----------

const char* mode_name(grt_arguments a) { return a == GRT_ARGUMENTS_LEAN ? "Lean" : "Prepared"; }
const char* strategy_label(grt_strategy s) { return s == GRT_STRATEGY_STATIC ? "Static" : s == GRT_STRATEGY_DYNAMIC ? "Dynamic" : "Stack"; }

// An executor under any strategy and argument mode, given exactly the bookkeeping
// grt_model_requirements_for reports, less `short_by` bytes.
struct ModeRun {
  ModeRun(const AlignedBytes& blob, grt_strategy strategy, grt_arguments arguments, const grt_registry* registry = nullptr,
          const grt_hooks* hooks = nullptr, size_t short_by = 0) {
    grt_options asked{};
    asked.memory.strategy = strategy;
    asked.arguments = arguments;
    status = grt_model_requirements_for(blob.data(), blob.size(), &asked, &req, &error);
    if (status != GRT_OK) return;
    for (uint32_t p = 0; p < req.pool_count; ++p) {
      pools.emplace_back(req.pool_bytes[p]);
      pool_pointers.push_back(pools.back().data());
      pool_sizes.push_back(req.pool_bytes[p]);
    }
    arena.resize(req.allocator_bytes);
    grt_stack_init(&stack, arena.data(), arena.size());
    grt_heap_init(&heap, 0);
    allocator = strategy == GRT_STRATEGY_STACK ? grt_stack_as_allocator(&stack) : grt_heap_as_allocator(&heap);
    grt_options options = asked;
    options.registry = registry != nullptr ? registry : &own_registry.registry;
    options.hooks = hooks;
    options.memory.allocator = &allocator;
    if (strategy == GRT_STRATEGY_STATIC) {
      options.memory.pool_buffers = pool_pointers.data();
      options.memory.pool_sizes = pool_sizes.data();
      options.memory.pool_count = req.pool_count;
    }
    storage.resize(req.bookkeeping_bytes);
    status = grt_init(&executor, storage.data(), req.bookkeeping_bytes - short_by, blob.data(), blob.size(), &options, &error);
  }
  ~ModeRun() { grt_release(executor); }
  ModeRun(const ModeRun&) = delete;
  ModeRun& operator=(const ModeRun&) = delete;
  grt_status status = GRT_ERR_ARGUMENT;
  grt_error error{};
  grt_requirements req{};
  Registry own_registry;
  AlignedBytes storage, arena;
  std::vector<AlignedBytes> pools;
  std::vector<void*> pool_pointers;
  std::vector<size_t> pool_sizes;
  grt_stack_allocator stack{};
  grt_heap_allocator heap{};
  grt_allocator allocator{};
  grt_executor* executor = nullptr;
};

using Mode = std::tuple<grt_strategy, grt_arguments>;

class Modes : public ::testing::TestWithParam<Mode> {
 protected:
  grt_strategy strategy() const { return std::get<0>(GetParam()); }
  grt_arguments arguments() const { return std::get<1>(GetParam()); }
};

TEST_P(Modes, BookkeepingIsExactAndTheChainRuns) {
  const AlignedBytes blob = to_blob(copy_chain(5));
  {
    ModeRun short_run(blob, strategy(), arguments(), nullptr, nullptr, 1);
    EXPECT_EQ(short_run.status, GRT_ERR_STORAGE_TOO_SMALL);
    EXPECT_NE(std::string(short_run.error.message).find("needs " + std::to_string(short_run.req.bookkeeping_bytes) + " bytes"),
              std::string::npos)
        << short_run.error.message;
  }
  ModeRun run(blob, strategy(), arguments());
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  for (int round = 0; round < 2; ++round) {
    fill_input(run.executor, static_cast<int8_t>(5 + round));
    ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
    EXPECT_EQ(output_bytes(run.executor), expected_from(static_cast<int8_t>(5 + round), 16));
  }
}

// A node planned without a workspace must not inherit the previous node's: its requests fail.
TEST_P(Modes, ANodeWithoutWorkspaceDoesNotSeeThePreviousNodes) {
  Registry r;
  ASSERT_EQ(grt_registry_add(&r.registry, "scratch", workspace_kernel, nullptr), GRT_OK);
  ModelDef m = copy_chain(1);
  m.add_node("scratch", {ArgDef::integer(100)}, "with_workspace");
  m.nodes.back().workspace_bytes = GRT_STACK_ALLOCATION_BYTES(100u, 16u) + GRT_STACK_ALLOCATION_BYTES(16u, 16u);
  m.add_node("scratch", {ArgDef::integer(100)}, "without_workspace");
  tools::plan_default(&m);
  const AlignedBytes blob = to_blob(m);
  ModeRun run(blob, strategy(), arguments(), &r.registry);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_KERNEL_FAILED);
  EXPECT_NE(std::string(grt_last_error(run.executor)->message).find("node 2 (scratch)"), std::string::npos)
      << grt_last_error(run.executor)->message;
}

TEST_P(Modes, BoundInputsAndOutputsAreUsedInPlace) {
  const AlignedBytes blob = to_blob(copy_chain(3));
  ModeRun run(blob, strategy(), arguments());
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  alignas(16) int8_t in[16];
  alignas(16) int8_t out[16] = {};
  for (int i = 0; i < 16; ++i) in[i] = static_cast<int8_t>(60 - i);
  ASSERT_EQ(grt_bind_input(run.executor, 0, in, sizeof in), GRT_OK);
  ASSERT_EQ(grt_bind_output(run.executor, 0, out, sizeof out), GRT_OK);
  EXPECT_EQ(grt_input(run.executor, 0)->data, static_cast<void*>(in));
  EXPECT_EQ(grt_output(run.executor, 0)->data, static_cast<void*>(out));
  ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
  EXPECT_EQ(std::memcmp(in, out, 16), 0);
  // The views stay the same objects (zero copy) across runs and bindings.
  const DLTensor* view = grt_input(run.executor, 0);
  in[3] = 99;
  ASSERT_EQ(grt_run(run.executor), GRT_OK);
  EXPECT_EQ(out[3], 99);
  EXPECT_EQ(grt_input(run.executor, 0), view);
}

// x -> alias [4,4] -> copy -> t -> alias of alias [16] -> copy -> y; and y2 copies a slice
// (offset alias) of the bound input.
ModelDef alias_model() {
  ModelDef m;
  const uint32_t x = m.add_activation("x", DType::Int8, {1, 16});
  const uint32_t square = m.add_alias("x_4x4", x, {4, 4});
  const uint32_t t = m.add_activation("t", DType::Int8, {4, 4});
  const uint32_t t_row = m.add_alias("t_row", t, {1, 16});
  const uint32_t t_flat = m.add_alias("t_flat", t_row, {16});
  const uint32_t y = m.add_activation("y", DType::Int8, {16});
  const uint32_t x_tail = m.add_alias("x_tail", x, {1, 8}, 8);
  const uint32_t y2 = m.add_activation("y2", DType::Int8, {1, 8});
  m.inputs = {x};
  m.outputs = {y, y2};
  m.add_node("copy", {ArgDef::input(square), ArgDef::output(t)});
  m.add_node("copy", {ArgDef::input(t_flat), ArgDef::output(y)});
  m.add_node("copy", {ArgDef::input(x_tail), ArgDef::output(y2)});
  tools::plan_default(&m);
  return m;
}

TEST_P(Modes, AliasesFollowTheirRootsIncludingBoundInputs) {
  const AlignedBytes blob = to_blob(alias_model());
  ModeRun run(blob, strategy(), arguments());
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  fill_input(run.executor, -8);
  ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
  EXPECT_EQ(output_bytes(run.executor, 0), expected_from(-8, 16));
  EXPECT_EQ(output_bytes(run.executor, 1), expected_from(0, 8));
  alignas(16) int8_t in[16];
  for (int i = 0; i < 16; ++i) in[i] = static_cast<int8_t>(40 + i);
  ASSERT_EQ(grt_bind_input(run.executor, 0, in, sizeof in), GRT_OK);
  ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
  EXPECT_EQ(output_bytes(run.executor, 0), expected_from(40, 16));
  EXPECT_EQ(output_bytes(run.executor, 1), expected_from(48, 8));
}

TEST_P(Modes, KernelFailureNamesTheNodeAndCarriesTheKernelsMessage) {
  Registry r;
  ASSERT_EQ(grt_registry_add(&r.registry, "scale_check", failing_kernel, nullptr), GRT_OK);
  const AlignedBytes blob = to_blob(single_node("scale_check"));
  ModeRun run(blob, strategy(), arguments(), &r.registry);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_KERNEL_FAILED);
  EXPECT_STREQ(grt_last_error(run.executor)->message, "node 1 (scale_check) failed: input scale is zero");
  // The next run starts clean: the message does not leak into a later failure.
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_KERNEL_FAILED);
  EXPECT_STREQ(grt_last_error(run.executor)->message, "node 1 (scale_check) failed: input scale is zero");
}

TEST_P(Modes, ProfileHooksSeeEveryNode) {
  const AlignedBytes blob = to_blob(copy_chain(3));
  Profile profile;
  grt_hooks hooks{Profile::node_done, Profile::before_node, &profile};
  ModeRun run(blob, strategy(), arguments(), nullptr, &hooks);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  fill_input(run.executor, 9);
  ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
  EXPECT_EQ(profile.nodes, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(output_bytes(run.executor), expected_from(9, 16));
}

// A check that reports through TVMAPISetLastError, and records what it was shown.
struct SeenByCheck {
  int calls = 0;
  bool constant_has_data = false;
  bool activation_has_data = true;
  int64_t constant_elements = 0;
};
SeenByCheck g_seen;

int picky_check(TVMValue* args, int* codes, int num_args, TVMValue*, int*, void*) {
  g_seen.calls++;
  if (num_args != 3 || codes[0] != kTVMDLTensorHandle || codes[1] != kTVMDLTensorHandle || codes[2] != kTVMArgInt) {
    TVMAPISetLastError("picky wants (constant, activation, int)");
    return -1;
  }
  const auto* constant = static_cast<const DLTensor*>(args[0].v_handle);
  const auto* activation = static_cast<const DLTensor*>(args[1].v_handle);
  g_seen.constant_has_data = constant->data != nullptr;
  g_seen.activation_has_data = activation->data != nullptr;
  g_seen.constant_elements = constant->ndim == 1 ? constant->shape[0] : -1;
  if (args[2].v_int64 != 7) {
    TVMAPISetLastError("the int must be 7");
    return -1;
  }
  return 0;
}

int noop_kernel(TVMValue*, int*, int, TVMValue*, int*, void*) { return 0; }

TEST_P(Modes, KernelChecksSeeShapesAndConstantsAndReportThroughSetLastError) {
  Registry r;
  ASSERT_EQ(grt_registry_add(&r.registry, "picky", noop_kernel, picky_check), GRT_OK);
  for (const int64_t value : {7, 8}) {
    ModelDef m = copy_chain(2);
    const uint32_t weights = m.add_int_array("w", {1, 2, 3});
    m.add_node("picky", {ArgDef::int_array(weights), ArgDef::input(1), ArgDef::integer(value)}, "picky_node");
    tools::plan_default(&m);
    const AlignedBytes blob = to_blob(m);
    g_seen = SeenByCheck{};
    ModeRun run(blob, strategy(), arguments(), &r.registry);
    EXPECT_EQ(g_seen.calls, 1);
    EXPECT_TRUE(g_seen.constant_has_data);
    EXPECT_FALSE(g_seen.activation_has_data) << "activations have no memory yet when kernels are checked";
    EXPECT_EQ(g_seen.constant_elements, 3);
    if (value == 7) {
      EXPECT_EQ(run.status, GRT_OK) << run.error.message;
    } else {
      EXPECT_EQ(run.status, GRT_ERR_KERNEL_ARGS);
      EXPECT_STREQ(run.error.message, "node 2 (picky): bad arguments: the int must be 7");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Executor, Modes,
                         ::testing::Combine(::testing::Values(GRT_STRATEGY_STATIC, GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK),
                                            ::testing::Values(GRT_ARGUMENTS_LEAN, GRT_ARGUMENTS_PREPARED)),
                         [](const ::testing::TestParamInfo<Mode>& p) {
                           return std::string(strategy_label(std::get<0>(p.param))) + mode_name(std::get<1>(p.param));
                         });

int long_message_kernel(TVMValue*, int*, int, TVMValue*, int*, void*) {
  TVMAPISetLastError(std::string(300, 'z').c_str());
  return -1;
}

TEST(Executor, LongKernelMessagesAreCutToFitBesideTheNodesName) {
  Registry r;
  ASSERT_EQ(grt_registry_add(&r.registry, "chatty", long_message_kernel, nullptr), GRT_OK);
  const AlignedBytes blob = to_blob(single_node("chatty"));
  StaticRun run(blob, &r.registry);
  ASSERT_EQ(run.status, GRT_OK);
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_KERNEL_FAILED);
  const std::string message = grt_last_error(run.executor)->message;
  EXPECT_EQ(message.rfind("node 1 (chatty) failed: zzz", 0), 0u) << message;
  EXPECT_LT(message.size(), size_t{GRT_ERROR_MESSAGE_SIZE});
}

TEST(Executor, LeanBookkeepingGrowsWithTheLargestNodeNotTheModel) {
  grt_options prepared{};
  prepared.arguments = GRT_ARGUMENTS_PREPARED;
  size_t lean[2], full[2];
  const int lengths[2] = {4, 40};
  for (int i = 0; i < 2; ++i) {
    const AlignedBytes blob = to_blob(copy_chain(lengths[i]));
    grt_requirements req{};
    grt_error error{};
    ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &req, &error), GRT_OK);
    lean[i] = req.bookkeeping_bytes;
    ASSERT_EQ(grt_model_requirements_for(blob.data(), blob.size(), &prepared, &req, &error), GRT_OK);
    full[i] = req.bookkeeping_bytes;
    EXPECT_LT(lean[i], full[i]);
  }
  // Per extra node: one function pointer (lean) against a DLTensor, a node record and two
  // arguments (prepared).
  EXPECT_LE(lean[1] - lean[0], 36 * sizeof(void*) + 8);
  EXPECT_GE(full[1] - full[0], 36 * sizeof(DLTensor));
}

TEST(Executor, UnknownArgumentModeIsRefused) {
  const AlignedBytes blob = to_blob(copy_chain(1));
  grt_options options{};
  options.arguments = static_cast<grt_arguments>(7);
  grt_requirements req{};
  grt_error error{};
  EXPECT_EQ(grt_model_requirements_for(blob.data(), blob.size(), &options, &req, &error), GRT_ERR_ARGUMENT);
  EXPECT_NE(std::string(error.message).find("or argument mode 7"), std::string::npos) << error.message;
  EXPECT_EQ(grt_model_requirements_for(blob.data(), blob.size(), nullptr, &req, &error), GRT_ERR_ARGUMENT);
  Registry r;
  options.registry = &r.registry;
  AlignedBytes storage(4096);
  grt_executor* x = nullptr;
  EXPECT_EQ(grt_init(&x, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error), GRT_ERR_ARGUMENT);
}

}  // namespace
}  // namespace grt::test
