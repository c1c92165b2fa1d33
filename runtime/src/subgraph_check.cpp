// The loader's checks of subgraphs (schema 1.2), replacing the core's weak defaults
// (model_subgraph_check.cpp) in every program that links a control-flow kernel: the
// subgraph table, which graph owns each node and tensor, that a node invokes only later
// graphs (no recursion), and each subgraph's live span for the plan checks.
#include "message.h"
#include "model_check.h"

namespace grt {
namespace {

constexpr uint32_t kNoNode = UINT32_MAX;

// The graph that owns node (node true) or tensor `index`: 0 the main graph, s + 1 subgraph s.
uint32_t graph_of(const fb::Model* model, uint32_t index, bool node) {
  const auto* subgraphs = model->subgraphs();
  uint32_t graph = 0;
  for (uint32_t s = 0; s < count_of(subgraphs); ++s) {
    const auto* sg = subgraphs->Get(s);
    if (index >= (node ? sg->first_node() : sg->first_tensor())) graph = s + 1;
  }
  return graph;
}

bool in_graph(const fb::Model* model, uint32_t graph, uint32_t t) {
  const auto* subgraphs = model->subgraphs();
  if (graph == 0) return t < subgraphs->Get(0)->first_tensor();
  const auto* sg = subgraphs->Get(graph - 1);
  return t - sg->first_tensor() < sg->tensor_count();  // unsigned: below the range wraps
}

// The ranges tile the node and tensor lists, in order, after the main graph's.
grt_status check_table(const fb::Model* model, grt_error* error) {
  const auto* subgraphs = model->subgraphs();
  const uint32_t count = count_of(subgraphs);
  if (count > kMaxSubgraphs) {
    return fail(error, GRT_ERR_GRAPH, nullptr, "blob has %u subgraphs, at most %u are supported", count, kMaxSubgraphs);
  }
  const uint32_t nodes = count_of(model->nodes());
  const uint32_t tensors = count_of(model->tensors());
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
  return GRT_OK;
}

// Inputs and outputs: the model's in the main graph, each subgraph's activations of its own.
grt_status check_lists(const fb::Model* model, grt_error* error) {
  for (const auto* list : {model->inputs(), model->outputs()}) {
    for (uint32_t i = 0; i < count_of(list); ++i) {
      if (!in_graph(model, 0, list->Get(i))) {
        return fail(error, GRT_ERR_GRAPH, model, "model input or output %t is a tensor of a subgraph", list->Get(i));
      }
    }
  }
  const auto* subgraphs = model->subgraphs();
  for (uint32_t s = 0; s < count_of(subgraphs); ++s) {
    const auto* sg = subgraphs->Get(s);
    for (const auto* list : {sg->inputs(), sg->outputs()}) {
      for (uint32_t i = 0; i < count_of(list); ++i) {
        const uint32_t t = list->Get(i);
        if (!in_graph(model, s + 1, t)) {
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

// Every tensor a node names, and every alias target, is of its own graph; a node invokes
// only later graphs, so no graph invokes itself, directly or through others.
grt_status check_membership(const fb::Model* model, grt_error* error) {
  const uint32_t subgraphs = count_of(model->subgraphs());
  for (uint32_t n = 0; n < count_of(model->nodes()); ++n) {
    const uint32_t graph = graph_of(model, n, true);
    const auto* args = model->nodes()->Get(n)->args();
    for (uint32_t a = 0; a < count_of(args); ++a) {
      const auto kind = args->Get(a)->kind();
      const int64_t value = args->Get(a)->value();  // a tensor's: in range (check_arg)
      if (kind == fb::ArgKind::Subgraph && (value < 0 || static_cast<uint64_t>(value) >= subgraphs)) {
        return fail(error, GRT_ERR_INDEX_RANGE, model, "%n argument %u invokes subgraph %d, but the blob has %u", n, a, value, subgraphs);
      }
      if (kind == fb::ArgKind::Subgraph && static_cast<uint64_t>(value) < graph) {
        return fail(error, GRT_ERR_INDEX_RANGE, model,
                    "%n argument %u invokes subgraph %d: a node of graph %u may invoke only subgraphs from %u on (no recursion)", n, a,
                    value, graph, graph);
      }
      const bool tensor = kind == fb::ArgKind::Input || kind == fb::ArgKind::Output || kind == fb::ArgKind::IntArray;
      if (tensor && subgraphs != 0 && !in_graph(model, graph, static_cast<uint32_t>(value))) {
        return fail(error, GRT_ERR_GRAPH, model, "%n argument %u names %t, which is not a tensor of its graph", n, a, value);
      }
    }
  }
  if (subgraphs == 0) return GRT_OK;
  for (uint32_t t = 0; t < count_of(model->tensors()); ++t) {
    const auto* tensor = model->tensors()->Get(t);
    if (tensor->kind() == fb::TensorKind::Alias && graph_of(model, tensor->alias_of(), false) != graph_of(model, t, false)) {
      return fail(error, GRT_ERR_ALIAS, model, "%t aliases tensor %u, which is not a tensor of its graph", t, tensor->alias_of());
    }
  }
  return GRT_OK;
}

}  // namespace

grt_status check_subgraphs(const fb::Model* model, grt_error* error) {
  // Without subgraphs, only a Subgraph argument (naming none) can be wrong.
  if (count_of(model->subgraphs()) == 0) return check_membership(model, error);
  grt_status s = check_table(model, error);
  if (s == GRT_OK) s = check_lists(model, error);
  if (s == GRT_OK) s = check_membership(model, error);
  return s;
}

namespace {

// Each subgraph's span (kMaxSubgraphs entries). Nodes are in graph order and a node
// invokes only later graphs, so every caller of a subgraph comes before its nodes: one pass
// in node order gives each span in full.
void compute_spans(const fb::Model* model, Lifetime* spans) {
  const uint32_t count = count_of(model->subgraphs());
  for (uint32_t s = 0; s < count; ++s) spans[s] = Lifetime{kNoNode, kNoNode};
  for (uint32_t n = 0; n < count_of(model->nodes()) && count != 0; ++n) {
    const uint32_t graph = graph_of(model, n, true);
    const Lifetime caller = graph == 0 ? Lifetime{n, n} : spans[graph - 1];
    if (caller.first == kNoNode) continue;  // never invoked: neither is what it invokes
    const auto* args = model->nodes()->Get(n)->args();
    for (uint32_t a = 0; a < count_of(args); ++a) {
      if (args->Get(a)->kind() != fb::ArgKind::Subgraph) continue;
      Lifetime& span = spans[args->Get(a)->value()];
      if (span.first == kNoNode || caller.first < span.first) span.first = caller.first;
      if (span.last == kNoNode || caller.last > span.last) span.last = caller.last;
    }
  }
}

}  // namespace

Lifetime node_span(const fb::Model* model, uint32_t n) {
  const uint32_t graph = graph_of(model, n, true);
  if (graph == 0) return Lifetime{n, n};
  Lifetime spans[kMaxSubgraphs];
  compute_spans(model, spans);
  return spans[graph - 1];
}

// A subgraph's inputs are written by the node that invokes it, before its first node.
void note_subgraph_inputs(const fb::Model* model, Lifetime* lives, uint32_t first, uint32_t count) {
  const auto* subgraphs = model->subgraphs();
  for (uint32_t s = 0; s < count_of(subgraphs); ++s) {
    const auto* sg = subgraphs->Get(s);
    for (uint32_t i = 0; i < count_of(sg->inputs()); ++i) {
      const uint32_t t = sg->inputs()->Get(i);
      if (t - first < count) lives[t - first] = Lifetime{sg->first_node(), sg->first_node()};
    }
  }
}

grt_status finish_subgraph_window(const fb::Model* model, Lifetime* lives, uint32_t first, uint32_t count, grt_error* error) {
  const auto* subgraphs = model->subgraphs();
  if (count_of(subgraphs) == 0) return GRT_OK;
  Lifetime spans[kMaxSubgraphs];
  compute_spans(model, spans);
  for (uint32_t s = 0; s < count_of(subgraphs); ++s) {
    const auto* outputs = subgraphs->Get(s)->outputs();
    for (uint32_t i = 0; i < count_of(outputs); ++i) {
      const uint32_t t = outputs->Get(i);
      if (t - first < count && lives[t - first].first == kNoNode) {
        return fail(error, GRT_ERR_GRAPH_ORDER, model, "subgraph %u output %u is %t, which no node of it writes", s, i, t);
      }
    }
  }
  // Production order within a subgraph was checked on its own node indices; its tensors
  // now live for its whole span (or not at all if nothing invokes it).
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t graph = graph_of(model, first + i, false);
    const bool state = model->tensors()->Get(first + i)->kind() == fb::TensorKind::State;
    if (graph != 0 && !state && lives[i].first != kNoNode) lives[i] = spans[graph - 1];
  }
  return GRT_OK;
}

// grt_subgraph_run's reference to this keeps the file in every program that can run a
// subgraph (an archive member is not linked only to replace weak definitions).
int subgraph_checks_linked() { return 1; }

}  // namespace grt
