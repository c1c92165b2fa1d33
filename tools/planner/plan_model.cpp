// Plans a whole model over its pools and writes the plan into it.
#include <algorithm>

#include "graphrt/tools/memory_plan.h"
#include "saturating.h"

namespace grt::tools {

namespace {

// The runtime's GRT_MAX_POOLS (graphrt.h); the planner tests check that they agree.
constexpr size_t kMaxPools = 8;

bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// The pools as they are, and every block where it is (pool 0 when out of range).
void keep_model_pools(const ModelDef& model, const std::vector<Block>& blocks, std::vector<PoolSpec>* pools,
                      std::vector<uint32_t>* pool_of) {
  for (const auto& p : model.pools) pools->push_back(PoolSpec{p.name, 0, p.alignment, p.placement});
  if (pools->empty()) pools->push_back(PoolSpec{"activations", 0, 16, {}});
  for (const auto& b : blocks) {
    const uint32_t current = b.tensor >= 0 ? model.tensors[static_cast<size_t>(b.tensor)].pool
                                           : model.nodes[static_cast<size_t>(b.node)].workspace_pool;
    pool_of->push_back(current < pools->size() ? current : 0);
  }
}

// Liveness follows tensor indices from arguments, model inputs and outputs and aliases: a
// blob that has not passed the runtime's checks may hold any index.
bool indices_in_range(const ModelDef& model, std::string* error) {
  const auto bad = [&](const std::string& what, int64_t index) {
    *error = what + " names tensor " + std::to_string(index) + ", but the model has " + std::to_string(model.tensors.size());
    return false;
  };
  const auto in_range = [&](int64_t index) { return index >= 0 && static_cast<uint64_t>(index) < model.tensors.size(); };
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    for (const auto& a : model.nodes[n].args) {
      if ((a.kind == ArgKind::Input || a.kind == ArgKind::Output) && !in_range(a.value)) return bad("node " + std::to_string(n), a.value);
    }
  }
  for (const uint32_t t : model.inputs) {
    if (!in_range(t)) return bad("a model input", t);
  }
  for (const uint32_t t : model.outputs) {
    if (!in_range(t)) return bad("a model output", t);
  }
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    for (const auto* list : {&model.subgraphs[s].inputs, &model.subgraphs[s].outputs}) {
      for (const uint32_t t : *list) {
        if (!in_range(t)) return bad("subgraph " + std::to_string(s), t);
      }
    }
  }
  for (size_t t = 0; t < model.tensors.size(); ++t) {
    if (model.tensors[t].kind == TensorKind::Alias && !in_range(model.tensors[t].alias_of)) {
      return bad("alias tensor " + std::to_string(t), model.tensors[t].alias_of);
    }
  }
  return true;
}

// Every activation and workspace at once, each aligned, stays below this: then no offset,
// end or pool size the algorithms compute comes near 64 bits. 256 times the runtime's own
// 2^40-byte pools.
constexpr uint64_t kMaxPlanBytes = uint64_t{1} << 48;

// Sizes come from shapes the model declares: multiplied with overflow checks here, so that
// a shape whose byte count wraps (TensorDef::bytes is plain arithmetic) is refused by name.
bool sizes_in_range(const ModelDef& model, std::string* error) {
  uint64_t total = 0;
  const auto too_large = [&](const std::string& what) {
    *error = what + " is too large to plan: every activation and workspace together must stay below 2^48 bytes";
    return false;
  };
  for (size_t t = 0; t < model.tensors.size(); ++t) {
    const TensorDef& tensor = model.tensors[t];
    if (tensor.kind != TensorKind::Activation && tensor.kind != TensorKind::State) continue;
    uint64_t bytes = dtype_bytes(tensor.dtype);
    for (const int64_t d : tensor.shape) bytes = d < 0 ? UINT64_MAX : saturating_mul(bytes, static_cast<uint64_t>(d));
    total = saturating_add(total, saturating_align_up(bytes, 4096));
    if (total > kMaxPlanBytes) return too_large("tensor " + std::to_string(t) + " ('" + tensor.name + "')");
  }
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    total = saturating_add(total, saturating_align_up(model.nodes[n].workspace_bytes, 4096));
    if (total > kMaxPlanBytes) return too_large("the workspace of node " + std::to_string(n));
  }
  return true;
}

