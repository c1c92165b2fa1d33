#include <algorithm>
#include <map>

#include "graphrt/tools/planner.h"
#include "saturating.h"

namespace grt::tools {

namespace {

constexpr uint32_t kUnset = UINT32_MAX;

// The graph that owns a node or tensor: 0 the main graph, s + 1 subgraph s.
uint32_t graph_of(const ModelDef& model, uint32_t index, bool node) {
  uint32_t graph = 0;
  for (uint32_t s = 0; s < model.subgraphs.size(); ++s) {
    if (index >= (node ? model.subgraphs[s].first_node : model.subgraphs[s].first_tensor)) graph = s + 1;
  }
  return graph;
}

LiveRange node_span(const ModelDef& model, const std::vector<LiveRange>& spans, uint32_t n) {
  const uint32_t graph = graph_of(model, n, true);
  return graph == 0 ? LiveRange{n, n} : spans[graph - 1];
}

// The loader's rule (runtime/src/model_subgraph_check.cpp): a subgraph is live over the
// main-graph nodes that invoke it, directly or through other subgraphs; callers come
// before callees in node order, so one pass finds every span.
std::vector<LiveRange> subgraph_spans(const ModelDef& model) {
  std::vector<LiveRange> spans(model.subgraphs.size(), LiveRange{kUnset, kUnset});
  for (uint32_t n = 0; n < model.nodes.size() && !spans.empty(); ++n) {
    const LiveRange caller = node_span(model, spans, n);
    if (caller.first == kUnset) continue;
    for (const auto& a : model.nodes[n].args) {
      if (a.kind != ArgKind::Subgraph || a.value < 0 || static_cast<uint64_t>(a.value) >= spans.size()) continue;
      LiveRange& span = spans[static_cast<size_t>(a.value)];
      span.first = span.first == kUnset ? caller.first : std::min(span.first, caller.first);
      span.last = span.last == kUnset ? caller.last : std::max(span.last, caller.last);
    }
  }
  return spans;
}

}  // namespace

std::vector<Block> planning_blocks(const ModelDef& model) {
  const uint32_t main_nodes = model.main_node_count();
  const uint32_t end = main_nodes == 0 ? 0 : main_nodes - 1;
  std::vector<LiveRange> live(model.tensors.size(), LiveRange{kUnset, kUnset});
  std::vector<uint32_t> accesses(model.tensors.size(), 0);
  for (const uint32_t t : model.inputs) live[model.root_of(t)] = LiveRange{0, 0};
  for (const auto& g : model.subgraphs) {
    for (const uint32_t t : g.inputs) live[model.root_of(t)] = LiveRange{g.first_node, g.first_node};
  }
  for (uint32_t n = 0; n < model.nodes.size(); ++n) {
    for (const auto& a : model.nodes[n].args) {
      if (a.kind != ArgKind::Input && a.kind != ArgKind::Output) continue;
      const uint32_t root = model.root_of(static_cast<uint32_t>(a.value));
      LiveRange& r = live[root];
      if (r.first == kUnset) r.first = n;
      if (r.last == kUnset || r.last < n) r.last = n;
      accesses[root]++;
    }
  }
  for (const uint32_t t : model.outputs) {
    LiveRange& r = live[model.root_of(t)];
    if (r.first == kUnset) r.first = end;
    r.last = end;
  }
  // State is kept across runs: live from the first node to the last, so no other tensor
  // or workspace ever shares its bytes (the loader checks the same).
  for (uint32_t t = 0; t < model.tensors.size(); ++t) {
    if (model.tensors[t].kind == TensorKind::State) live[t] = LiveRange{0, end};
  }
  // A subgraph's tensors live for its whole span: nothing of it shares bytes with anything
  // live while it may run.
  const std::vector<LiveRange> spans = subgraph_spans(model);
  for (uint32_t t = 0; t < model.tensors.size() && !spans.empty(); ++t) {
    const uint32_t graph = graph_of(model, t, false);
    if (graph != 0 && model.tensors[t].kind != TensorKind::State && live[t].first != kUnset) live[t] = spans[graph - 1];
  }
  std::vector<Block> blocks;
  for (uint32_t t = 0; t < model.tensors.size(); ++t) {
    const TensorKind kind = model.tensors[t].kind;
    if ((kind != TensorKind::Activation && kind != TensorKind::State) || live[t].first == kUnset) continue;
    Block b;
    b.tensor = t;
    b.size = model.tensors[t].bytes();
    b.live = live[t];
    b.accesses = accesses[t];
    blocks.push_back(b);
  }
  for (uint32_t n = 0; n < model.nodes.size(); ++n) {
    if (model.nodes[n].workspace_bytes == 0) continue;
    Block b;
    b.node = n;
    b.size = model.nodes[n].workspace_bytes;
    b.live = node_span(model, spans, n);
    if (b.live.first == kUnset) continue;  // a subgraph nothing invokes never runs
    b.accesses = 2;  // the node writes its scratch and reads it back
    blocks.push_back(b);
  }
  return blocks;
}

uint64_t liveness_lower_bound(const std::vector<Block>& blocks) {
  // Sweep over interval endpoints: +size at first, -size after last. Sizes come from the
  // model, so the running sum is kept in 128 bits (a few 2^63-byte blocks cannot wrap it)
  // and the answer saturates at UINT64_MAX.
  __extension__ typedef unsigned __int128 Wide;
  std::map<uint64_t, std::pair<Wide, Wide>> delta;  // node -> bytes starting, bytes ending before it
  for (const auto& b : blocks) {
    delta[b.live.first].first += b.size;
    delta[uint64_t{b.live.last} + 1].second += b.size;
  }
  Wide live = 0;
  Wide peak = 0;
  for (const auto& [node, d] : delta) {
    live = live + d.first - d.second;  // every block ending here started earlier: no underflow
    peak = std::max(peak, live);
  }
  return peak > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(peak);
}

uint64_t size_floor(const std::vector<Block>& blocks) { return saturating_align_up(liveness_lower_bound(blocks), 16); }

ConflictLists conflict_lists(const std::vector<Block>& blocks) {
  ConflictLists conflicts(blocks.size());
  for (uint32_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].size == 0) continue;  // an empty block shares no byte with anything
    for (uint32_t j = i + 1; j < blocks.size(); ++j) {
      if (blocks[j].size == 0 || !blocks[i].live.overlaps(blocks[j].live)) continue;
      conflicts[i].push_back(j);
      conflicts[j].push_back(i);
    }
  }
  for (auto& list : conflicts) std::sort(list.begin(), list.end());
  return conflicts;
}

}  // namespace grt::tools
