// The executor's own memory: one grt_executor header followed by its tables, all carved
// out of the storage the caller hands to grt_init. Its size is what
// grt_model_requirements reports as bookkeeping_bytes.
#ifndef GRAPHRT_EXECUTOR_STATE_H_
#define GRAPHRT_EXECUTOR_STATE_H_

#include <atomic>
#include <stddef.h>
#include <stdint.h>

#include "graphrt/graphrt.h"
#include "model_check.h"

namespace grt {

// One per node. Arguments are stored contiguously in node order, so the run loop walks
// them with a cursor instead of storing a pointer per node.
struct NodeRecord {
  TVMBackendPackedCFunc function;
  uint8_t* workspace;        // static strategy: the planned slot; otherwise set per run
  uint32_t workspace_bytes;
  uint32_t arg_count;
};

// An alias resolved to the tensor that owns its bytes.
struct AliasLink {
  uint32_t tensor;
  uint32_t root;
  uint64_t offset;
};

struct Layout {
  size_t tensors = 0, nodes = 0, values = 0, codes = 0, aliases = 0, lifetimes = 0, owned = 0;
  size_t alloc_order = 0, alloc_begin = 0, free_order = 0, free_begin = 0;
  size_t total = 0;
  bool fits = true;  // false if the counts overflow size_t
};

Layout compute_layout(const ModelCounts& counts, grt_strategy strategy);

}  // namespace grt

struct grt_executor {
  const grt::fb::Model* model;
  grt_strategy strategy;
  const grt_allocator* allocator;  // dynamic strategies
  const grt_hooks* hooks;
  uint32_t tensor_count;
  uint32_t node_count;
  uint32_t alias_count;
  uint32_t arg_count;
  DLTensor* tensors;
  grt::NodeRecord* nodes;
  TVMValue* values;
  int* codes;
  grt::AliasLink* aliases;
  grt::Lifetime* lifetimes;
  void** owned;           // dynamic strategies: what this executor took from the allocator
  uint32_t* alloc_order;  // dynamic: activations ordered by first writer
  uint32_t* alloc_begin;  // dynamic: [node_count + 1] ranges into alloc_order
  uint32_t* free_order;   // dynamic: activations ordered by last reader
  uint32_t* free_begin;
  uint8_t* stack_workspace;  // GRT_STRATEGY_STACK: one workspace region for every node
  grt_stack_allocator workspace;
  std::atomic<uint32_t> cancel_requested;
  bool memory_held;  // false after grt_release until memory is bound again
  grt_error error;
  char kernel_message[96];  // what the running kernel passed to TVMAPISetLastError
};

#endif  // GRAPHRT_EXECUTOR_STATE_H_
