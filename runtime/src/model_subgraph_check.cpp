// Subgraphs (schema 1.2, control flow): which graph owns a node or a tensor, the subgraph
// table's own checks, and the live span of each subgraph. A blob without subgraphs passes
// through each of these in a few instructions.
#include "message.h"
#include "model_check.h"

namespace grt {

uint32_t main_node_count(const fb::Model* model) {
  const auto* subgraphs = model->subgraphs();
  return count_of(subgraphs) == 0 ? count_of(model->nodes()) : subgraphs->Get(0)->first_node();
}

uint32_t graph_of(const fb::Model* model, uint32_t index, bool node) {
  const auto* subgraphs = model->subgraphs();
  uint32_t graph = 0;
  for (uint32_t s = 0; s < count_of(subgraphs); ++s) {
    const auto* sg = subgraphs->Get(s);
    if (index >= (node ? sg->first_node() : sg->first_tensor())) graph = s + 1;
  }
  return graph;
}

GraphRange tensor_range(const fb::Model* model, uint32_t graph) {
  const auto* subgraphs = model->subgraphs();
  if (graph == 0) return {0, count_of(subgraphs) == 0 ? count_of(model->tensors()) : subgraphs->Get(0)->first_tensor()};
  const auto* sg = subgraphs->Get(graph - 1);
  return {sg->first_tensor(), sg->first_tensor() + sg->tensor_count()};
}

grt_status check_subgraphs(const fb::Model* model, grt_error* error) {
  const auto* subgraphs = model->subgraphs();
  const uint32_t count = count_of(subgraphs);
  if (count == 0) return GRT_OK;
  if (count > kMaxSubgraphs) {
    return fail(error, GRT_ERR_GRAPH, nullptr, "blob has %u subgraphs, at most %u are supported", count, kMaxSubgraphs);
  }
  const uint32_t nodes = count_of(model->nodes());
  const uint32_t tensors = count_of(model->tensors());
  // Each subgraph starts where the previous graph ends: the ranges tile both lists.
  uint64_t node_end = subgraphs->Get(0)->first_node();
  uint64_t tensor_end = subgraphs->Get(0)->first_tensor();
  for (uint32_t s = 0; s < count; ++s) {
    const auto* sg = subgraphs->Get(s);
    if (sg->first_node() != node_end || sg->first_tensor() != tensor_end) {
      return fail(error, GRT_ERR_GRAPH, nullptr, "subgraph %u starts at node %u and tensor %u, not where the graph before it ends (%u, %u)",
                  s, sg->first_node(), sg->first_tensor(), node_end, tensor_end);
    }
    node_end += sg->node_count();
    tensor_end += sg->tensor_count();
    if (node_end > nodes || tensor_end > tensors) {
      return fail(error, GRT_ERR_INDEX_RANGE, nullptr, "subgraph %u ends at node %u and tensor %u, but the blob has %u and %u", s,
                  node_end, tensor_end, nodes, tensors);
    }
  }
  if (node_end != nodes || tensor_end != tensors) {
    return fail(error, GRT_ERR_GRAPH, nullptr, "the last subgraph ends at node %u and tensor %u, but the blob has %u and %u", node_end,
                tensor_end, nodes, tensors);
  }
  for (uint32_t s = 0; s < count; ++s) {
    const auto* sg = subgraphs->Get(s);
    for (const auto* list : {sg->inputs(), sg->outputs()}) {
      for (uint32_t i = 0; i < count_of(list); ++i) {
        const uint32_t t = list->Get(i);
        if (t - sg->first_tensor() >= sg->tensor_count()) {  // unsigned: below the range wraps
          return fail(error, GRT_ERR_INDEX_RANGE, nullptr, "subgraph %u lists tensor %u, outside its tensors %u..%u", s, t,
                      sg->first_tensor(), sg->first_tensor() + sg->tensor_count());
        }
        if (model->tensors()->Get(t)->kind() != fb::TensorKind::Activation) {
          return fail(error, GRT_ERR_GRAPH, model, "subgraph %u lists %t, which is not a planned activation", s, t);
        }
      }
    }
  }
  return GRT_OK;
}

// Nodes are in graph order and a node invokes only later graphs, so every caller of a
// subgraph comes before its nodes: one pass in node order gives each span in full.
void subgraph_spans(const fb::Model* model, Lifetime* spans) {
  const uint32_t count = count_of(model->subgraphs());
  for (uint32_t s = 0; s < count; ++s) spans[s] = Lifetime{UINT32_MAX, UINT32_MAX};
  if (count == 0) return;
  for (uint32_t n = 0; n < count_of(model->nodes()); ++n) {
    const Lifetime caller = node_span(model, spans, n);
    if (caller.first == UINT32_MAX) continue;  // never invoked: neither is what it invokes
    const auto* args = model->nodes()->Get(n)->args();
    for (uint32_t a = 0; a < count_of(args); ++a) {
      if (args->Get(a)->kind() != fb::ArgKind::Subgraph) continue;
      Lifetime& span = spans[args->Get(a)->value()];
      if (span.first == UINT32_MAX || caller.first < span.first) span.first = caller.first;
      if (span.last == UINT32_MAX || caller.last > span.last) span.last = caller.last;
    }
  }
}

Lifetime node_span(const fb::Model* model, const Lifetime* spans, uint32_t n) {
  const uint32_t graph = graph_of(model, n, true);
  return graph == 0 ? Lifetime{n, n} : spans[graph - 1];
}

}  // namespace grt
