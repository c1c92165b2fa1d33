// The graph checks, which need one Lifetime per tensor of scratch: every tensor is written
// before it is read (production order), and the plan never gives two tensors live at once,
// or a workspace and a tensor live at its node, the same pool bytes.
#include <initializer_list>

#include "message.h"
#include "model_check.h"

namespace grt {
namespace {

constexpr uint32_t kNoNode = UINT32_MAX;  // a lifetime not begun yet

bool ranges_overlap(uint64_t a_begin, uint64_t a_size, uint64_t b_begin, uint64_t b_size) {
  return a_size != 0 && b_size != 0 && a_begin < b_begin + b_size && b_begin < a_begin + a_size;
}

bool lifetimes_overlap(const Lifetime& a, const Lifetime& b) { return a.first <= b.last && b.first <= a.last; }

}  // namespace

// Records when node `n` touches tensor `value` (an Input or Output argument) in its root's
// lifetime. Reading a tensor no node wrote before is an error; constants have no lifetime.
grt_status note_use(const fb::Model* model, Lifetime* lifetimes, uint32_t n, uint32_t value, bool writes, grt_error* error) {
  uint64_t offset = 0;
  const uint32_t root = alias_root(model, value, &offset);
  Lifetime& life = lifetimes[root];
  if (writes) {
    if (life.first == kNoNode) life.first = n;
    if (life.last == kNoNode || life.last < n) life.last = n;
    return GRT_OK;
  }
  if (model->tensors()->Get(root)->kind() == fb::TensorKind::Constant) return GRT_OK;
  if (life.first == kNoNode) {
    return fail(error, GRT_ERR_GRAPH_ORDER, model, "%n reads %t before any node writes it", n, value);
  }
  life.last = n;
  return GRT_OK;
}

grt_status check_model_graph(const fb::Model* model, Lifetime* lifetimes, grt_error* error) {
  clear_error(error);
  const auto* tensors = model->tensors();
  const uint32_t tensor_count = count_of(tensors);
  const uint32_t nodes = count_of(model->nodes());
  const uint32_t end = nodes == 0 ? 0 : nodes - 1;
  for (uint32_t t = 0; t < tensor_count; ++t) lifetimes[t] = Lifetime{kNoNode, kNoNode};
  for (uint32_t i = 0; i < count_of(model->inputs()); ++i) lifetimes[model->inputs()->Get(i)] = Lifetime{0, 0};
  for (uint32_t n = 0; n < nodes; ++n) {
    const auto* args = model->nodes()->Get(n)->args();
    // Reads first: a node that reads and writes one tensor reads what an earlier node wrote.
    for (const fb::ArgKind pass : {fb::ArgKind::Input, fb::ArgKind::Output}) {
      for (uint32_t a = 0; a < count_of(args); ++a) {
        const auto* arg = args->Get(a);
        if (arg->kind() != pass) continue;
        const grt_status s = note_use(model, lifetimes, n, static_cast<uint32_t>(arg->value()), pass == fb::ArgKind::Output, error);
        if (s != GRT_OK) return s;
      }
    }
  }
  for (uint32_t i = 0; i < count_of(model->outputs()); ++i) {
    const uint32_t t = model->outputs()->Get(i);
    if (lifetimes[t].first == kNoNode) {
      return fail(error, GRT_ERR_GRAPH_ORDER, model, "output %u is %t, which no node writes", i, t);
    }
    lifetimes[t].last = end;
  }
  // Aliases carry their root's range, so callers can look up any tensor.
  for (uint32_t t = 0; t < tensor_count; ++t) {
    if (tensors->Get(t)->kind() != fb::TensorKind::Alias) continue;
    uint64_t offset = 0;
    lifetimes[t] = lifetimes[alias_root(model, t, &offset)];
  }
  // The plan: no two activations that are live together share a byte of a pool, and no
  // workspace shares bytes with an activation live at its node.
  auto planned = [&](uint32_t t) {
    return tensors->Get(t)->kind() == fb::TensorKind::Activation && lifetimes[t].first != kNoNode;
  };
  for (uint32_t i = 0; i < tensor_count; ++i) {
    if (!planned(i)) continue;
    const auto* a = tensors->Get(i);
    const uint64_t a_bytes = tensor_bytes(a);
    for (uint32_t j = i + 1; j < tensor_count; ++j) {
      const auto* b = tensors->Get(j);
      if (!planned(j) || b->pool() != a->pool() || !lifetimes_overlap(lifetimes[i], lifetimes[j])) continue;
      if (!ranges_overlap(a->offset(), a_bytes, b->offset(), tensor_bytes(b))) continue;
      const uint32_t both = lifetimes[i].first > lifetimes[j].first ? lifetimes[i].first : lifetimes[j].first;
      return fail(error, GRT_ERR_PLAN_OVERLAP, model, "plan overlap: %t and %t share bytes of %p while both are live at node %u",
                  i, j, a->pool(), both);
    }
  }
  for (uint32_t n = 0; n < nodes; ++n) {
    const auto* node = model->nodes()->Get(n);
    if (node->workspace_bytes() == 0) continue;
    for (uint32_t t = 0; t < tensor_count; ++t) {
      const auto* a = tensors->Get(t);
      if (!planned(t) || a->pool() != node->workspace_pool() || lifetimes[t].first > n || lifetimes[t].last < n) continue;
      if (!ranges_overlap(a->offset(), tensor_bytes(a), node->workspace_offset(), node->workspace_bytes())) continue;
      return fail(error, GRT_ERR_PLAN_OVERLAP, model, "plan overlap: %n workspace shares bytes of %p with live %t", n, a->pool(), t);
    }
  }
  return GRT_OK;
}

}  // namespace grt
