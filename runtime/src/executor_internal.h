// What the executor's parts share: the modes this build has, how tensors are found and
// described, and the steps grt_init is made of. Each part is one file of runtime/src:
//   option_validation.cpp     the options and modes grt_init and sizing accept
//   executor_layout.cpp       where each table sits in the caller's storage, for two ABIs
//   requirements.cpp          grt_model_requirements: bytes before init
//   argument_marshalling.cpp  kernel arguments, lean (per node) or prepared (at init)
//   static_pool_binding.cpp   GRT_STRATEGY_STATIC: the caller's pools
//   dynamic_binding.cpp       GRT_STRATEGY_DYNAMIC/STACK: allocator, schedule, new allocators
//   executor_init.cpp         grt_init
//   executor_run.cpp          grt_run, grt_cancel, grt_release
//   executor_accessors.cpp    the C API's accessors (inputs, outputs, nodes)
//   allocation_replay.cpp     grt_replay_allocations and page budgets
//   state_reset.cpp           State tensors' initial values, grt_reset_state
#ifndef GRAPHRT_EXECUTOR_INTERNAL_H_
#define GRAPHRT_EXECUTOR_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>

#include "build_features.h"
#include "executor_state.h"
#include "graphrt/allocator.h"
#include "graphrt/platform.h"
#include "model_check.h"

namespace grt {

constexpr size_t kBookkeepingAlignment = 8;
constexpr size_t kActivationAlignment = 16;

// What this build has (build_features.h): everything a build leaves out folds to false
// here, so its code is not in the image.
inline bool is_dynamic(grt_strategy s) { return kDynamicMemory && (s == GRT_STRATEGY_DYNAMIC || s == GRT_STRATEGY_STACK); }
inline bool is_scheduled(grt_strategy s) { return kDynamicMemory && s == GRT_STRATEGY_DYNAMIC; }
inline bool is_stack(grt_strategy s) { return kDynamicMemory && s == GRT_STRATEGY_STACK; }
inline bool is_prepared(grt_arguments a) { return kPreparedArguments && a == GRT_ARGUMENTS_PREPARED; }
inline grt_strategy strategy_of(const grt_executor* x) { return static_cast<grt_strategy>(x->strategy); }
inline bool is_prepared(const grt_executor* x) { return is_prepared(static_cast<grt_arguments>(x->arguments)); }

inline uint32_t node_count(const grt_executor* x) { return count_of(x->model->nodes()); }

// The name of node's kernel (executor_accessors.cpp).
const char* kernel_name(const fb::Model* model, uint32_t node);

inline bool is_io(const fb::Model* model, uint32_t t) { return io_position(model, t) >= 0; }

// GRT_STRATEGY_DYNAMIC's schedule, laid out one array after another at x->orders.
struct Schedule {
  uint32_t* alloc_order;  // activations ordered by first writer
  uint32_t* alloc_begin;  // [node count + 1]: where each node's range of alloc_order starts
  uint32_t* free_order;   // activations ordered by last reader
  uint32_t* free_begin;
};

inline Schedule schedule(const grt_executor* x) {
  Schedule s;
  s.alloc_order = x->orders;
  s.alloc_begin = s.alloc_order + x->tensor_count;
  s.free_order = s.alloc_begin + node_count(x) + 1;
  s.free_begin = s.free_order + x->tensor_count;
  return s;
}

// The executor running on this thread, for the backend API (TVMAPISetLastError and the
// workspace calls), set for the length of a scope.
class CurrentExecutor {
 public:
  explicit CurrentExecutor(grt_executor* x) : slot_(grt_platform_current_slot()), previous_(*slot_) { *slot_ = x; }
  ~CurrentExecutor() { *slot_ = previous_; }
  CurrentExecutor(const CurrentExecutor&) = delete;
  CurrentExecutor& operator=(const CurrentExecutor&) = delete;

