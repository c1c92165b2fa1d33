// Exact memory budgets for every strategy, the allocation replay they rest on, running
// out of memory under DYNAMIC and recovering, and identical outputs under every strategy
// and allocator.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "c_usage.h"
#include "fake_rtos_heap.h"
#include "graphrt/dynamic_memory.h"
#include "graphrt/heap_allocator.h"
#include "memory_test_models.h"
#include "rtos_allocator.h"

namespace grt::test {
namespace {

using tools::AlignedBytes;
using tools::ModelDef;

const char* strategy_name(grt_strategy s) { return s == GRT_STRATEGY_DYNAMIC ? "DYNAMIC" : s == GRT_STRATEGY_STACK ? "STACK" : "STATIC"; }

grt_page_budget page_budget(const AlignedBytes& blob, grt_strategy strategy, size_t page_size, grt_page_policy policy) {
  grt_page_budget budget{};
  grt_error error{};
  EXPECT_EQ(grt_page_required_bytes(blob.data(), blob.size(), strategy, page_size, policy, nullptr, 0, &budget, &error),
            GRT_ERR_STORAGE_TOO_SMALL);
  EXPECT_GT(budget.scratch_bytes, 0u);
  AlignedBytes scratch(budget.scratch_bytes);
  EXPECT_EQ(grt_page_required_bytes(blob.data(), blob.size(), strategy, page_size, policy, scratch.data(), scratch.size(), &budget, &error),
            GRT_OK)
      << error.message;
  return budget;
}

struct Outcome {
  grt_status status;
  std::string message;
};

// Init and two runs of m under `strategy` with a page allocator over exactly `bytes` of
// one page-aligned buffer. Outputs are checked against the host evaluation.
Outcome run_with_pages(const ModelDef& m, const AlignedBytes& blob, grt_strategy strategy, size_t page_size,
                       grt_page_policy policy, size_t bytes) {
  AlignedBytes buffer(bytes);
  grt_page_allocator pages;
  EXPECT_TRUE(grt_page_init_buffer(&pages, buffer.data(), bytes, page_size, policy));
  const grt_allocator view = grt_page_as_allocator(&pages);
  AllocatorRun run(blob, strategy, &view);
  if (run.init_status != GRT_OK) {
    EXPECT_EQ(pages.pages_in_use, 0u) << "a failed init gives back what it took";
    return {run.init_status, run.error.message};
  }
  Outcome outcome{GRT_OK, ""};
  for (int seed = 0; seed < 2 && outcome.status == GRT_OK; ++seed) {
    const std::vector<int8_t> input = sample_input(m, seed);
    const std::vector<int8_t> output = run.run(input);
    if (run.run_status != GRT_OK) {
      outcome = {run.run_status, grt_last_error(run.executor)->message};
    } else {
      EXPECT_EQ(output, evaluate(m, input));
    }
  }
  grt_release(run.executor);
  EXPECT_EQ(pages.pages_in_use, 0u);
  return outcome;
}

// ---- Page budgets: exactly enough, and one byte (one page) less is not ----------------

struct BudgetCase {
  size_t page_size;
  grt_page_policy policy;
  grt_strategy strategy;
};

class PageBudget : public ::testing::TestWithParam<BudgetCase> {
 protected:
  int fragmented_ = 0;  // budgets above the peak: fragmentation cost pages
  void expect_exact(const ModelDef& m) {
    const auto [page_size, policy, strategy] = GetParam();
    const AlignedBytes blob = to_blob(m);
    const grt_page_budget budget = page_budget(blob, strategy, page_size, policy);
    EXPECT_EQ(budget.buffer_bytes, grt_page_buffer_bytes(budget.page_count, page_size));
    EXPECT_EQ(budget.metadata_bytes, budget.page_count * 4);
    EXPECT_LE(budget.peak_pages, budget.page_count);
    fragmented_ += budget.page_count > budget.peak_pages ? 1 : 0;
    const Outcome enough = run_with_pages(m, blob, strategy, page_size, policy, budget.buffer_bytes);
    EXPECT_EQ(enough.status, GRT_OK) << enough.message;
    if (budget.page_count == 0) return;
    const Outcome short_by_a_byte = run_with_pages(m, blob, strategy, page_size, policy, budget.buffer_bytes - 1);
    EXPECT_EQ(short_by_a_byte.status, GRT_ERR_OUT_OF_MEMORY) << "a page less must not be enough";
    EXPECT_NE(short_by_a_byte.message.find("out of memory"), std::string::npos) << short_by_a_byte.message;
  }
};

TEST_P(PageBudget, ExactForTheBranchingGraph) { expect_exact(branching_graph()); }

TEST_P(PageBudget, ExactForACopyChain) { expect_exact(copy_chain(5, 40)); }

TEST_P(PageBudget, ExactForRandomGraphs) {
  std::mt19937 rng(static_cast<unsigned>(GetParam().page_size + GetParam().policy * 3 + GetParam().strategy * 5));
  for (int i = 0; i < 25; ++i) {
    const ModelDef m = random_graph(&rng, std::uniform_int_distribution<int>(2, 14)(rng));
    expect_exact(m);
    ASSERT_FALSE(HasFailure()) << "graph " << i;
  }
  if (GetParam().strategy == GRT_STRATEGY_DYNAMIC) {
    EXPECT_GT(fragmented_, 5) << "most budgets should exceed the peak, or the search goes untested";
  } else {
    EXPECT_EQ(fragmented_, 0) << "STACK never frees, so nothing fragments";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Memory, PageBudget,
    ::testing::Values(BudgetCase{16, GRT_PAGE_FIRST_FIT, GRT_STRATEGY_DYNAMIC}, BudgetCase{16, GRT_PAGE_BEST_FIT, GRT_STRATEGY_DYNAMIC},
                      BudgetCase{64, GRT_PAGE_FIRST_FIT, GRT_STRATEGY_DYNAMIC}, BudgetCase{64, GRT_PAGE_BEST_FIT, GRT_STRATEGY_DYNAMIC},
                      BudgetCase{16, GRT_PAGE_FIRST_FIT, GRT_STRATEGY_STACK}, BudgetCase{64, GRT_PAGE_BEST_FIT, GRT_STRATEGY_STACK}),
    [](const ::testing::TestParamInfo<BudgetCase>& p) {
      return std::string(strategy_name(p.param.strategy)) + std::to_string(p.param.page_size) +
             (p.param.policy == GRT_PAGE_FIRST_FIT ? "FirstFit" : "BestFit");
    });

TEST(PageBudgetSizes, ReuseUnderDynamicNeedsLessThanStack) {
  const AlignedBytes blob = to_blob(branching_graph());
  const grt_page_budget dynamic = page_budget(blob, GRT_STRATEGY_DYNAMIC, 16, GRT_PAGE_FIRST_FIT);
  const grt_page_budget stack = page_budget(blob, GRT_STRATEGY_STACK, 16, GRT_PAGE_FIRST_FIT);
  EXPECT_LT(dynamic.page_count, stack.page_count);
  // STACK never frees: every activation (6 + workspace) at once, nothing to fragment.
  EXPECT_EQ(stack.page_count, stack.peak_pages);
  // 16-byte pages: x 4, a 13, b 3, c 8, d 2, e 19, y 4, and c's 144-byte workspace 9.
  EXPECT_EQ(stack.page_count, 62u);
}

TEST(PageBudgetSizes, BadArgumentsAreRefusedWithAMessage) {
  const AlignedBytes blob = to_blob(copy_chain(2));
  grt_page_budget budget{};
  grt_error error{};
  EXPECT_EQ(grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_STATIC, 16, GRT_PAGE_FIRST_FIT, nullptr, 0, &budget, &error),
            GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, 24, GRT_PAGE_FIRST_FIT, nullptr, 0, &budget, &error),
            GRT_ERR_ARGUMENT);
  EXPECT_NE(std::string(error.message).find("page size 24"), std::string::npos) << error.message;
  EXPECT_EQ(grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, 16, GRT_PAGE_FIRST_FIT, nullptr, 0, nullptr, &error),
            GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_page_required_bytes(blob.data(), blob.size() - 8, GRT_STRATEGY_DYNAMIC, 16, GRT_PAGE_FIRST_FIT, nullptr, 0, &budget, &error),
            GRT_ERR_BLOB_MALFORMED);
  EXPECT_EQ(grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, 16, GRT_PAGE_FIRST_FIT, nullptr, 0, &budget, &error),
            GRT_ERR_STORAGE_TOO_SMALL);
  EXPECT_NE(std::string(error.message).find(std::to_string(budget.scratch_bytes) + " bytes of 8-byte aligned scratch, 0 given"),
            std::string::npos)
      << error.message;
}

