// The executor's run loop, cancellation and release. run() looks nothing up and checks
// nothing the loader proved: a loop over function pointers resolved at init.
#include "executor_internal.h"
#include "graphrt/dynamic_memory.h"
#include "message.h"
#include "shared_pool_internal.h"

namespace grt {
namespace {

// Kept out of line: its copy of the error record would otherwise sit in run()'s frame, on
// every task's stack, for a path that runs once.
__attribute__((noinline, cold)) grt_status kernel_failed(grt_executor* x, uint32_t node, int code) {
  // What the kernel passed to TVMAPISetLastError is in the message about to be rewritten.
  const grt_error said = x->error;
  // A control node stops its loop when the run is cancelled (grt_subgraph_run).
  if (x->cancel_requested.load(std::memory_order_relaxed) != 0) return fail(&x->error, GRT_ERR_CANCELLED, x->model, "cancelled in %n", node);
  // A node of a subgraph it ran found no room for its workspace (DYNAMIC): that, not a kernel failure.
  if (said.status == GRT_ERR_OUT_OF_MEMORY) return said.status;
  if (said.message[0] != '\0') return fail(&x->error, GRT_ERR_KERNEL_FAILED, x->model, "%n failed: %s", node, said.message);
  return fail(&x->error, GRT_ERR_KERNEL_FAILED, x->model, "%n failed with code %d", node, code);
}

grt_status cancelled(grt_executor* x, uint32_t node) {
  return fail(&x->error, GRT_ERR_CANCELLED, nullptr, "cancelled before node %u", node);
}

// PREPARED with planned memory and no hooks, the dispatch benchmark's case: nothing but
// the calls and a flag.
grt_status run_static(grt_executor* x) {
  const NodeRecord* node = static_cast<const NodeRecord*>(x->nodes);
  TVMValue* values = x->values;
  int* codes = x->codes;
  TVMValue ret;
  int ret_code = 0;
  const uint32_t nodes = main_node_count(x->model);  // subgraphs' nodes run inside their callers
  for (uint32_t n = 0; n < nodes; ++n, ++node) {
    // Every node gets its own workspace, an empty one included: none inherits the previous node's.
    if (x->workspace != nullptr) grt_stack_init(x->workspace, node->workspace, node->workspace_bytes);
    const int rc = node->function(values, codes, static_cast<int>(node->arg_count), &ret, &ret_code, nullptr);
    if (rc != 0) return kernel_failed(x, n, rc);
    if (x->cancel_requested.load(std::memory_order_relaxed) != 0) return cancelled(x, n + 1);
    values += node->arg_count;
    codes += node->arg_count;
  }
  return GRT_OK;
}

// LEAN, hooks, and dynamic memory.
grt_status run_general(grt_executor* x) {
  const grt_strategy strategy = strategy_of(x);
  const bool dynamic = is_scheduled(strategy);
  const bool prepared = is_prepared(x);
  const grt_hooks* hooks = x->hooks;
  TVMValue* values = x->values;
  int* codes = x->codes;
  const Schedule schedule_of_dynamic = dynamic ? schedule(x) : Schedule{};
  const uint32_t* alloc_begin = schedule_of_dynamic.alloc_begin;
  const uint32_t* alloc_order = schedule_of_dynamic.alloc_order;
  const uint32_t* free_begin = schedule_of_dynamic.free_begin;
  const uint32_t* free_order = schedule_of_dynamic.free_order;
  TVMValue ret;
  int ret_code = 0;
  const uint32_t nodes = main_node_count(x->model);  // subgraphs' nodes run inside their callers
  for (uint32_t n = 0; n < nodes; ++n) {
    const auto* node = x->model->nodes()->Get(n);
    if (hooks != nullptr && hooks->before_node != nullptr && hooks->before_node(hooks->user, n) != 0) {
      if (dynamic) free_intermediates(x);
      return cancelled(x, n);
    }
    if (dynamic) {
      for (uint32_t i = alloc_begin[n]; i < alloc_begin[n + 1]; ++i) {
        const uint32_t t = alloc_order[i];
        const size_t bytes = static_cast<size_t>(tensor_bytes(x->model->tensors()->Get(t)));
        void* p = grt_allocate(x->allocator, bytes, kActivationAlignment);
        if (p == nullptr) {
          const grt_status s = fail_out_of_memory(x, &x->error, n, t, bytes);
          free_intermediates(x);
          return s;
        }
        x->owned[t] = p;
      }
      if (alloc_begin[n] != alloc_begin[n + 1]) sync_prepared(x);
    }
    const size_t workspace_bytes = static_cast<size_t>(node->workspace_bytes());
    uint8_t* workspace = take_workspace(x, n, node);
    if (dynamic && workspace == nullptr && workspace_bytes != 0) {  // the allocator had no room
      free_intermediates(x);
      return GRT_ERR_OUT_OF_MEMORY;  // x->error names the node and the bytes
    }
    if (x->workspace != nullptr) grt_stack_init(x->workspace, workspace, workspace_bytes);
    TVMBackendPackedCFunc function;
    uint32_t arg_count;
    if (prepared) {
      const NodeRecord& record = static_cast<const NodeRecord*>(x->nodes)[n];
      function = record.function;
      arg_count = record.arg_count;
    } else {
      function = static_cast<const TVMBackendPackedCFunc*>(x->nodes)[n];
      arg_count = marshal(x, node, values, codes, x->tensors, true);
    }
    const uint64_t start = (hooks != nullptr && hooks->node_done != nullptr) ? grt_platform_ticks() : 0;
    const int rc = function(values, codes, static_cast<int>(arg_count), &ret, &ret_code, nullptr);
    if (hooks != nullptr && hooks->node_done != nullptr) {
      hooks->node_done(hooks->user, n, kernel_name(x->model, n), grt_platform_ticks() - start);
    }
    give_back_workspace(x, workspace);
    if (rc != 0) {
      if (dynamic) free_intermediates(x);
      return kernel_failed(x, n, rc);
    }
    if (dynamic) {
      for (uint32_t i = free_begin[n]; i < free_begin[n + 1]; ++i) {
        const uint32_t t = free_order[i];
        grt_free(x->allocator, x->owned[t]);
        x->owned[t] = nullptr;
      }
    }
    if (x->cancel_requested.load(std::memory_order_relaxed) != 0) {
      if (dynamic) free_intermediates(x);
      return cancelled(x, n + 1);
    }
    if (prepared) {
      values += arg_count;
      codes += arg_count;
    }
  }
  return GRT_OK;
}

}  // namespace
}  // namespace grt

