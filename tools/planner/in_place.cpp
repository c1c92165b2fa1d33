// In-place operators on the planning side: a node's output placed over an input that dies
// at the node, where the kernel declares that input overwritable. The pair becomes one
// block (a chain of pairs, one block), so every algorithm places it as it places any other.
// The conditions are the loader's (runtime/src/in_place_check.cpp), so the loader accepts
// exactly the overlaps made here.
#include <algorithm>
#include <numeric>

#include "graphrt/tools/planner.h"

namespace grt::tools {

namespace {

bool listed(const std::vector<uint32_t>& list, uint32_t t) {
  for (const uint32_t x : list) {
    if (x == t) return true;
  }
  return false;
}

// The node's only Output argument when it names an Activation directly, or -1.
int64_t sole_direct_output(const ModelDef& model, const NodeDef& node) {
  int64_t found = -1;
  for (const auto& a : node.args) {
    if (a.kind != ArgKind::Output) continue;
    if (found >= 0) return -1;
    found = a.value;
  }
  if (found < 0 || model.tensors[static_cast<size_t>(found)].kind != TensorKind::Activation) return -1;
  return found;
}

uint32_t find(std::vector<uint32_t>& parent, uint32_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

std::vector<InPlacePair> in_place_pairs(const ModelDef& model, const std::vector<Block>& blocks,
                                        const OverwritableInputs& overwritable) {
  std::vector<InPlacePair> pairs;
  if (!overwritable) return pairs;
  std::vector<int64_t> block_of(model.tensors.size(), -1);
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].tensor >= 0) block_of[static_cast<size_t>(blocks[i].tensor)] = static_cast<int64_t>(i);
  }
  for (uint32_t n = 0; n < model.nodes.size(); ++n) {
    const NodeDef& node = model.nodes[n];
    const int64_t out = sole_direct_output(model, node);
    if (out < 0 || listed(model.inputs, static_cast<uint32_t>(out)) || block_of[static_cast<size_t>(out)] < 0) continue;
    const Block& y = blocks[static_cast<size_t>(block_of[static_cast<size_t>(out)])];
    if (y.live.first != n || y.size == 0) continue;
    const uint32_t mask = overwritable(model.kernels[node.kernel]);
    for (uint32_t k = 0; k < node.args.size() && k < 32; ++k) {
      const ArgDef& arg = node.args[k];
      if ((mask & (1u << k)) == 0 || arg.kind != ArgKind::Input) continue;
      const uint32_t in = static_cast<uint32_t>(arg.value);
      if (model.tensors[in].kind != TensorKind::Activation || block_of[in] < 0 || listed(model.inputs, in) ||
          listed(model.outputs, in)) {
        continue;
      }
      const Block& x = blocks[static_cast<size_t>(block_of[in])];
      if (x.live.last != n || x.size != y.size) continue;
      // Read through this one argument only, so the kernel reads each element just before
      // it writes the same element of its output.
      size_t readers = 0;
      for (const auto& other : node.args) {
        if (other.kind == ArgKind::Input && model.root_of(static_cast<uint32_t>(other.value)) == in) ++readers;
      }
      if (readers != 1) continue;
      pairs.push_back(InPlacePair{n, k, in, static_cast<uint32_t>(out)});
      break;  // one output, one input under it
    }
  }
  return pairs;
}

InPlaceGroups group_in_place(const ModelDef& model, const std::vector<Block>& blocks, const OverwritableInputs& overwritable) {
  InPlaceGroups groups;
  groups.pairs = in_place_pairs(model, blocks, overwritable);
  std::vector<uint32_t> parent(blocks.size());
  std::iota(parent.begin(), parent.end(), 0u);
  std::vector<int64_t> block_of(model.tensors.size(), -1);
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].tensor >= 0) block_of[static_cast<size_t>(blocks[i].tensor)] = static_cast<int64_t>(i);
  }
  for (const InPlacePair& p : groups.pairs) {
    const uint32_t a = find(parent, static_cast<uint32_t>(block_of[p.input]));
    const uint32_t b = find(parent, static_cast<uint32_t>(block_of[p.output]));
    parent[std::max(a, b)] = std::min(a, b);  // the earliest block stands for the chain
  }
  std::vector<int64_t> merged_of(blocks.size(), -1);
  groups.group_of.resize(blocks.size());
  for (uint32_t i = 0; i < blocks.size(); ++i) {
    const uint32_t root = find(parent, i);
    if (merged_of[root] < 0) {
      merged_of[root] = static_cast<int64_t>(groups.merged.size());
      groups.merged.push_back(blocks[root]);
    }
    const uint32_t g = static_cast<uint32_t>(merged_of[root]);
    groups.group_of[i] = g;
    if (root == i) continue;
    // The chain's tensors have one size; it lives from its first writer to its last reader.
    Block& m = groups.merged[g];
    m.live.first = std::min(m.live.first, blocks[i].live.first);
    m.live.last = std::max(m.live.last, blocks[i].live.last);
    m.alignment = std::max(m.alignment, blocks[i].alignment);
    m.accesses += blocks[i].accesses;
  }
  return groups;
}

}  // namespace grt::tools
