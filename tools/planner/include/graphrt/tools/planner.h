// The static memory planner: liveness from node order, then offsets in pools such that no
// two blocks live at the same time share a byte. Runs on the host, like TVM's USMP.
#ifndef GRAPHRT_TOOLS_PLANNER_H_
#define GRAPHRT_TOOLS_PLANNER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/model_def.h"

namespace grt::tools {

// A node-index interval: live from `first` through `last`, both included.
struct LiveRange {
  uint32_t first = 0;
  uint32_t last = 0;
  bool overlaps(const LiveRange& o) const { return first <= o.last && o.first <= last; }
};

// One thing to place: an activation tensor (tensor >= 0) or a node's workspace (node >= 0).
struct Block {
  int64_t tensor = -1;
  int64_t node = -1;
  uint64_t size = 0;
  uint32_t alignment = 16;
  LiveRange live;
};

// The blocks of a model, with the same liveness rules the runtime checks: a tensor lives
// from its first writer (model inputs: node 0) to its last reader (model outputs: the last
// node); aliases extend their target. Activations no node touches are left out.
std::vector<Block> planning_blocks(const ModelDef& model);

// The most bytes live during any one node: no plan can be smaller.
uint64_t liveness_lower_bound(const std::vector<Block>& blocks);

// Offsets for blocks (same order); returns the pool size they need.
uint64_t plan_greedy_by_size(const std::vector<Block>& blocks, std::vector<uint64_t>* offsets);

// Writes offsets into the model: every block into pool 0, named `pool_name`, created if the
// model has no pools. Returns the pool size.
uint64_t apply_single_pool_plan(ModelDef* model, const std::vector<Block>& blocks, const std::vector<uint64_t>& offsets,
                                const std::string& pool_name = "activations");

// Plans the model in one pool with greedy-by-size.
uint64_t plan_default(ModelDef* model);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_PLANNER_H_
