#include <algorithm>
#include <map>

#include "graphrt/tools/planner.h"
#include "saturating.h"

namespace grt::tools {

std::vector<Block> planning_blocks(const ModelDef& model) {
  constexpr uint32_t kUnset = UINT32_MAX;
  const uint32_t end = model.nodes.empty() ? 0 : static_cast<uint32_t>(model.nodes.size() - 1);
  std::vector<LiveRange> live(model.tensors.size(), LiveRange{kUnset, kUnset});
  std::vector<uint32_t> accesses(model.tensors.size(), 0);
  for (const uint32_t t : model.inputs) live[model.root_of(t)] = LiveRange{0, 0};
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
    b.live = LiveRange{n, n};
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