TEST(PageBudgetSizes, SameAnswerThroughTheCApi) {
  const AlignedBytes blob = to_blob(branching_graph());
  const grt_page_budget budget = page_budget(blob, GRT_STRATEGY_DYNAMIC, 32, GRT_PAGE_BEST_FIT);
  AlignedBytes scratch(budget.scratch_bytes);
  EXPECT_EQ(c_page_budget(blob.data(), blob.size(), scratch.data(), scratch.size()), budget.page_count);
}

// ---- The replay makes exactly the calls init, run and release make --------------------

struct Call {
  char kind;  // 'a'llocate, 'f'ree
  size_t size;
  size_t alignment;
  int allocation;  // which allocation (in order) a free returns; -1: a failed allocate
  bool operator==(const Call&) const = default;
};

// Passes every call on to a heap and writes it down.
struct Recorder {
  Recorder() {
    grt_heap_init(&heap, 0);
    inner = grt_heap_as_allocator(&heap);
    view = {on_allocate, on_free, on_stats, this};
  }
  static void* on_allocate(void* context, size_t size, size_t alignment) {
    auto* r = static_cast<Recorder*>(context);
    void* p = grt_allocate(&r->inner, size, alignment);
    r->calls.push_back({'a', size, alignment, p == nullptr ? -1 : static_cast<int>(r->pointers.size())});
    if (p != nullptr) r->pointers.push_back(p);
    return p;
  }
  static void on_free(void* context, void* ptr) {
    auto* r = static_cast<Recorder*>(context);
    int allocation = -1;
    for (size_t i = 0; i < r->pointers.size(); ++i) {
      if (r->pointers[i] == ptr) allocation = static_cast<int>(i);
    }
    r->calls.push_back({'f', 0, 0, allocation});
    grt_free(&r->inner, ptr);
  }
  static void on_stats(const void* context, grt_allocator_stats* out) {
    const auto* r = static_cast<const Recorder*>(context);
    r->inner.stats(r->inner.context, out);
  }
  grt_heap_allocator heap;
  grt_allocator inner;
  grt_allocator view;
  std::vector<Call> calls;
  std::vector<void*> pointers;
};