// The model inputs' blocks into a pool of their own, kInputsPool (reused if the model has
// one already), appended after the others: the caller's buffer for it is the input itself.
bool move_inputs_to_own_pool(const ModelDef& model, const std::vector<Block>& blocks, std::vector<PoolSpec>* pools,
                             std::vector<uint32_t>* pool_of, std::string* error) {
  std::vector<bool> is_input(model.tensors.size(), false);
  for (const uint32_t t : model.inputs) is_input[model.root_of(t)] = true;
  bool any = false;
  for (const auto& b : blocks) any = any || (b.tensor >= 0 && is_input[static_cast<size_t>(b.tensor)]);
  if (!any) return true;
  auto found = std::find_if(pools->begin(), pools->end(), [](const PoolSpec& p) { return p.name == kInputsPool; });
  const uint32_t pool = static_cast<uint32_t>(found - pools->begin());
  if (found == pools->end()) {
    if (pools->size() + 1 > kMaxPools) {
      *error = "--inputs-outside needs a pool of its own, and " + std::to_string(pools->size()) + " pools already are the most";
      return false;
    }
    pools->push_back(PoolSpec{kInputsPool, 0, 16, "caller"});
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    const bool input = blocks[i].tensor >= 0 && is_input[static_cast<size_t>(blocks[i].tensor)];
    if (input) {
      (*pool_of)[i] = pool;
    } else if ((*pool_of)[i] == pool) {
      (*pool_of)[i] = 0;  // the inputs' pool holds nothing else
    }
  }
  return true;
}

}  // namespace

