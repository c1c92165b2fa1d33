// What the core loader knows of subgraphs (schema 1.2): how many nodes the main graph
// runs, and the defaults of the subgraph checks for a program that links no control-flow
// kernel. Those defaults are weak: subgraph_check.cpp, linked with the control kernels
// (through grt_subgraph_run), replaces them with the real checks. So a model without
// subgraphs pays for a few calls, and a blob with subgraphs is refused by name where no
// kernel could run it.
#include "message.h"
#include "model_check.h"

namespace grt {

uint32_t main_node_count(const fb::Model* model) {
  const auto* subgraphs = model->subgraphs();
  return count_of(subgraphs) == 0 ? count_of(model->nodes()) : subgraphs->Get(0)->first_node();
}

__attribute__((weak)) grt_status check_subgraphs(const fb::Model* model, grt_error* error) {
  const uint32_t count = count_of(model->subgraphs());
  if (count == 0) return GRT_OK;  // a Subgraph argument then reaches no kernel that reads it
  return fail(error, GRT_ERR_GRAPH, nullptr, "blob has %u subgraphs (IF, WHILE); this program links no control-flow kernel", count);
}

// Without subgraphs (the default check refused any) these have nothing to do.
__attribute__((weak)) Lifetime node_span(const fb::Model*, uint32_t n) { return Lifetime{n, n}; }

__attribute__((weak)) void note_subgraph_inputs(const fb::Model*, Lifetime*, uint32_t, uint32_t) {}

__attribute__((weak)) grt_status finish_subgraph_window(const fb::Model*, Lifetime*, uint32_t, uint32_t, grt_error*) {
  return GRT_OK;
}

}  // namespace grt