class Replay : public ::testing::TestWithParam<grt_strategy> {};

TEST_P(Replay, MakesTheSameCallsAsInitRunAndRelease) {
  std::mt19937 rng(3);
  std::vector<ModelDef> models = {branching_graph(), copy_chain(4)};
  for (int i = 0; i < 10; ++i) models.push_back(random_graph(&rng, 10));
  for (const ModelDef& m : models) {
    const AlignedBytes blob = to_blob(m);
    Recorder real;
    {
      AllocatorRun run(blob, GetParam(), &real.view);
      ASSERT_EQ(run.init_status, GRT_OK) << run.error.message;
      run.run(sample_input(m, 1));
      ASSERT_EQ(run.run_status, GRT_OK);
      grt_release(run.executor);
    }
    Recorder replayed;
    grt_requirements requirements{};
    grt_error error{};
    ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GetParam(), &requirements, &error), GRT_OK);
    AlignedBytes storage(requirements.bookkeeping_bytes);
    ASSERT_EQ(grt_replay_allocations(blob.data(), blob.size(), GetParam(), &replayed.view, storage.data(), storage.size(), &error), GRT_OK)
        << error.message;
    EXPECT_EQ(replayed.calls, real.calls);
    EXPECT_GT(real.calls.size(), 3u);
    EXPECT_EQ(replayed.heap.bytes_in_use, 0u);
    EXPECT_EQ(replayed.heap.peak_bytes, real.heap.peak_bytes);
  }
}

