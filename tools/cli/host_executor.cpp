#include "host_executor.h"

#include "format.h"
#include "graphrt/dynamic_memory.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/model_def.h"

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

// a + b, or UINT64_MAX when that does not fit: sizes come from the blob.
uint64_t saturating_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

// "pool 'activations' needs 17179869184 B (16.0 GiB); 17179870016 B (16.0 GiB) in all is
// past the host memory limit of 1073741824 B (1.0 GiB) (raise it with --max-memory)".
std::string over_limit(const std::string& what, uint64_t bytes, uint64_t total, uint64_t limit) {
  return what + " needs " + format_bytes(bytes) + "; " + format_bytes(total) + " in all is past the host memory limit of " +
         format_bytes(limit) + " (raise it with --max-memory)";
}

std::string pool_label(const tools::AlignedBytes& blob, uint32_t pool) {
  const auto* pools = fb::GetModel(blob.data())->pools();
  const auto* name = pools != nullptr && pool < pools->size() ? pools->Get(pool)->name() : nullptr;
  return "pool '" + (name != nullptr ? name->str() : std::to_string(pool)) + "'";
}

}  // namespace

HostExecutor::~HostExecutor() {
  if (executor_ != nullptr) grt_release(executor_);
}

bool HostExecutor::bind_static(const tools::AlignedBytes& blob, uint64_t max_memory_bytes, grt_memory* memory, std::string* error) {
  // Every pool is checked against the limit before the first byte is allocated.
  uint64_t total = requirements_.bookkeeping_bytes;
  for (uint32_t p = 0; p < requirements_.pool_count; ++p) {
    total = saturating_add(total, requirements_.pool_bytes[p]);
    if (total > max_memory_bytes) {
      *error = over_limit(pool_label(blob, p), requirements_.pool_bytes[p], total, max_memory_bytes);
      return false;
    }
  }
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

bool HostExecutor::bind_page(const tools::AlignedBytes& blob, size_t page_size, uint64_t max_memory_bytes, grt_memory* memory,
                             std::string* error) {
  // The runtime replays the model's allocations to find the fewest pages that work; the
  // first call says how much scratch that takes.
  grt_page_budget budget{};
  grt_error status{};
  grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, page_size, GRT_PAGE_FIRST_FIT, nullptr, 0, &budget, &status);
  if (budget.scratch_bytes == 0) {
    *error = status.message;
    return false;
  }
  const uint64_t bookkeeping = requirements_.bookkeeping_bytes;
  if (saturating_add(bookkeeping, budget.scratch_bytes) > max_memory_bytes) {
    *error = over_limit("sizing the page allocator", budget.scratch_bytes, saturating_add(bookkeeping, budget.scratch_bytes),
                        max_memory_bytes);
    return false;
  }
  tools::AlignedBytes scratch(budget.scratch_bytes);
  if (grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, page_size, GRT_PAGE_FIRST_FIT, scratch.data(),
                              scratch.size(), &budget, &status) != GRT_OK) {
    *error = status.message;
    return false;
  }
  const uint64_t buffer = saturating_add(budget.buffer_bytes, page_size);
  if (saturating_add(bookkeeping, buffer) > max_memory_bytes) {
    *error = over_limit("the page allocator's buffer", buffer, saturating_add(bookkeeping, buffer), max_memory_bytes);
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
  if (requirements_.bookkeeping_bytes > options.max_memory_bytes) {
    *error = over_limit("the executor's bookkeeping", requirements_.bookkeeping_bytes, requirements_.bookkeeping_bytes,
                        options.max_memory_bytes);
    return false;
  }
  storage_.resize(requirements_.bookkeeping_bytes);
  const uint64_t left = options.max_memory_bytes - requirements_.bookkeeping_bytes;
  switch (options.strategy) {
    case Strategy::kStatic:
      if (!bind_static(blob, options.max_memory_bytes, &init_options.memory, error)) return false;
      break;
    case Strategy::kPage:
      if (!bind_page(blob, options.page_size, options.max_memory_bytes, &init_options.memory, error)) return false;
      break;
    case Strategy::kStack:
      if (requirements_.allocator_bytes > left) {
        *error = over_limit("the stack allocator", requirements_.allocator_bytes,
                            saturating_add(requirements_.bookkeeping_bytes, requirements_.allocator_bytes), options.max_memory_bytes);
        return false;
      }
      allocator_buffer_.resize(requirements_.allocator_bytes);
      allocator_buffer_bytes_ = allocator_buffer_.size();
      grt_stack_init(&stack_, allocator_buffer_.data(), allocator_buffer_.size());
      allocator_ = grt_stack_as_allocator(&stack_);
      init_options.memory.allocator = &allocator_;
      break;
    case Strategy::kHeap:
      grt_heap_init(&heap_, static_cast<size_t>(left == 0 ? 1 : left));  // 0 would mean no limit
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
