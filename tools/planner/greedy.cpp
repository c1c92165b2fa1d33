#include <algorithm>
#include <numeric>

#include "graphrt/tools/planner.h"
#include "saturating.h"

namespace grt::tools {

namespace {
std::vector<uint32_t> identity_order(size_t n) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  return order;
}
}  // namespace

uint64_t plan_greedy_by_size(const std::vector<Block>& blocks, std::vector<uint64_t>* offsets) {
  auto order = identity_order(blocks.size());
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (blocks[a].size != blocks[b].size) return blocks[a].size > blocks[b].size;
    if (blocks[a].live.first != blocks[b].live.first) return blocks[a].live.first < blocks[b].live.first;
    return a < b;
  });
  return place_in_order(blocks, conflict_lists(blocks), order, offsets);
}

uint64_t plan_greedy_by_conflicts(const std::vector<Block>& blocks, std::vector<uint64_t>* offsets) {
  const ConflictLists conflicts = conflict_lists(blocks);
  auto order = identity_order(blocks.size());
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (conflicts[a].size() != conflicts[b].size()) return conflicts[a].size() > conflicts[b].size();
    if (blocks[a].size != blocks[b].size) return blocks[a].size > blocks[b].size;
    return a < b;
  });
  return place_in_order(blocks, conflicts, order, offsets);
}

uint64_t apply_single_pool_plan(ModelDef* model, const std::vector<Block>& blocks, const std::vector<uint64_t>& offsets,
                                const std::string& pool_name) {
  if (model->pools.empty()) model->pools.push_back(PoolDef{pool_name, 0, 16, {}});
  uint64_t size = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    if (b.tensor >= 0) {
      auto& t = model->tensors[static_cast<size_t>(b.tensor)];
      t.pool = 0;
      t.offset = offsets[i];
    } else {
      auto& n = model->nodes[static_cast<size_t>(b.node)];
      n.workspace_pool = 0;
      n.workspace_offset = offsets[i];
    }
    size = std::max(size, saturating_add(offsets[i], b.size));
  }
  // Activations no node touches still need a slot inside the pool; nothing reads them.
  std::vector<bool> planned(model->tensors.size(), false);
  for (const auto& b : blocks) {
    if (b.tensor >= 0) planned[static_cast<size_t>(b.tensor)] = true;
  }
  for (size_t t = 0; t < model->tensors.size(); ++t) {
    auto& tensor = model->tensors[t];
    if (tensor.kind != TensorKind::Activation || planned[t]) continue;
    tensor.pool = 0;
    tensor.offset = 0;
    size = std::max(size, tensor.bytes());
  }
  size = saturating_align_up(size, 16);
  model->pools[0].size = size;
  return size;
}

uint64_t plan_default(ModelDef* model) {
  const auto blocks = planning_blocks(*model);
  std::vector<uint64_t> offsets;
  plan_greedy_by_size(blocks, &offsets);
  return apply_single_pool_plan(model, blocks, offsets);
}

}  // namespace grt::tools