TEST_P(Replay, FailsWithTheMessageARealRunWouldGive) {
  const ModelDef m = branching_graph();
  const AlignedBytes blob = to_blob(m);
  const grt_page_budget budget = page_budget(blob, GetParam(), 16, GRT_PAGE_FIRST_FIT);
  const size_t short_bytes = grt_page_buffer_bytes(budget.page_count - 1, 16);
  const Outcome real = run_with_pages(m, blob, GetParam(), 16, GRT_PAGE_FIRST_FIT, short_bytes);
  AlignedBytes buffer(short_bytes);
  grt_page_allocator pages;
  grt_page_init_buffer(&pages, buffer.data(), buffer.size(), 16, GRT_PAGE_FIRST_FIT);
  const grt_allocator view = grt_page_as_allocator(&pages);
  grt_requirements requirements{};
  grt_error error{};
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GetParam(), &requirements, &error), GRT_OK);
  AlignedBytes storage(requirements.bookkeeping_bytes);
  EXPECT_EQ(grt_replay_allocations(blob.data(), blob.size(), GetParam(), &view, storage.data(), storage.size(), &error),
            GRT_ERR_OUT_OF_MEMORY);
  EXPECT_EQ(error.status, GRT_ERR_OUT_OF_MEMORY);
  EXPECT_EQ(std::string(error.message), real.message);
  EXPECT_EQ(pages.pages_in_use, 0u);
}

INSTANTIATE_TEST_SUITE_P(Memory, Replay, ::testing::Values(GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK),
                         [](const ::testing::TestParamInfo<grt_strategy>& p) { return strategy_name(p.param); });

TEST(ReplayArguments, StaticStrategyAndSmallStorageAreRefused) {
  const AlignedBytes blob = to_blob(copy_chain(2));
  grt_heap_allocator heap;
  grt_heap_init(&heap, 0);
  const grt_allocator view = grt_heap_as_allocator(&heap);
  grt_requirements requirements{};
  grt_error error{};
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, &requirements, &error), GRT_OK);
  AlignedBytes storage(requirements.bookkeeping_bytes);
  EXPECT_EQ(grt_replay_allocations(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &view, storage.data(), storage.size(), &error),
            GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_replay_allocations(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, &view, storage.data(), storage.size() - 1, &error),
            GRT_ERR_STORAGE_TOO_SMALL);
  EXPECT_EQ(grt_replay_allocations(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, nullptr, storage.data(), storage.size(), &error),
            GRT_ERR_ARGUMENT);
}

// ---- STACK and STATIC requirements: exact, and one byte less fails ---------------------

TEST(StackRequirement, ExactForAGraphWithWorkspacesAndOneByteLessFails) {
  const ModelDef m = branching_graph();
  const AlignedBytes blob = to_blob(m);
  grt_requirements requirements{};
  grt_error error{};
  ASSERT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STACK, &requirements, &error), GRT_OK);
  for (const size_t bytes : {requirements.allocator_bytes, requirements.allocator_bytes - 1}) {
    AlignedBytes arena(bytes);
    grt_stack_allocator stack;
    grt_stack_init(&stack, arena.data(), bytes);
    const grt_allocator view = grt_stack_as_allocator(&stack);
    AllocatorRun run(blob, GRT_STRATEGY_STACK, &view);
    if (bytes == requirements.allocator_bytes) {
      ASSERT_EQ(run.init_status, GRT_OK) << run.error.message;
      const std::vector<int8_t> input = sample_input(m, 4);
      EXPECT_EQ(run.run(input), evaluate(m, input));
      EXPECT_EQ(stack.top, bytes) << "every byte is used";
      grt_release(run.executor);
      EXPECT_EQ(stack.lifo_violations, 0u);
    } else {
      EXPECT_EQ(run.init_status, GRT_ERR_OUT_OF_MEMORY);
      EXPECT_EQ(stack.bytes_in_use, 0u);
    }
  }
}