using grt::fail;

extern "C" {

grt_status grt_run(grt_executor* x) {
  if (x == nullptr) return GRT_ERR_ARGUMENT;
  grt::clear_error(&x->error);
  if (!x->memory_held) {
    return fail(&x->error, GRT_ERR_ARGUMENT, nullptr, "executor holds no memory: it was released; bind an allocator again first");
  }
  grt::SharedPoolHold shared_pool_hold(x, x->shared_pool);
  if (shared_pool_hold.status() != GRT_OK) return shared_pool_hold.status();
  x->cancel_requested.store(0, std::memory_order_relaxed);
  grt::CurrentExecutor current(x);
  if (grt::is_prepared(x) && !grt::is_scheduled(grt::strategy_of(x)) && x->hooks == nullptr) return grt::run_static(x);
  return grt::run_general(x);
}

void grt_cancel(grt_executor* x) {
  if (x != nullptr) x->cancel_requested.store(1, std::memory_order_relaxed);
}

void grt_release(grt_executor* x) {
  if (x == nullptr || !grt::is_dynamic(grt::strategy_of(x))) return;
  x->memory_held = false;
  // Reverse order keeps a stack allocator's frees LIFO.
  if (grt::is_stack(grt::strategy_of(x)) && x->stack_workspace != nullptr) {
    grt_free(x->allocator, x->stack_workspace);
    x->stack_workspace = nullptr;
  }
  for (uint32_t t = x->tensor_count; t > 0; --t) {
    if (x->owned[t - 1] == nullptr) continue;
    grt_free(x->allocator, x->owned[t - 1]);
    x->owned[t - 1] = nullptr;
  }
  grt::bind_tensors(x);
}

}  // extern "C"
