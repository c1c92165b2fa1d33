// Plans a whole model: which pool each block goes into (the fast pool gets the hottest
// blocks that fit), offsets in each pool by the chosen algorithm, and a report comparing
// every algorithm with the liveness lower bound.
#ifndef GRAPHRT_TOOLS_MEMORY_PLAN_H_
#define GRAPHRT_TOOLS_MEMORY_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/model_def.h"
#include "graphrt/tools/planner.h"

namespace grt::tools {

// A pool to plan into. Everything but `capacity` is written to the blob as it is.
struct PoolSpec {
  std::string name;
  // Most bytes the pool may need; 0 for no limit.
  uint64_t capacity = 0;
  // Alignment of the pool's base. Raised to the largest block alignment placed in it, so
  // that aligned offsets are aligned addresses.
  uint32_t alignment = 16;
  // Advisory ("sram", "fast", "external", ...).
  std::string placement;
};

struct PlanOptions {
  PlanAlgorithm algorithm = PlanAlgorithm::kBest;
  // Fastest first. Empty: keep the model's pools (one "activations" pool if it has none)
  // and every block in the pool it is in, and only re-plan offsets.
  std::vector<PoolSpec> pools;
  SearchOptions search;
  // In-place operators: which inputs each kernel's output may overwrite. Empty (the
  // default): no output shares an input's bytes.
  OverwritableInputs overwritable_inputs;
  // Model inputs in a pool of their own, kInputsPool (placement "caller"), after the
  // others: the caller hands its input buffer as that pool's buffer, and the other pools
  // hold no input. Counts as TinyTS counts, with the input bound by the caller.
  bool inputs_outside = false;
};

// The pool name of PlanOptions::inputs_outside.
inline constexpr const char* kInputsPool = "inputs";

struct PoolReport {
  PoolSpec pool;  // alignment as written to the blob
  size_t blocks = 0;
  uint64_t block_bytes = 0;  // sum of the block sizes, as if nothing shared
  uint64_t lower_bound = 0;  // most bytes of this pool's blocks live at any one node (an in-place chain: one block)
  std::vector<AlgorithmSize> sizes;
  PlanAlgorithm chosen = PlanAlgorithm::kGreedyBySize;
  uint64_t size = 0;  // the pool size written to the blob
  double ratio = 1;   // size / lower_bound (1 when the bound is 0)
};

struct PlacedBlock {
  Block block;
  uint32_t pool = 0;
  uint64_t offset = 0;
};

struct PlanReport {
  std::vector<PoolReport> pools;
  std::vector<PlacedBlock> blocks;
  uint64_t total_size = 0;
  uint64_t lower_bound = 0;  // over all blocks, as if in one pool, every operator's input and output apart
  size_t in_place_pairs = 0;  // outputs placed over a dying input
  // Filled by callers that plan both ways (`graphrt plan`), 0 otherwise: the total size
  // without and with in-place operators, and the pairs the latter found; with bands
  // (tools/bands, the options asked for), its size, chains, the recomputed halos' extra MACs
  // and the bytes the kept halos move per inference.
  struct Comparison {
    uint64_t plain = 0;
    uint64_t in_place = 0;
    size_t in_place_pairs = 0;
    uint64_t bands = 0;
    uint64_t band_activations = 0;  // the same without the caller's inputs pool (inputs outside)
    size_t band_chains = 0;
    uint64_t band_nodes = 0;  // the band plan's nodes (the plain model's are the model's own)
    double band_extra_macs_percent = 0;
    uint64_t band_copied_bytes = 0;
  } comparison;
};

// Which pool each block goes into. Pools are filled in the order given; each takes the
// hottest blocks (most accesses, i.e. bytes touched per byte of size; ties: shorter live
// range, then smaller, then block index) that still fit its capacity when planned with
// `fit_algorithm`; the rest go on to the next pool. Fails, naming the block, when a block
// fits no pool.
bool assign_pools(const std::vector<Block>& blocks, const std::vector<PoolSpec>& pools, PlanAlgorithm fit_algorithm,
                  const SearchOptions& search, std::vector<uint32_t>* pool_of, std::string* error);

// Plans every activation and workspace of `model` and writes pools, offsets and pool sizes
// into it. On failure (too many pools, blocks that fit no capacity) the model is unchanged
// and `error` says why. `report` may be null.
bool plan_model(ModelDef* model, const PlanOptions& options, PlanReport* report, std::string* error);

// The report for people (`graphrt plan --report`) and for programs (`--json`).
std::string format_plan_text(const PlanReport& report, const ModelDef& model, bool with_blocks);
std::string format_plan_json(const PlanReport& report, const ModelDef& model);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_MEMORY_PLAN_H_