TEST(BookkeepingRequirement, ExactForEveryStrategyAndOneByteLessIsRefused) {
  const AlignedBytes blob = to_blob(branching_graph());
  for (const grt_arguments arguments : {GRT_ARGUMENTS_LEAN, GRT_ARGUMENTS_PREPARED})
  for (const grt_strategy strategy : {GRT_STRATEGY_STATIC, GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK}) {
    grt_requirements requirements{};
    grt_error error{};
    grt_options asked{};
    asked.memory.strategy = strategy;
    asked.arguments = arguments;
    ASSERT_EQ(grt_model_requirements_for(blob.data(), blob.size(), &asked, &requirements, &error), GRT_OK);
    grt_heap_allocator heap;
    grt_heap_init(&heap, 0);
    const grt_allocator view = grt_heap_as_allocator(&heap);
    std::vector<AlignedBytes> pools;
    std::vector<void*> pool_pointers;
    std::vector<size_t> pool_sizes;
    for (uint32_t p = 0; p < requirements.pool_count; ++p) {
      pools.emplace_back(requirements.pool_bytes[p]);
      pool_pointers.push_back(pools.back().data());
      pool_sizes.push_back(requirements.pool_bytes[p]);
    }
    MixRegistry registry;
    grt_options options{};
    options.registry = &registry.registry;
    options.memory.strategy = strategy;
    options.memory.allocator = &view;
    options.memory.pool_buffers = pool_pointers.data();
    options.memory.pool_sizes = pool_sizes.data();
    options.memory.pool_count = requirements.pool_count;
    options.arguments = arguments;
    for (const size_t bytes : {requirements.bookkeeping_bytes, requirements.bookkeeping_bytes - 1}) {
      AlignedBytes storage(bytes);
      grt_executor* x = nullptr;
      const grt_status s = grt_init(&x, storage.data(), bytes, blob.data(), blob.size(), &options, &error);
      EXPECT_EQ(s, bytes == requirements.bookkeeping_bytes ? GRT_OK : GRT_ERR_STORAGE_TOO_SMALL) << strategy_name(strategy) << (arguments == GRT_ARGUMENTS_LEAN ? " lean " : " prepared ") << error.message;
      if (s == GRT_OK) grt_release(x);
    }
    EXPECT_EQ(heap.bytes_in_use, 0u);
  }
}

TEST(StaticRequirement, ExactPoolsRunAndOneByteLessIsRefused) {
  const ModelDef m = branching_graph();
  const AlignedBytes blob = to_blob(m);
  MixRegistry registry;
  StaticRun run(blob, &registry.registry);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  ASSERT_EQ(run.requirements.pool_count, 1u);
  const std::vector<int8_t> input = sample_input(m, 2);
  std::memcpy(grt_input(run.executor, 0)->data, input.data(), input.size());
  ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
  const DLTensor* out = grt_output(run.executor, 0);
  EXPECT_EQ(std::vector<int8_t>(static_cast<int8_t*>(out->data), static_cast<int8_t*>(out->data) + grt_tensor_bytes(out)), evaluate(m, input));

  AlignedBytes storage(run.requirements.bookkeeping_bytes);
  void* pools[1] = {run.pools[0].data()};
  size_t sizes[1] = {run.requirements.pool_bytes[0] - 1};
  grt_options options{};
  options.registry = &registry.registry;
  options.memory.pool_buffers = pools;
  options.memory.pool_sizes = sizes;
  options.memory.pool_count = 1;
  grt_executor* x = nullptr;
  grt_error error{};
  EXPECT_EQ(grt_init(&x, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error), GRT_ERR_POOL_TOO_SMALL);
}

// ---- Out of memory under DYNAMIC: a clean failure, and recovery -----------------------

