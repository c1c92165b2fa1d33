// The static memory planner: liveness from node order, then offsets in pools such that no
// two blocks live at the same time share a byte. Runs on the host, like TVM's USMP.
//
// This header is the single-pool core: blocks, their conflicts, and the offset algorithms.
// memory_plan.h plans a whole model over several pools and reports on it.
#ifndef GRAPHRT_TOOLS_PLANNER_H_
#define GRAPHRT_TOOLS_PLANNER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
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
  // How often nodes touch the whole block (each Input or Output argument naming it or one
  // of its aliases; a workspace counts 2, written and read by its node). It is the bytes
  // touched per byte of size, the planner's measure of how hot a block is.
  uint32_t accesses = 0;
};

// The blocks of a model, with the same liveness rules the runtime checks: a tensor lives
// from its first writer (model inputs: node 0) to its last reader (model outputs: the last
// node); aliases extend their target. Activations no node touches are left out.
std::vector<Block> planning_blocks(const ModelDef& model);

// In-place operators. For a kernel name, the bits of the Input arguments its one output may
// overwrite (grt_kernel_entry::overwrites); an empty function: none.
using OverwritableInputs = std::function<uint32_t(const std::string& kernel)>;

// Node `node` writes its output tensor over input tensor `input`, its argument `argument`.
struct InPlacePair {
  uint32_t node = 0;
  uint32_t argument = 0;
  uint32_t input = 0;
  uint32_t output = 0;
};

// Every pair the runtime accepts (runtime/src/in_place_check.cpp): the node's only Output
// argument names an Activation directly, born at the node; a declared Input argument names
// directly an Activation of the same size that dies at the node, read through no other
// argument, and no model input or output; the output is no model input.
std::vector<InPlacePair> in_place_pairs(const ModelDef& model, const std::vector<Block>& blocks,
                                        const OverwritableInputs& overwritable);

// The blocks with every chain of in-place pairs made one block (size of its tensors, live
// from the first one's first node to the last one's last node). group_of[i]: the merged
// block that block i is part of.
struct InPlaceGroups {
  std::vector<Block> merged;
  std::vector<uint32_t> group_of;
  std::vector<InPlacePair> pairs;
};
InPlaceGroups group_in_place(const ModelDef& model, const std::vector<Block>& blocks, const OverwritableInputs& overwritable);

// The most bytes live during any one node: no plan can be smaller.
uint64_t liveness_lower_bound(const std::vector<Block>& blocks);

// Per block, the indices of the other blocks it must not share a byte with: both non-empty
// and live at a common node. Sorted ascending.
using ConflictLists = std::vector<std::vector<uint32_t>>;
ConflictLists conflict_lists(const std::vector<Block>& blocks);

// The shared placement step of every algorithm: blocks are placed one by one in `order`
// (a permutation of the block indices), each at the lowest offset aligned to its alignment
// where it shares no byte with a conflicting block placed before it. Returns the pool size:
// the highest block end, rounded up to 16. For every valid plan some order reproduces it or
// better, so searching over orders loses nothing.
uint64_t place_in_order(const std::vector<Block>& blocks, const ConflictLists& conflicts, const std::vector<uint32_t>& order,
                        std::vector<uint64_t>* offsets);

// The smallest pool size any plan of `blocks` can have with offsets rounded as above: the
// lower bound rounded up to 16. A search stops once it gets there.
uint64_t size_floor(const std::vector<Block>& blocks);

// Each algorithm fills `offsets` (same order as `blocks`) and returns the pool size.
// Greedy by size: largest first (ties: earlier first use, then block index).
uint64_t plan_greedy_by_size(const std::vector<Block>& blocks, std::vector<uint64_t>* offsets);
// Greedy by conflicts: the blocks with the most conflicting blocks first (ties: larger,
// then block index), since they have the fewest free gaps left if placed late.
uint64_t plan_greedy_by_conflicts(const std::vector<Block>& blocks, std::vector<uint64_t>* offsets);

struct SearchOptions {
  // Placement orders tried after the starting ones. Results depend only on the blocks,
  // the seed and this count.
  uint64_t iterations = 20000;
  uint64_t seed = 1;
  // Extra wall-clock bound, 0 for none. When it is what stops the search, the result
  // depends on the machine's speed: leave it 0 where plans must be reproducible.
  double time_limit_seconds = 0;
  // Pools with at most this many blocks are searched exhaustively (every order): exact.
  size_t exhaustive_up_to = 7;
};

// An improving search over placement orders: starts from the best of several greedy
// orders (greedy by size among them, so it is never worse), then late-acceptance hill
// climbing with moves that lift a block under the peak to earlier in the order. Stops at
// the size floor.
uint64_t plan_search(const std::vector<Block>& blocks, const SearchOptions& options, std::vector<uint64_t>* offsets);

enum class PlanAlgorithm { kGreedyBySize, kGreedyByConflicts, kSearch, kBest };

// "greedy_by_size", "greedy_by_conflicts", "search", "best".
const char* algorithm_name(PlanAlgorithm algorithm);
std::optional<PlanAlgorithm> parse_algorithm(std::string_view name);

// One algorithm's offsets and size. kBest is not an algorithm of its own: see plan_blocks.
uint64_t run_algorithm(PlanAlgorithm algorithm, const std::vector<Block>& blocks, const SearchOptions& search,
                       std::vector<uint64_t>* offsets);

// The sizes every algorithm that ran reached, and which plan was kept.
struct AlgorithmSize {
  PlanAlgorithm algorithm = PlanAlgorithm::kGreedyBySize;
  uint64_t size = 0;
};
struct BlockPlan {
  std::vector<uint64_t> offsets;
  uint64_t size = 0;
  PlanAlgorithm chosen = PlanAlgorithm::kGreedyBySize;
  std::vector<AlgorithmSize> sizes;
};

// Runs `algorithm`; kBest runs greedy by size, greedy by conflicts and the search and keeps
// the smallest (ties: the earlier of those), so it is never worse than greedy by size.
BlockPlan plan_blocks(PlanAlgorithm algorithm, const std::vector<Block>& blocks, const SearchOptions& search = {});

// Writes offsets into the model: every block into pool 0, named `pool_name`, created if the
// model has no pools. Returns the pool size.
uint64_t apply_single_pool_plan(ModelDef* model, const std::vector<Block>& blocks, const std::vector<uint64_t>& offsets,
                                const std::string& pool_name = "activations");

// Plans the model in one pool with greedy-by-size.
uint64_t plan_default(ModelDef* model);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_PLANNER_H_
