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

// GRT_ARGUMENTS_PREPARED: one per node. Arguments are stored contiguously in node order,
// so the run loop walks them with a cursor instead of storing a pointer per node.
struct NodeRecord {
  TVMBackendPackedCFunc function;
  uint8_t* workspace;        // static and stack strategies: the node's workspace
  uint32_t workspace_bytes;
  uint32_t arg_count;
};

// Byte offsets into the storage. The lifetimes are needed only while init checks the
// graph and orders the dynamic strategy's allocations, so they overlap the tables filled
// after that.
struct Layout {
  size_t orders = 0, workspace = 0, nodes = 0, io = 0, pool_base = 0, values = 0, codes = 0, tensors = 0, owned = 0;
  size_t lifetimes = 0;
  size_t total = 0;
  bool fits = true;  // false if the counts overflow size_t
};

// The sizes and alignments a layout depends on, for one ABI (constants below: the layout
// code is instantiated per table, so the device's folds to immediates).
struct LayoutSizes {
  size_t executor;
  size_t dl_tensor, dl_tensor_align;
  size_t tvm_value, tvm_value_align;
  size_t node_record, node_record_align;
  size_t pointer;  // data and function pointers alike
  size_t stack_allocator, stack_allocator_align;
};

// grt_model_requirements_for with the layout of the ABI kSizes describes (instantiated in
// requirements.cpp for kNativeSizes and kArm32Sizes).
template <const LayoutSizes& kSizes>
grt_status requirements_for(const void* blob, size_t blob_size, const grt_options* options, grt_requirements* out,
                            grt_error* error);

}  // namespace grt

// Fields only one strategy uses share storage, and the workspace allocator exists only if
// some node has a workspace: small models pay for little more than the error message.
struct grt_executor {
  const grt::fb::Model* model;
  const grt_allocator* allocator;  // dynamic strategies
  const grt_hooks* hooks;
  const char* name;              // grt_options.name (may be NULL)
  grt_shared_pool* shared_pool;  // grt_options.shared_pool: taken by each run (may be NULL)
  // LEAN: one function per node. PREPARED: one NodeRecord per node.
  void* nodes;
  // LEAN: scratch for the arguments of one node (tensors: those that are not inputs or
  // outputs). PREPARED: every tensor, and every node's arguments.
  DLTensor* tensors;
  TVMValue* values;
  int* codes;
  DLTensor* io;  // LEAN: one per entry of the input list, then of the output list
  union {
    uint8_t** pool_base;  // GRT_STRATEGY_STATIC: each pool's buffer
    void** owned;         // dynamic strategies: what this executor took from the allocator, per tensor
  };
  union {
    // GRT_STRATEGY_DYNAMIC: activations ordered by first writer (tensor_count), the start
    // of each node's range in it (node count + 1), then the same by last reader.
    uint32_t* orders;
    uint8_t* stack_workspace;  // GRT_STRATEGY_STACK: one workspace region for every node
  };
  grt_stack_allocator* workspace;  // the running node's workspace; NULL if no node has one
  uint32_t tensor_count;
  std::atomic<uint32_t> cancel_requested;
  uint8_t strategy;   // grt_strategy
  uint8_t arguments;  // grt_arguments
  bool memory_held;   // false after grt_release until memory is bound again
  // Also where TVMAPISetLastError writes while a kernel runs or is checked: the failure
  // message is composed around that text afterwards.
  grt_error error;
};

namespace grt {

// This build's ABI.
inline constexpr LayoutSizes kNativeSizes = {
    sizeof(grt_executor),
    sizeof(DLTensor), alignof(DLTensor),
    sizeof(TVMValue), alignof(TVMValue),
    sizeof(NodeRecord), alignof(NodeRecord),
    sizeof(void*),
    sizeof(grt_stack_allocator), alignof(grt_stack_allocator),
};
static_assert(sizeof(TVMBackendPackedCFunc) == sizeof(void*) && sizeof(uint8_t*) == sizeof(void*), "one pointer size");
static_assert(sizeof(int) == 4 && sizeof(Lifetime) == 8, "the same on every ABI graphrt sizes for");

// 32-bit Arm (AAPCS: Cortex-M, and Cortex-A in 32-bit mode). Host tools size firmware's
// storage from it at build time; a build for such a target proves it equal to the native
// table (executor_layout.cpp).
inline constexpr LayoutSizes kArm32Sizes = {
    224,    // grt_executor (its error message is 160 of it)
    40, 8,  // DLTensor
    8, 8,   // TVMValue
    16, 4,  // NodeRecord
    4,      // pointers
    32, 4,  // grt_stack_allocator
};

extern template grt_status requirements_for<kNativeSizes>(const void*, size_t, const grt_options*, grt_requirements*, grt_error*);
extern template grt_status requirements_for<kArm32Sizes>(const void*, size_t, const grt_options*, grt_requirements*, grt_error*);

}  // namespace grt

#endif  // GRAPHRT_EXECUTOR_STATE_H_