TEST(OutOfMemory, RunFailsNamingNodeTensorAndSizesAndGivesBackWhatItTook) {
  const AlignedBytes blob = to_blob(copy_chain(3));  // x, t1, t2, y: 16 bytes each
  grt_heap_allocator heap;
  grt_heap_init(&heap, 40);  // x and y (32) fit; t1 does not
  const grt_allocator view = grt_heap_as_allocator(&heap);
  AllocatorRun run(blob, GRT_STRATEGY_DYNAMIC, &view);
  ASSERT_EQ(run.init_status, GRT_OK) << run.error.message;
  EXPECT_EQ(heap.bytes_in_use, 32u);
  EXPECT_TRUE(run.run(std::vector<int8_t>(16, 1)).empty());
  EXPECT_EQ(run.run_status, GRT_ERR_OUT_OF_MEMORY);
  EXPECT_STREQ(grt_last_error(run.executor)->message,
               "out of memory: 16 bytes (allocator has 32 in use, largest free 8) for tensor 1 't1' at node 0 (copy)");
  EXPECT_EQ(heap.bytes_in_use, 32u);

  // Failing later in the graph gives back the intermediates taken by earlier nodes too.
  heap.limit = 48;
  EXPECT_TRUE(run.run(std::vector<int8_t>(16, 1)).empty());
  EXPECT_NE(std::string(grt_last_error(run.executor)->message).find("16 bytes (allocator has 48 in use, largest free 0) for tensor 2 't2' at node 1 (copy)"),
            std::string::npos)
      << grt_last_error(run.executor)->message;
  EXPECT_EQ(heap.bytes_in_use, 32u);

  // Giving more memory (here: a higher limit on the same allocator) is all it takes.
  heap.limit = 64;
  EXPECT_EQ(run.run(std::vector<int8_t>(16, 5)), std::vector<int8_t>(16, 5));
  EXPECT_EQ(run.run_status, GRT_OK);
  EXPECT_EQ(heap.bytes_in_use, 32u);
  grt_release(run.executor);
  EXPECT_EQ(heap.bytes_in_use, 0u);
}

TEST(OutOfMemory, WorkspaceFailureNamesTheWorkspace) {
  const ModelDef m = branching_graph();  // node 2 (c) has a workspace of 144 bytes
  const AlignedBytes blob = to_blob(m);
  grt_heap_allocator heap;
  grt_heap_init(&heap, 64 + 64 + 200 + 48 + 120 + 100);
  const grt_allocator view = grt_heap_as_allocator(&heap);
  AllocatorRun run(blob, GRT_STRATEGY_DYNAMIC, &view);
  ASSERT_EQ(run.init_status, GRT_OK);
  EXPECT_TRUE(run.run(sample_input(m, 0)).empty());
  EXPECT_EQ(run.run_status, GRT_ERR_OUT_OF_MEMORY);
  EXPECT_STREQ(grt_last_error(run.executor)->message,
               "out of memory: a workspace of 144 bytes (allocator has 496 in use, largest free 100) for node 2 (mix)");
  EXPECT_EQ(heap.bytes_in_use, 128u);
}

TEST(OutOfMemory, FreeingMemoryInASharedPageAllocatorLetsTheRunThrough) {
  const ModelDef m = branching_graph();
  const AlignedBytes blob = to_blob(m);
  const grt_page_budget budget = page_budget(blob, GRT_STRATEGY_DYNAMIC, 16, GRT_PAGE_FIRST_FIT);
  // The application shares the buffer and, after init, holds enough pages that the
  // activations cannot all be live at once.
  AlignedBytes buffer(grt_page_buffer_bytes(budget.page_count + 4, 16));
  grt_page_allocator pages;
  grt_page_init_buffer(&pages, buffer.data(), buffer.size(), 16, GRT_PAGE_FIRST_FIT);
  const grt_allocator view = grt_page_as_allocator(&pages);
  AllocatorRun run(blob, GRT_STRATEGY_DYNAMIC, &view);
  ASSERT_EQ(run.init_status, GRT_OK);
  const size_t pages_after_init = pages.pages_in_use;
  const size_t application_pages = budget.page_count + 4 - budget.peak_pages + 1;
  void* application_block = grt_page_allocate(&pages, application_pages * 16, 16);
  ASSERT_NE(application_block, nullptr);
  const std::vector<int8_t> input = sample_input(m, 3);
  EXPECT_TRUE(run.run(input).empty());
  EXPECT_EQ(run.run_status, GRT_ERR_OUT_OF_MEMORY);
  EXPECT_EQ(pages.pages_in_use, pages_after_init + application_pages) << "the failed run gave back everything it took";
  grt_page_free(&pages, application_block);
  EXPECT_EQ(run.run(input), evaluate(m, input));
  EXPECT_EQ(pages.pages_in_use, pages_after_init);
}

