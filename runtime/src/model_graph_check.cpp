// The graph checks: every tensor is written before it is read (production order), and the
// plan never gives two tensors live at once, or a workspace and a tensor live at its node,
// the same pool bytes. They need a live range per tensor: all at once when the caller has
// the room (grt_init), in windows over a small array otherwise (the sizing calls).
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

// The live ranges of the tensors of one window [first, first + count) of the tensor list
// (roots: an alias's entry is left unset), and the production order of those tensors: a
// node reads only what an earlier node wrote, and every output is written.
grt_status note_window(const fb::Model* model, Lifetime* lives, uint32_t first, uint32_t count, grt_error* error) {
  const auto in_window = [first, count](uint32_t t) { return t - first < count; };  // unsigned: below `first` wraps
  const uint32_t nodes = count_of(model->nodes());
  const uint32_t main_nodes = main_node_count(model);
  const uint32_t end = main_nodes == 0 ? 0 : main_nodes - 1;
  // State is live for the whole run (and between runs): its slot is nobody else's.
  for (uint32_t i = 0; i < count; ++i) {
    const bool state = model->tensors()->Get(first + i)->kind() == fb::TensorKind::State;
    lives[i] = state ? Lifetime{0, end} : Lifetime{kNoNode, kNoNode};
  }
  for (uint32_t i = 0; i < count_of(model->inputs()); ++i) {
    const uint32_t t = model->inputs()->Get(i);
    if (in_window(t)) lives[t - first] = Lifetime{0, 0};
  }
  note_subgraph_inputs(model, lives, first, count);
  for (uint32_t n = 0; n < nodes; ++n) {
    const auto* args = model->nodes()->Get(n)->args();
    // Reads first: a node that reads and writes one tensor reads what an earlier node wrote.
    for (const fb::ArgKind pass : {fb::ArgKind::Input, fb::ArgKind::Output}) {
      for (uint32_t a = 0; a < count_of(args); ++a) {
        const auto* arg = args->Get(a);
        if (arg->kind() != pass) continue;
        const uint32_t value = static_cast<uint32_t>(arg->value());
        uint64_t offset = 0;
        const uint32_t root = alias_root(model, value, &offset);
        if (!in_window(root)) continue;
        const auto kind = model->tensors()->Get(root)->kind();
        if (kind == fb::TensorKind::State) continue;  // its life is fixed above
        Lifetime& life = lives[root - first];
        if (pass == fb::ArgKind::Output) {
          if (life.first == kNoNode) life.first = n;
          if (life.last == kNoNode || life.last < n) life.last = n;
        } else if (kind != fb::TensorKind::Constant) {  // constants have no lifetime
          if (life.first == kNoNode) {
            return fail(error, GRT_ERR_GRAPH_ORDER, model, "%n reads %t before any node writes it", n, value);
          }
          life.last = n;
        }
      }
    }
  }
  for (uint32_t i = 0; i < count_of(model->outputs()); ++i) {
    const uint32_t t = model->outputs()->Get(i);
    if (!in_window(t)) continue;
    if (lives[t - first].first == kNoNode) {
      return fail(error, GRT_ERR_GRAPH_ORDER, model, "output %u is %t, which no node writes", i, t);
    }
    lives[t - first].last = end;
  }
  return finish_subgraph_window(model, lives, first, count, error);
}

// A window of tensors and their live ranges.
struct Window {
  uint32_t first;
  uint32_t count;
  const Lifetime* lives;
};

bool planned(const fb::Model* model, const Window& w, uint32_t t) {
  const auto kind = model->tensors()->Get(t)->kind();
  return (kind == fb::TensorKind::Activation || kind == fb::TensorKind::State) && w.lives[t - w.first].first != kNoNode;
}

// The plan between two windows (a.first <= b.first): no two activations live together
// share a byte of a pool.
grt_status check_overlaps(const fb::Model* model, const Window& a, const Window& b, grt_error* error) {
  const auto* tensors = model->tensors();
  for (uint32_t i = a.first; i < a.first + a.count; ++i) {
    if (!planned(model, a, i)) continue;
    const auto* x = tensors->Get(i);
    const Lifetime& xl = a.lives[i - a.first];
    const uint64_t x_bytes = tensor_bytes(x);
    for (uint32_t j = i + 1 > b.first ? i + 1 : b.first; j < b.first + b.count; ++j) {
      const auto* y = tensors->Get(j);
      const Lifetime& yl = b.lives[j - b.first];
      if (!planned(model, b, j) || y->pool() != x->pool() || !lifetimes_overlap(xl, yl)) continue;
      if (!ranges_overlap(x->offset(), x_bytes, y->offset(), tensor_bytes(y))) continue;
      if (is_in_place_pair(model, i, xl, j, yl)) continue;
      const uint32_t both = xl.first > yl.first ? xl.first : yl.first;
      return fail(error, GRT_ERR_PLAN_OVERLAP, model, "plan overlap: %t and %t share bytes of %p while both are live at node %u",
                  i, j, x->pool(), both);
    }
  }
  return GRT_OK;
}

// No workspace shares bytes with an activation of the window live at its node.
grt_status check_workspaces(const fb::Model* model, const Window& w, grt_error* error) {
  for (uint32_t n = 0; n < count_of(model->nodes()); ++n) {
    const auto* node = model->nodes()->Get(n);
    if (node->workspace_bytes() == 0) continue;
    const Lifetime runs = node_span(model, n);
    for (uint32_t t = w.first; t < w.first + w.count; ++t) {
      const auto* a = model->tensors()->Get(t);
      const Lifetime& life = w.lives[t - w.first];
      if (!planned(model, w, t) || a->pool() != node->workspace_pool() || !lifetimes_overlap(life, runs)) continue;
      if (!ranges_overlap(a->offset(), tensor_bytes(a), node->workspace_offset(), node->workspace_bytes())) continue;
      return fail(error, GRT_ERR_PLAN_OVERLAP, model, "plan overlap: %n workspace shares bytes of %p with live %t", n, a->pool(), t);
    }
  }
  return GRT_OK;
}

}  // namespace

grt_status check_model_graph(const fb::Model* model, Lifetime* lifetimes, uint32_t lifetime_count, grt_error* error) {
  clear_error(error);
  const uint32_t tensor_count = count_of(model->tensors());
  // Every tensor at once when there is room; otherwise windows of half the room, each
  // checked against itself and every later window.
  const uint32_t size = lifetime_count >= tensor_count ? tensor_count : lifetime_count / 2;
  grt_status s = GRT_OK;
  for (uint32_t a = 0; s == GRT_OK && a < tensor_count; a += size) {
    const Window outer{a, tensor_count - a < size ? tensor_count - a : size, lifetimes};
    s = note_window(model, lifetimes, outer.first, outer.count, error);
    if (s == GRT_OK) s = check_workspaces(model, outer, error);
    for (uint32_t b = a; s == GRT_OK && b < tensor_count; b += size) {
      const Window inner = b == a ? outer : Window{b, tensor_count - b < size ? tensor_count - b : size, lifetimes + size};
      if (b != a) s = note_window(model, lifetimes + size, inner.first, inner.count, error);
      if (s == GRT_OK) s = check_overlaps(model, outer, inner, error);
    }
  }
  return s;
}

}  // namespace grt
