// A thin C++ view of graphrt's C API: same objects, same memory rules, no exceptions and
// no allocation, so it is usable in firmware as well as on hosts.
#ifndef GRAPHRT_GRAPHRT_HPP_
#define GRAPHRT_GRAPHRT_HPP_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/graphrt.h"

namespace grt {

// The memory a blob needs under a strategy, before anything is initialised.
inline grt_status requirements(const void* blob, size_t size, grt_strategy strategy, grt_requirements* out, grt_error* error) {
  return grt_model_requirements(blob, size, strategy, out, error);
}

class Registry {
 public:
  // `storage` holds user registrations; `builtin` is usually grt_builtin_kernels().
  Registry(grt_kernel_entry* storage, size_t capacity, const grt_kernel_table* builtin) {
    grt_registry_init(&registry_, storage, capacity, builtin);
  }
  grt_status add(const char* name, TVMBackendPackedCFunc function, TVMBackendPackedCFunc check = nullptr) {
    return grt_registry_add(&registry_, name, function, check);
  }
  const grt_registry* get() const { return &registry_; }

 private:
  grt_registry registry_;
};

class Executor {
 public:
  Executor() = default;
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;
  ~Executor() { grt_release(executor_); }

  // Static strategy: one buffer per pool of the plan.
  grt_status init_static(void* storage, size_t storage_size, const void* blob, size_t blob_size, const Registry& registry,
                         void* const* pools, const size_t* pool_sizes, uint32_t pool_count, const grt_hooks* hooks = nullptr) {
    grt_options options{};
    options.registry = registry.get();
    options.memory.strategy = GRT_STRATEGY_STATIC;
    options.memory.pool_buffers = pools;
    options.memory.pool_sizes = pool_sizes;
    options.memory.pool_count = pool_count;
    options.hooks = hooks;
    return init(storage, storage_size, blob, blob_size, options);
  }

  // Dynamic or stack strategy over the caller's allocator.
  grt_status init_with_allocator(void* storage, size_t storage_size, const void* blob, size_t blob_size,
                                 const Registry& registry, grt_strategy strategy, const grt_allocator* allocator,
                                 const grt_hooks* hooks = nullptr) {
    grt_options options{};
    options.registry = registry.get();
    options.memory.strategy = strategy;
    options.memory.allocator = allocator;
    options.hooks = hooks;
    return init(storage, storage_size, blob, blob_size, options);
  }

  grt_status init(void* storage, size_t storage_size, const void* blob, size_t blob_size, const grt_options& options) {
    grt_release(executor_);
    executor_ = nullptr;
    return grt_init(&executor_, storage, storage_size, blob, blob_size, &options, &init_error_);
  }

  grt_status run() { return grt_run(executor_); }
  void cancel() { grt_cancel(executor_); }

  DLTensor* input(uint32_t index) { return grt_input(executor_, index); }
  DLTensor* output(uint32_t index) { return grt_output(executor_, index); }
  DLTensor* input(const char* name) { return input_at(grt_input_index(executor_, name)); }
  DLTensor* output(const char* name) { return output_at(grt_output_index(executor_, name)); }
  uint32_t input_count() const { return grt_input_count(executor_); }
  uint32_t output_count() const { return grt_output_count(executor_); }

  // The last error: of init until it succeeds, then of the executor.
  const char* error() const { return executor_ != nullptr ? grt_last_error(executor_)->message : init_error_.message; }
  grt_executor* get() { return executor_; }

 private:
  DLTensor* input_at(int32_t index) { return index < 0 ? nullptr : input(static_cast<uint32_t>(index)); }
  DLTensor* output_at(int32_t index) { return index < 0 ? nullptr : output(static_cast<uint32_t>(index)); }
  grt_executor* executor_ = nullptr;
  grt_error init_error_{};
};

}  // namespace grt

#endif  // GRAPHRT_GRAPHRT_HPP_