TEST(OutOfMemory, ANewAllocatorTakesOverAndTheOldOneGetsEverythingBack) {
  const ModelDef m = branching_graph();
  const AlignedBytes blob = to_blob(m);
  const grt_page_budget budget = page_budget(blob, GRT_STRATEGY_DYNAMIC, 64, GRT_PAGE_BEST_FIT);
  AlignedBytes small_buffer(grt_page_buffer_bytes(budget.page_count - 1, 64));
  AlignedBytes big_buffer(budget.buffer_bytes);
  grt_page_allocator small_pages, big_pages;
  grt_page_init_buffer(&small_pages, small_buffer.data(), small_buffer.size(), 64, GRT_PAGE_BEST_FIT);
  grt_page_init_buffer(&big_pages, big_buffer.data(), big_buffer.size(), 64, GRT_PAGE_BEST_FIT);
  const grt_allocator small_view = grt_page_as_allocator(&small_pages);
  const grt_allocator big_view = grt_page_as_allocator(&big_pages);
  AllocatorRun run(blob, GRT_STRATEGY_DYNAMIC, &small_view);
  ASSERT_EQ(run.init_status, GRT_OK);
  const std::vector<int8_t> input = sample_input(m, 6);
  EXPECT_TRUE(run.run(input).empty());
  EXPECT_EQ(run.run_status, GRT_ERR_OUT_OF_MEMORY);

  ASSERT_EQ(grt_set_allocator(run.executor, &big_view), GRT_OK) << grt_last_error(run.executor)->message;
  EXPECT_EQ(small_pages.pages_in_use, 0u);
  EXPECT_EQ(run.run(input), evaluate(m, input));
  EXPECT_EQ(run.run(sample_input(m, 7)), evaluate(m, sample_input(m, 7)));
  grt_release(run.executor);
  EXPECT_EQ(big_pages.pages_in_use, 0u);
  EXPECT_EQ(big_pages.peak_pages, budget.peak_pages);
}

TEST(OutOfMemory, SetAllocatorThatIsTooSmallHoldsNothingAndCanBeRetried) {
  const ModelDef m = copy_chain(2, 64);
  const AlignedBytes blob = to_blob(m);
  grt_heap_allocator first, tiny, roomy;
  grt_heap_init(&first, 0);
  grt_heap_init(&tiny, 100);  // x and y need 128
  grt_heap_init(&roomy, 0);
  const grt_allocator first_view = grt_heap_as_allocator(&first);
  const grt_allocator tiny_view = grt_heap_as_allocator(&tiny);
  const grt_allocator roomy_view = grt_heap_as_allocator(&roomy);
  AllocatorRun run(blob, GRT_STRATEGY_STACK, &first_view);
  ASSERT_EQ(run.init_status, GRT_OK);
  EXPECT_EQ(grt_set_allocator(run.executor, &tiny_view), GRT_ERR_OUT_OF_MEMORY);
  EXPECT_NE(std::string(grt_last_error(run.executor)->message).find(") for tensor"), std::string::npos);
  EXPECT_EQ(first.bytes_in_use, 0u);
  EXPECT_EQ(tiny.bytes_in_use, 0u);
  ASSERT_EQ(grt_set_allocator(run.executor, &roomy_view), GRT_OK);
  EXPECT_EQ(run.run(sample_input(m, 1)), evaluate(m, sample_input(m, 1)));
  grt_release(run.executor);
  EXPECT_EQ(roomy.bytes_in_use, 0u);
}

TEST(OutOfMemory, SetAllocatorRefusesStaticExecutorsAndIncompleteAllocators) {
  const AlignedBytes blob = to_blob(copy_chain(2));
  StaticRun static_run(blob);
  ASSERT_EQ(static_run.status, GRT_OK);
  grt_heap_allocator heap;
  grt_heap_init(&heap, 0);
  const grt_allocator view = grt_heap_as_allocator(&heap);
  EXPECT_EQ(grt_set_allocator(static_run.executor, &view), GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_set_allocator(nullptr, &view), GRT_ERR_ARGUMENT);
  AllocatorRun run(blob, GRT_STRATEGY_DYNAMIC, &view);
  ASSERT_EQ(run.init_status, GRT_OK);
  EXPECT_EQ(grt_set_allocator(run.executor, nullptr), GRT_ERR_ARGUMENT);
  const grt_allocator no_free = {view.allocate, nullptr, nullptr, view.context};
  EXPECT_EQ(grt_set_allocator(run.executor, &no_free), GRT_ERR_ARGUMENT);
  EXPECT_EQ(run.run(std::vector<int8_t>(16, 2)), std::vector<int8_t>(16, 2)) << "a refused call changes nothing";
}

