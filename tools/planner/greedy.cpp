#include <algorithm>
#include <numeric>

#include "graphrt/tools/planner.h"

namespace grt::tools {

namespace {
uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
}  // namespace

uint64_t plan_greedy_by_size(const std::vector<Block>& blocks, std::vector<uint64_t>* offsets) {
  std::vector<size_t> order(blocks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return blocks[a].size > blocks[b].size; });
  offsets->assign(blocks.size(), 0);
  std::vector<size_t> placed;
  uint64_t total = 0;
  for (const size_t i : order) {
    const Block& b = blocks[i];
    // Placed blocks that live at the same time, by offset: take the lowest gap that fits.
    std::vector<size_t> conflicts;
    for (const size_t j : placed) {
      if (blocks[j].live.overlaps(b.live) && blocks[j].size != 0) conflicts.push_back(j);
    }
    std::sort(conflicts.begin(), conflicts.end(), [&](size_t x, size_t y) { return (*offsets)[x] < (*offsets)[y]; });
    uint64_t candidate = 0;
    for (const size_t j : conflicts) {
      if (align_up(candidate, b.alignment) + b.size <= (*offsets)[j]) break;  // fits in the gap
      candidate = std::max(candidate, (*offsets)[j] + blocks[j].size);
    }
    (*offsets)[i] = align_up(candidate, b.alignment);
    total = std::max(total, (*offsets)[i] + b.size);
    placed.push_back(i);
  }
  return align_up(total, 16);
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
    size = std::max(size, offsets[i] + b.size);
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
  size = (size + 15) / 16 * 16;
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
