// Splitting blocks over pools with capacities, hottest first into the fastest pool.
#include <algorithm>
#include <numeric>

#include "graphrt/tools/memory_plan.h"

namespace grt::tools {

namespace {

std::string describe(const Block& b) {
  if (b.tensor >= 0) return "tensor " + std::to_string(b.tensor);
  return "workspace of node " + std::to_string(b.node);
}

std::vector<Block> subset(const std::vector<Block>& blocks, const std::vector<uint32_t>& members) {
  std::vector<Block> out;
  out.reserve(members.size());
  for (const uint32_t i : members) out.push_back(blocks[i]);
  return out;
}

}  // namespace

bool assign_pools(const std::vector<Block>& blocks, const std::vector<PoolSpec>& pools, PlanAlgorithm fit_algorithm,
                  const SearchOptions& search, std::vector<uint32_t>* pool_of, std::string* error) {
  constexpr uint32_t kUnassigned = UINT32_MAX;
  pool_of->assign(blocks.size(), kUnassigned);
  if (pools.empty()) {
    *error = "no pools to plan into";
    return false;
  }
  std::vector<uint32_t> hottest(blocks.size());
  std::iota(hottest.begin(), hottest.end(), 0u);
  const auto length = [&](uint32_t i) { return blocks[i].live.last - blocks[i].live.first; };
  std::sort(hottest.begin(), hottest.end(), [&](uint32_t a, uint32_t b) {
    if (blocks[a].accesses != blocks[b].accesses) return blocks[a].accesses > blocks[b].accesses;
    if (length(a) != length(b)) return length(a) < length(b);
    if (blocks[a].size != blocks[b].size) return blocks[a].size < blocks[b].size;
    return a < b;
  });
  std::vector<uint64_t> offsets;
  for (uint32_t p = 0; p < pools.size(); ++p) {
    const uint64_t capacity = pools[p].capacity;
    // Members in block order, the order plan_model plans them in, so the fit check and
    // the final plan see the same input and agree.
    std::vector<uint32_t> members;
    for (const uint32_t i : hottest) {
      if ((*pool_of)[i] != kUnassigned) continue;
      if (capacity != 0) {
        if (blocks[i].size > capacity) continue;
        std::vector<uint32_t> trial = members;
        trial.insert(std::upper_bound(trial.begin(), trial.end(), i), i);
        if (run_algorithm(fit_algorithm, subset(blocks, trial), search, &offsets) > capacity) continue;
        members = std::move(trial);
      } else {
        members.insert(std::upper_bound(members.begin(), members.end(), i), i);
      }
    }
    for (const uint32_t i : members) (*pool_of)[i] = p;
  }
  for (uint32_t i = 0; i < blocks.size(); ++i) {
    if ((*pool_of)[i] != kUnassigned) continue;
    *error = describe(blocks[i]) + " (" + std::to_string(blocks[i].size) + " bytes, live at nodes " +
             std::to_string(blocks[i].live.first) + ".." + std::to_string(blocks[i].live.last) +
             ") fits in no pool: every pool's capacity is taken";
    return false;
  }
  return true;
}

}  // namespace grt::tools