// ---- One blob, every strategy and allocator, identical outputs -------------------------

std::vector<std::vector<int8_t>> outputs_under_every_allocator(const ModelDef& m, int seed) {
  const AlignedBytes blob = to_blob(m);
  const std::vector<int8_t> input = sample_input(m, seed);
  std::vector<std::vector<int8_t>> outputs;
  {
    MixRegistry registry;
    StaticRun run(blob, &registry.registry);
    EXPECT_EQ(run.status, GRT_OK) << run.error.message;
    std::memcpy(grt_input(run.executor, 0)->data, input.data(), input.size());
    EXPECT_EQ(grt_run(run.executor), GRT_OK);
    const DLTensor* out = grt_output(run.executor, 0);
    outputs.emplace_back(static_cast<int8_t*>(out->data), static_cast<int8_t*>(out->data) + grt_tensor_bytes(out));
  }
  for (const auto& [page_size, policy] : {std::pair{size_t{16}, GRT_PAGE_FIRST_FIT}, std::pair{size_t{64}, GRT_PAGE_BEST_FIT}}) {
    for (const grt_strategy strategy : {GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK}) {
      const grt_page_budget budget = page_budget(blob, strategy, page_size, policy);
      AlignedBytes buffer(budget.buffer_bytes);
      grt_page_allocator pages;
      grt_page_init_buffer(&pages, buffer.data(), buffer.size(), page_size, policy);
      const grt_allocator view = grt_page_as_allocator(&pages);
      AllocatorRun run(blob, strategy, &view);
      EXPECT_EQ(run.init_status, GRT_OK) << run.error.message;
      outputs.push_back(run.run(input));
    }
  }
  {
    grt_heap_allocator heap;
    grt_heap_init(&heap, 0);
    const grt_allocator view = grt_heap_as_allocator(&heap);
    AllocatorRun run(blob, GRT_STRATEGY_DYNAMIC, &view);
    outputs.push_back(run.run(input));
  }
  {
    fake_rtos_heap_reset();
    rtos_allocator state{};
    const grt_allocator view = rtos_allocator_view(&state);
    AllocatorRun run(blob, GRT_STRATEGY_DYNAMIC, &view);
    outputs.push_back(run.run(input));
    grt_release(run.executor);
    EXPECT_EQ(state.bytes_in_use, 0u);
  }
  {
    grt_requirements requirements{};
    grt_error error{};
    EXPECT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STACK, &requirements, &error), GRT_OK);
    AlignedBytes arena(requirements.allocator_bytes);
    grt_stack_allocator stack;
    grt_stack_init(&stack, arena.data(), arena.size());
    const grt_allocator view = grt_stack_as_allocator(&stack);
    AllocatorRun run(blob, GRT_STRATEGY_STACK, &view);
    outputs.push_back(run.run(input));
  }
  return outputs;
}

TEST(EveryStrategy, SameBlobSameOutputs) {
  std::mt19937 rng(17);
  std::vector<ModelDef> models = {branching_graph(), copy_chain(3, 50)};
  for (int i = 0; i < 8; ++i) models.push_back(random_graph(&rng, 12));
  for (size_t i = 0; i < models.size(); ++i) {
    const std::vector<std::vector<int8_t>> outputs = outputs_under_every_allocator(models[i], static_cast<int>(i));
    const std::vector<int8_t> expected = evaluate(models[i], sample_input(models[i], static_cast<int>(i)));
    ASSERT_EQ(outputs.size(), 8u);
    for (size_t k = 0; k < outputs.size(); ++k) EXPECT_EQ(outputs[k], expected) << "model " << i << ", configuration " << k;
  }
}

}  // namespace
}  // namespace grt::test
