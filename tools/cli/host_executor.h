// An executor on the host under any memory strategy, with every buffer sized from
// grt_model_requirements: what `graphrt run` and `graphrt bench` execute models with.
#ifndef GRAPHRT_TOOLS_CLI_HOST_EXECUTOR_H_
#define GRAPHRT_TOOLS_CLI_HOST_EXECUTOR_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graphrt/allocator.h"
#include "graphrt/graphrt.h"
#include "graphrt/heap_allocator.h"
#include "graphrt/page_allocator.h"
#include "graphrt/tools/aligned_bytes.h"

namespace grt::cli {

enum class Strategy {
  kStatic,  // the host-planned pools (GRT_STRATEGY_STATIC)
  kPage,    // activations allocated and freed during run from a page allocator sized
            // exactly by grt_page_required_bytes (GRT_STRATEGY_DYNAMIC)
  kStack,   // activations allocated once at init from a stack allocator (GRT_STRATEGY_STACK)
  kHeap,    // as kPage, from the C heap
};

// "lean", "prepared"; nullopt for anything else.
std::optional<grt_arguments> parse_arguments(std::string_view name);
const char* arguments_name(grt_arguments arguments);

// "static", "page", "stack", "heap"; nullopt for anything else.
std::optional<Strategy> parse_strategy(std::string_view name);
const char* strategy_name(Strategy strategy);

struct MemoryUse {
  uint64_t bookkeeping_bytes = 0;
  uint64_t pool_bytes = 0;          // all pools (static strategy)
  uint64_t allocator_buffer_bytes = 0;  // the buffer handed to a page or stack allocator
  uint64_t allocator_peak_bytes = 0;    // the most the allocator ever had handed out
  // What the model needed at its peak: bookkeeping + pools + the allocator's buffer (or,
  // for the heap, its peak).
  uint64_t total_bytes() const;
};

class HostExecutor {
 public:
  HostExecutor() = default;
  ~HostExecutor();
  HostExecutor(const HostExecutor&) = delete;
  HostExecutor& operator=(const HostExecutor&) = delete;

  struct Options {
    Strategy strategy = Strategy::kStatic;
    size_t page_size = 256;  // kPage: a power of two >= GRT_PAGE_MIN_SIZE
    const grt_hooks* hooks = nullptr;
    // LEAN marshals each node's arguments before it runs (small bookkeeping); PREPARED
    // builds them all at init (fastest dispatch).
    grt_arguments arguments = GRT_ARGUMENTS_LEAN;
    // Nothing is allocated past this many bytes in all (bookkeeping, pools, allocator
    // buffers; the heap strategy's allocator refuses past it at run time): a blob declares
    // its sizes, and a host tool must not take them on trust.
    uint64_t max_memory_bytes = uint64_t{1} << 30;
    // Kernels found before the built-in ones (e.g. TVM-generated operators).
    std::vector<grt_kernel_entry> kernels;
  };

  // Sizes and binds every buffer; false with the runtime's message in *error.
  bool init(const tools::AlignedBytes& blob, const Options& options, std::string* error);

  grt_executor* get() const { return executor_; }
  MemoryUse memory_use() const;

 private:
  std::vector<grt_kernel_entry> registry_storage_;
  grt_registry registry_{};
  grt_requirements requirements_{};
  // Each strategy's memory; pools and buffers are sized from the blob's requirements.
  bool bind_static(const tools::AlignedBytes& blob, uint64_t max_memory_bytes, grt_memory* memory, std::string* error);
  bool bind_page(const tools::AlignedBytes& blob, size_t page_size, uint64_t max_memory_bytes, grt_memory* memory, std::string* error);

  tools::AlignedBytes storage_;
  std::vector<tools::AlignedBytes> pools_;
  std::vector<void*> pool_pointers_;
  std::vector<size_t> pool_sizes_;
  tools::AlignedBytes allocator_buffer_;
  size_t allocator_buffer_bytes_ = 0;  // of allocator_buffer_, what the allocator manages
  grt_heap_allocator heap_{};
  grt_stack_allocator stack_{};
  grt_page_allocator page_{};
  grt_allocator allocator_{};
  grt_executor* executor_ = nullptr;
};

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_HOST_EXECUTOR_H_
