#include "host_executor.h"

#include "graphrt/dynamic_memory.h"
#include "graphrt/kernels.h"

namespace grt::cli {

std::optional<Strategy> parse_strategy(std::string_view name) {
  if (name == "static") return Strategy::kStatic;
  if (name == "page") return Strategy::kPage;
  if (name == "stack") return Strategy::kStack;
  if (name == "heap") return Strategy::kHeap;
  return std::nullopt;
}

const char* strategy_name(Strategy strategy) {
  switch (strategy) {
    case Strategy::kStatic: return "static";
    case Strategy::kPage: return "page";
    case Strategy::kStack: return "stack";
    case Strategy::kHeap: return "heap";
  }
  return "?";
}

std::optional<grt_arguments> parse_arguments(std::string_view name) {
  if (name == "lean") return GRT_ARGUMENTS_LEAN;
  if (name == "prepared") return GRT_ARGUMENTS_PREPARED;
  return std::nullopt;
}

const char* arguments_name(grt_arguments arguments) { return arguments == GRT_ARGUMENTS_PREPARED ? "prepared" : "lean"; }

uint64_t MemoryUse::total_bytes() const {
  const uint64_t allocator = allocator_buffer_bytes != 0 ? allocator_buffer_bytes : allocator_peak_bytes;
  return bookkeeping_bytes + pool_bytes + allocator;
}

namespace {

grt_strategy runtime_strategy(Strategy strategy) {
  switch (strategy) {
    case Strategy::kStatic: return GRT_STRATEGY_STATIC;
    case Strategy::kStack: return GRT_STRATEGY_STACK;
    case Strategy::kPage:
    case Strategy::kHeap: return GRT_STRATEGY_DYNAMIC;
  }
  return GRT_STRATEGY_STATIC;
}

}  // namespace

HostExecutor::~HostExecutor() {
  if (executor_ != nullptr) grt_release(executor_);
}

bool HostExecutor::bind_static(grt_memory* memory) {
  for (uint32_t p = 0; p < requirements_.pool_count; ++p) {
    pools_.emplace_back(requirements_.pool_bytes[p]);
    pool_pointers_.push_back(pools_.back().data());
    pool_sizes_.push_back(requirements_.pool_bytes[p]);
  }
  memory->pool_buffers = pool_pointers_.data();
  memory->pool_sizes = pool_sizes_.data();
  memory->pool_count = requirements_.pool_count;
  return true;
}

bool HostExecutor::bind_page(const tools::AlignedBytes& blob, size_t page_size, grt_memory* memory, std::string* error) {
  // The runtime replays the model's allocations to find the fewest pages that work; the
  // first call says how much scratch that takes.
  grt_page_budget budget{};
  grt_error status{};
  grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, page_size, GRT_PAGE_FIRST_FIT, nullptr, 0, &budget, &status);
  if (budget.scratch_bytes == 0) {
    *error = status.message;
    return false;
  }
  tools::AlignedBytes scratch(budget.scratch_bytes);
  if (grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, page_size, GRT_PAGE_FIRST_FIT, scratch.data(),
                              scratch.size(), &budget, &status) != GRT_OK) {
    *error = status.message;
    return false;
  }
  // Pages must start on a page boundary, which can be coarser than AlignedBytes gives.
  allocator_buffer_.resize(budget.buffer_bytes + page_size);
  const uintptr_t base = reinterpret_cast<uintptr_t>(allocator_buffer_.data());
  const uintptr_t aligned = (base + page_size - 1) / page_size * page_size;
  allocator_buffer_bytes_ = budget.buffer_bytes;
  if (!grt_page_init_buffer(&page_, reinterpret_cast<void*>(aligned), budget.buffer_bytes, page_size, GRT_PAGE_FIRST_FIT)) {
    *error = "page allocator refused a buffer of " + std::to_string(budget.buffer_bytes) + " bytes in pages of " + std::to_string(page_size);
    return false;
  }
  allocator_ = grt_page_as_allocator(&page_);
  memory->allocator = &allocator_;
  return true;
}

bool HostExecutor::init(const tools::AlignedBytes& blob, const Options& options, std::string* error) {
  registry_storage_.assign(options.kernels.size() + 4, grt_kernel_entry{});
  grt_registry_init(&registry_, registry_storage_.data(), registry_storage_.size(), grt_builtin_kernels());
  for (const grt_kernel_entry& kernel : options.kernels) grt_registry_add_entry(&registry_, &kernel);
  grt_error status{};
  const grt_strategy strategy = runtime_strategy(options.strategy);
  grt_options init_options{};
  init_options.registry = &registry_;
  init_options.hooks = options.hooks;
  init_options.memory.strategy = strategy;
  init_options.arguments = options.arguments;
  if (grt_model_requirements_for(blob.data(), blob.size(), &init_options, &requirements_, &status) != GRT_OK) {
    *error = status.message;
    return false;
  }
  storage_.resize(requirements_.bookkeeping_bytes);
  switch (options.strategy) {
    case Strategy::kStatic:
      bind_static(&init_options.memory);
      break;
    case Strategy::kPage:
      if (!bind_page(blob, options.page_size, &init_options.memory, error)) return false;
      break;
    case Strategy::kStack:
      allocator_buffer_.resize(requirements_.allocator_bytes);
      allocator_buffer_bytes_ = allocator_buffer_.size();
      grt_stack_init(&stack_, allocator_buffer_.data(), allocator_buffer_.size());
      allocator_ = grt_stack_as_allocator(&stack_);
      init_options.memory.allocator = &allocator_;
      break;
    case Strategy::kHeap:
      grt_heap_init(&heap_, 0);
      allocator_ = grt_heap_as_allocator(&heap_);
      init_options.memory.allocator = &allocator_;
      break;
  }
  if (grt_init(&executor_, storage_.data(), storage_.size(), blob.data(), blob.size(), &init_options, &status) != GRT_OK) {
    executor_ = nullptr;
    *error = status.message;
    return false;
  }
  return true;
}

MemoryUse HostExecutor::memory_use() const {
  MemoryUse use;
  use.bookkeeping_bytes = requirements_.bookkeeping_bytes;
  for (const size_t size : pool_sizes_) use.pool_bytes += size;
  use.allocator_buffer_bytes = allocator_buffer_bytes_;
  if (allocator_.stats != nullptr) {
    grt_allocator_stats stats{};
    allocator_.stats(allocator_.context, &stats);
    use.allocator_peak_bytes = stats.peak_bytes;
  }
  return use;
}

}  // namespace grt::cli