bool plan_model(ModelDef* model, const PlanOptions& options, PlanReport* report, std::string* error) {
  if (!indices_in_range(*model, error) || !sizes_in_range(*model, error)) return false;
  const std::vector<Block> tensor_blocks = planning_blocks(*model);
  // With in-place operators each chain of pairs is one block; every member takes its slot.
  const InPlaceGroups groups = group_in_place(*model, tensor_blocks, options.overwritable_inputs);
  const std::vector<Block>& blocks = groups.merged;
  std::vector<PoolSpec> pools;
  std::vector<uint32_t> pool_of;
  if (options.pools.empty()) {
    keep_model_pools(*model, blocks, &pools, &pool_of);
  } else {
    pools = options.pools;
    if (pools.size() > kMaxPools) {
      *error = std::to_string(pools.size()) + " pools asked for, the runtime supports at most " + std::to_string(kMaxPools);
      return false;
    }
    // The search and best are never worse than greedy by size, so its fit holds for them.
    const PlanAlgorithm fit = options.algorithm == PlanAlgorithm::kGreedyByConflicts ? PlanAlgorithm::kGreedyByConflicts
                                                                                      : PlanAlgorithm::kGreedyBySize;
    if (!assign_pools(blocks, pools, fit, options.search, &pool_of, error)) return false;
  }
  if (options.inputs_outside && !move_inputs_to_own_pool(*model, blocks, &pools, &pool_of, error)) return false;
  for (const auto& p : pools) {
    if (!is_power_of_two(p.alignment) || p.alignment > 4096) {
      *error = "pool '" + p.name + "' alignment " + std::to_string(p.alignment) + " is not a power of two up to 4096";
      return false;
    }
  }

  PlanReport out;
  out.lower_bound = liveness_lower_bound(tensor_blocks);
  out.in_place_pairs = groups.pairs.size();
  std::vector<PlacedBlock> placed_groups(blocks.size());
  for (uint32_t p = 0; p < pools.size(); ++p) {
    std::vector<uint32_t> members;
    std::vector<Block> pool_blocks;
    for (uint32_t i = 0; i < blocks.size(); ++i) {
      if (pool_of[i] != p) continue;
      members.push_back(i);
      pool_blocks.push_back(blocks[i]);
    }
    const BlockPlan plan = plan_blocks(options.algorithm, pool_blocks, options.search);
    PoolReport pool;
    pool.pool = pools[p];
    pool.blocks = pool_blocks.size();
    for (const auto& b : pool_blocks) {
      pool.block_bytes += b.size;
      pool.pool.alignment = std::max(pool.pool.alignment, b.alignment);
    }
    pool.lower_bound = liveness_lower_bound(pool_blocks);
    pool.sizes = plan.sizes;
    pool.chosen = plan.chosen;
    pool.size = plan.size;
    if (pool.pool.capacity != 0 && pool.size > pool.pool.capacity) {
      *error = "pool '" + pool.pool.name + "' needs " + std::to_string(pool.size) + " bytes with " +
               algorithm_name(plan.chosen) + ", its capacity is " + std::to_string(pool.pool.capacity);
      return false;
    }
    for (size_t k = 0; k < members.size(); ++k) placed_groups[members[k]] = PlacedBlock{blocks[members[k]], p, plan.offsets[k]};
    out.pools.push_back(std::move(pool));
  }

  for (size_t i = 0; i < tensor_blocks.size(); ++i) {
    const PlacedBlock& g = placed_groups[groups.group_of[i]];
    out.blocks.push_back(PlacedBlock{tensor_blocks[i], g.pool, g.offset});
  }

  // Activations no node touches still need a slot inside some pool, though nothing reads
  // them: offset 0 of the first pool big enough, else of the first pool allowed to grow.
  std::vector<bool> planned(model->tensors.size(), false);
  for (const auto& b : tensor_blocks) {
    if (b.tensor >= 0) planned[static_cast<size_t>(b.tensor)] = true;
  }
  std::vector<std::pair<size_t, uint32_t>> untouched;  // tensor, pool
  for (size_t t = 0; t < model->tensors.size(); ++t) {
    if (model->tensors[t].kind != TensorKind::Activation || planned[t]) continue;
    const uint64_t bytes = (model->tensors[t].bytes() + 15) / 16 * 16;
    auto home = std::find_if(out.pools.begin(), out.pools.end(), [&](const PoolReport& p) { return p.size >= bytes; });
    if (home == out.pools.end()) {
      home = std::find_if(out.pools.begin(), out.pools.end(),
                          [&](const PoolReport& p) { return p.pool.capacity == 0 || p.pool.capacity >= bytes; });
    }
    if (home == out.pools.end()) {
      *error = "tensor " + std::to_string(t) + " (" + std::to_string(bytes) + " bytes, used by no node) fits in no pool";
      return false;
    }
    home->size = std::max(home->size, bytes);
    untouched.emplace_back(t, static_cast<uint32_t>(home - out.pools.begin()));
  }

  // Nothing failed: write the plan.
  model->pools.clear();
  for (auto& p : out.pools) {
    p.ratio = p.lower_bound == 0 ? 1.0 : static_cast<double>(p.size) / static_cast<double>(p.lower_bound);
    out.total_size += p.size;
    model->pools.push_back(PoolDef{p.pool.name, p.size, p.pool.alignment, p.pool.placement});
  }
  for (const auto& placed : out.blocks) {
    if (placed.block.tensor >= 0) {
      auto& t = model->tensors[static_cast<size_t>(placed.block.tensor)];
      t.pool = placed.pool;
      t.offset = placed.offset;
    } else {
      auto& n = model->nodes[static_cast<size_t>(placed.block.node)];
      n.workspace_pool = placed.pool;
      n.workspace_offset = placed.offset;
    }
  }
  for (const auto& [t, pool] : untouched) {
    model->tensors[t].pool = pool;
    model->tensors[t].offset = 0;
  }
  if (report != nullptr) *report = std::move(out);
  return true;
}

}  // namespace grt::tools
