// libFuzzer target: every public entry point that sizes or binds memory, on any blob.
// grt_model_requirements_for under each strategy and argument mode (and for a 32-bit Arm
// build), grt_page_required_bytes under both page policies, grt_replay_allocations
// against a heap, and grt_init + grt_run under the page and the stack strategies with
// exactly the memory the budgets gave. Promises checked on the way: a budget the runtime
// gives is enough (init never runs out of memory with it), and a replay returns
// everything it took.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "blob_mutator.h"
#include "graphrt/dynamic_memory.h"
#include "graphrt/graphrt.h"
#include "graphrt/heap_allocator.h"
#include "graphrt/kernels.h"
#include "graphrt/page_allocator.h"
#include "graphrt/target_requirements.h"
#include "graphrt/tools/aligned_bytes.h"

namespace {

// The loader must be safe for any size; the host running the fuzzer has finite memory.
constexpr uint64_t kMemoryCap = 16u << 20;

void must(bool condition) {
  if (!condition) std::abort();
}

struct Blob {
  const uint8_t* data;
  size_t size;
};

grt_options options_for(const grt_registry* registry, grt_strategy strategy, grt_arguments arguments) {
  grt_options options{};
  options.registry = registry;
  options.memory.strategy = strategy;
  options.arguments = arguments;
  return options;
}

// Binds an executor with `allocator` and runs it once; init must not fail for memory when
// the budget came from the runtime itself.
void init_and_run(Blob blob, grt_options options, const grt_allocator* allocator, size_t bookkeeping, bool budget_is_exact) {
  options.memory.allocator = allocator;
  uint32_t nodes_run = 0;
  grt_hooks hooks;
  options.hooks = grt::fuzz::loop_bound_hooks(blob.data, &nodes_run, &hooks);
  grt::tools::AlignedBytes storage(bookkeeping);
  grt_executor* executor = nullptr;
  grt_error error{};
  const grt_status status = grt_init(&executor, storage.data(), storage.size(), blob.data, blob.size, &options, &error);
  if (status != GRT_OK) {
    must(!budget_is_exact || status != GRT_ERR_OUT_OF_MEMORY);
    return;
  }
  grt_run(executor);
  grt_release(executor);
}

void page_strategy(Blob blob, const grt_registry* registry, size_t page_size, grt_page_policy policy, size_t bookkeeping) {
  grt_page_budget budget{};
  grt_error error{};
  grt_page_required_bytes(blob.data, blob.size, GRT_STRATEGY_DYNAMIC, page_size, policy, nullptr, 0, &budget, &error);
  if (budget.scratch_bytes == 0 || budget.scratch_bytes > kMemoryCap) return;
  grt::tools::AlignedBytes scratch(budget.scratch_bytes);
  if (grt_page_required_bytes(blob.data, blob.size, GRT_STRATEGY_DYNAMIC, page_size, policy, scratch.data(), scratch.size(), &budget,
                              &error) != GRT_OK) {
    return;
  }
  if (budget.buffer_bytes > kMemoryCap) return;
  grt::tools::AlignedBytes buffer(budget.buffer_bytes + page_size);
  const uintptr_t base = reinterpret_cast<uintptr_t>(buffer.data());
  void* aligned = reinterpret_cast<void*>((base + page_size - 1) / page_size * page_size);
  grt_page_allocator pages{};
  if (!grt_page_init_buffer(&pages, aligned, budget.buffer_bytes, page_size, policy)) return;
  const grt_allocator allocator = grt_page_as_allocator(&pages);
  init_and_run(blob, options_for(registry, GRT_STRATEGY_DYNAMIC, GRT_ARGUMENTS_LEAN), &allocator, bookkeeping, true);
}

void stack_strategy(Blob blob, const grt_registry* registry, const grt_requirements& requirements) {
  if (requirements.allocator_bytes > kMemoryCap) return;
  grt::tools::AlignedBytes buffer(requirements.allocator_bytes);
  grt_stack_allocator stack{};
  grt_stack_init(&stack, buffer.data(), buffer.size());
  const grt_allocator allocator = grt_stack_as_allocator(&stack);
  init_and_run(blob, options_for(registry, GRT_STRATEGY_STACK, GRT_ARGUMENTS_PREPARED), &allocator, requirements.bookkeeping_bytes, true);
}

void replay(Blob blob, grt_strategy strategy, size_t bookkeeping) {
  grt_heap_allocator heap{};
  grt_heap_init(&heap, kMemoryCap);
  const grt_allocator allocator = grt_heap_as_allocator(&heap);
  grt::tools::AlignedBytes storage(bookkeeping);
  grt_error error{};
  grt_replay_allocations(blob.data, blob.size, strategy, &allocator, storage.data(), storage.size(), &error);
  must(heap.bytes_in_use == 0);  // everything taken is returned
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  grt::tools::AlignedBytes bytes = grt::fuzz::aligned_copy(data, size);
  const Blob blob{bytes.data(), size};
  grt_registry registry;
  grt_registry_init(&registry, nullptr, 0, grt_builtin_kernels());

  grt_error error{};
  const size_t page_size = size_t{GRT_PAGE_MIN_SIZE} << (size == 0 ? 0 : data[size - 1] % 8);
  for (const grt_strategy strategy : {GRT_STRATEGY_STATIC, GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK}) {
    for (const grt_arguments arguments : {GRT_ARGUMENTS_LEAN, GRT_ARGUMENTS_PREPARED}) {
      const grt_options options = options_for(&registry, strategy, arguments);
      grt_requirements requirements{};
      const grt_status status = grt_model_requirements_for(blob.data, blob.size, &options, &requirements, &error);
      grt_requirements arm32{};
      grt_model_requirements_abi(blob.data, blob.size, &options, GRT_ABI_ARM32, &arm32, &error);
      if (status != GRT_OK || requirements.bookkeeping_bytes > kMemoryCap) continue;
      if (arguments == GRT_ARGUMENTS_PREPARED && strategy == GRT_STRATEGY_STACK) stack_strategy(blob, &registry, requirements);
      if (arguments != GRT_ARGUMENTS_LEAN || strategy == GRT_STRATEGY_STATIC) continue;
      replay(blob, strategy, requirements.bookkeeping_bytes);
      if (strategy == GRT_STRATEGY_DYNAMIC) {
        page_strategy(blob, &registry, page_size, GRT_PAGE_FIRST_FIT, requirements.bookkeeping_bytes);
        page_strategy(blob, &registry, page_size, GRT_PAGE_BEST_FIT, requirements.bookkeeping_bytes);
      }
    }
  }
  return 0;
}
