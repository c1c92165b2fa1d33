// grt_subgraph_run and its helpers (graphrt/subgraph.h): the nodes of a subgraph run the
// way run() runs the main graph's, inside the control node that invokes them. Kept out of
// the loader_executor unit so that a program without a control kernel does not link it.
#include "executor_internal.h"
#include "graphrt/subgraph.h"
#include "message.h"

namespace grt {
namespace {

grt_executor* running_executor() { return static_cast<grt_executor*>(*grt_platform_current_slot()); }

// The subgraph, or NULL when there is no such index (no executor, or not in the blob).
const fb::Subgraph* subgraph_of(const grt_executor* x, int64_t index) {
  if (x == nullptr || index < 0 || static_cast<uint64_t>(index) >= count_of(x->model->subgraphs())) return nullptr;
  return x->model->subgraphs()->Get(static_cast<uint32_t>(index));
}

const flatbuffers::Vector<uint32_t>* io_list(const fb::Subgraph* sg, int output) {
  if (sg == nullptr) return nullptr;
  return output != 0 ? sg->outputs() : sg->inputs();
}

bool cancelled(const grt_executor* x) {
  if (x->cancel_requested.load(std::memory_order_relaxed) == 0) return false;
  TVMAPISetLastError("cancelled");
  return true;
}

}  // namespace
}  // namespace grt

extern "C" {

int grt_subgraph_supported(void) {
  grt_executor* x = grt::running_executor();
  if (x == nullptr || grt::subgraph_checks_linked() == 0) return -1;
  return 0;
}

uint32_t grt_subgraph_io_count(int64_t subgraph, int output) {
  return grt::count_of(grt::io_list(grt::subgraph_of(grt::running_executor(), subgraph), output));
}

int grt_subgraph_describe(int64_t subgraph, int output, uint32_t i, DLTensor* d) {
  grt_executor* x = grt::running_executor();
  const auto* list = grt::io_list(grt::subgraph_of(x, subgraph), output);
  if (i >= grt::count_of(list)) return -1;
  grt::describe(x, list->Get(i), d, x->memory_held);
  return 0;
}

int grt_subgraph_run(int64_t subgraph) {
  grt_executor* x = grt::running_executor();
  const auto* sg = grt::subgraph_of(x, subgraph);
  if (sg == nullptr) {
    TVMAPISetLastError("no such subgraph");
    return -1;
  }
  if (grt::cancelled(x)) return -1;
  const uint32_t first = sg->first_node();
  const uint32_t end = first + sg->node_count();
  const bool prepared = grt::is_prepared(x);
  TVMValue* values = x->values;
  int* codes = x->codes;
  const auto* records = static_cast<const grt::NodeRecord*>(x->nodes);
  if (prepared) {
    // PREPARED: arguments are stored in node order; this subgraph's start after all before it.
    for (uint32_t n = 0; n < first; ++n) {
      values += records[n].arg_count;
      codes += records[n].arg_count;
    }
  }
  TVMValue ret;
  int ret_code = 0;
  for (uint32_t n = first; n < end; ++n) {
    const auto* node = x->model->nodes()->Get(n);
    TVMBackendPackedCFunc function;
    uint32_t arg_count;
    if (prepared) {
      function = records[n].function;
      arg_count = records[n].arg_count;
    } else {
      function = static_cast<const TVMBackendPackedCFunc*>(x->nodes)[n];
      arg_count = grt::marshal(x, node, values, codes, x->tensors, true);
    }
    // The hooks see a subgraph's nodes too (their indices follow the main graph's): a
    // before_node that asks to stop cancels the run, as it does between main-graph nodes.
    const grt_hooks* hooks = x->hooks;
    if (hooks != nullptr && hooks->before_node != nullptr && hooks->before_node(hooks->user, n) != 0) {
      grt_cancel(x);
      grt::cancelled(x);  // sets the message
      return -1;
    }
    const size_t workspace_bytes = static_cast<size_t>(node->workspace_bytes());
    // DYNAMIC takes each node's workspace for it alone, as run() does; the subgraph's tensors
    // were taken before its control node, whose span they live in.
    uint8_t* workspace = grt::take_workspace(x, n, node);
    if (workspace == nullptr && workspace_bytes != 0) return -1;  // the message says so already
    if (x->workspace != nullptr) grt_stack_init(x->workspace, workspace, workspace_bytes);
    x->error.message[0] = '\0';
    const uint64_t start = (hooks != nullptr && hooks->node_done != nullptr) ? grt_platform_ticks() : 0;
    const int rc = function(values, codes, static_cast<int>(arg_count), &ret, &ret_code, nullptr);
    if (hooks != nullptr && hooks->node_done != nullptr) hooks->node_done(hooks->user, n, grt::kernel_name(x->model, n), grt_platform_ticks() - start);
    grt::give_back_workspace(x, workspace);
    if (rc != 0) {
      if (x->cancel_requested.load(std::memory_order_relaxed) != 0) return -1;  // the message says so already
      const grt_error said = x->error;
      grt::fail(&x->error, GRT_ERR_KERNEL_FAILED, x->model, "%n failed: %s", n, said.message[0] != '\0' ? said.message : "no message");
      return -1;
    }
    if (grt::cancelled(x)) return -1;
    if (prepared) {
      values += arg_count;
      codes += arg_count;
    }
  }
  return 0;
}

}  // extern "C"