 private:
  void** slot_;
  void* previous_;
};

// ---- option_validation.cpp ----
grt_status validate_modes(grt_strategy strategy, grt_arguments arguments, grt_error* error);
// The options' modes, checked before either enum is loaded.
grt_status validate_option_modes(const grt_options* options, grt_error* error);
grt_status validate_options(const grt_options* options, grt_error* error);

// ---- executor_layout.cpp ----
// Every public entry point that takes a blob: modes, blob, local checks, layout and graph
// checks, one path (instantiated for kNativeSizes and kArm32Sizes). `storage` may be NULL;
// if it holds the layout, the live ranges are left in it.
template <const LayoutSizes& kSizes>
grt_status lay_out(const void* blob, size_t blob_size, grt_strategy strategy, grt_arguments arguments, void* storage,
                   size_t storage_size, const fb::Model** model, ModelCounts* counts, Layout* layout, grt_error* error);
extern template grt_status lay_out<kNativeSizes>(const void*, size_t, grt_strategy, grt_arguments, void*, size_t,
                                                 const fb::Model**, ModelCounts*, Layout*, grt_error*);
extern template grt_status lay_out<kArm32Sizes>(const void*, size_t, grt_strategy, grt_arguments, void*, size_t,
                                                const fb::Model**, ModelCounts*, Layout*, grt_error*);

// ---- argument_marshalling.cpp ----
// The DLTensor that holds a model input's or output's data: what grt_input returns and
// grt_bind_input rebinds. NULL for any other tensor.
DLTensor* io_slot(const grt_executor* x, uint32_t t);
// Describes tensor t into `d`; activations get their data only once memory is `bound`.
void describe(const grt_executor* x, uint32_t t, DLTensor* d, bool bound);
// A node's arguments as packed functions take them; returns how many.
uint32_t marshal(const grt_executor* x, const fb::Node* node, TVMValue* values, int* codes, DLTensor* scratch, bool bound);
// PREPARED: every activation's DLTensor points where its bytes are now.
void sync_prepared(grt_executor* x);
// After memory is bound (or released): inputs, outputs and (PREPARED) everything point at it.
void bind_tensors(grt_executor* x);

// ---- static_pool_binding.cpp ----
grt_status bind_static_pools(grt_executor* x, const grt_memory& m, grt_error* error);

// ---- dynamic_binding.cpp ----
// An out-of-memory failure: of `tensor` (UINT32_MAX: a workspace) at `node` (-1: at init).
grt_status fail_out_of_memory(grt_executor* x, grt_error* error, int64_t node, uint32_t tensor, size_t bytes);
grt_status bind_allocator(grt_executor* x, grt_error* error);
void build_dynamic_orders(grt_executor* x, const Lifetime* lifetimes);
void free_intermediates(grt_executor* x);

// ---- each node's workspace, for run()'s loop and grt_subgraph_run's ----
// Inline, not out of line in one .cpp: as a call, run() grew the runtime core by 32 B at
// -Os (and with a body inlined into run() beside an out-of-line copy for grt_subgraph_run,
// by 4 B: GCC then outlines Node::workspace_pool for its other callers).
//
// Node n's workspace: planned (static pools), the stack strategy's one buffer, or taken from
// the allocator for this node alone (DYNAMIC). NULL when the node has none, or, for a node
// that has one, when the allocator had no room: then x->error says GRT_ERR_OUT_OF_MEMORY
// naming the node.
inline uint8_t* take_workspace(grt_executor* x, uint32_t n, const fb::Node* node) {
  const size_t bytes = static_cast<size_t>(node->workspace_bytes());
  if (bytes == 0) return nullptr;
  if (is_stack(strategy_of(x))) return x->stack_workspace;
  if (!is_scheduled(strategy_of(x))) return x->pool_base[node->workspace_pool()] + node->workspace_offset();
  auto* workspace = static_cast<uint8_t*>(grt_allocate(x->allocator, bytes, kActivationAlignment));
  if (workspace == nullptr) fail_out_of_memory(x, &x->error, n, UINT32_MAX, bytes);
  return workspace;
}

// Gives back what take_workspace took from the allocator (DYNAMIC); nothing otherwise.
inline void give_back_workspace(grt_executor* x, uint8_t* workspace) {
  if (workspace != nullptr && is_scheduled(strategy_of(x))) grt_free(x->allocator, workspace);
}

// ---- state_reset.cpp ----
// Every State tensor back to its initial bytes (memory must be bound).
void reset_state(grt_executor* x);

// ---- executor_init.cpp ----
// grt_init, and the allocation replay, which binds every node to `every_node_kernel`
// instead of resolving names (NULL: resolve through options->registry).
grt_status init_executor(grt_executor** out, void* storage, size_t storage_size, const void* blob, size_t blob_size,
                         const grt_options* options, grt_error* error, const grt_kernel_entry* every_node_kernel);

}  // namespace grt

#endif  // GRAPHRT_EXECUTOR_INTERNAL_H_
