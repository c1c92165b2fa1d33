#include <utility>

#include "graphrt/tools/planner.h"

namespace grt::tools {

const char* algorithm_name(PlanAlgorithm algorithm) {
  switch (algorithm) {
    case PlanAlgorithm::kGreedyBySize: return "greedy_by_size";
    case PlanAlgorithm::kGreedyByConflicts: return "greedy_by_conflicts";
    case PlanAlgorithm::kSearch: return "search";
    case PlanAlgorithm::kBest: return "best";
  }
  return "?";
}

std::optional<PlanAlgorithm> parse_algorithm(std::string_view name) {
  for (const auto a : {PlanAlgorithm::kGreedyBySize, PlanAlgorithm::kGreedyByConflicts, PlanAlgorithm::kSearch, PlanAlgorithm::kBest}) {
    if (name == algorithm_name(a)) return a;
  }
  return std::nullopt;
}

uint64_t run_algorithm(PlanAlgorithm algorithm, const std::vector<Block>& blocks, const SearchOptions& search,
                       std::vector<uint64_t>* offsets) {
  switch (algorithm) {
    case PlanAlgorithm::kGreedyByConflicts: return plan_greedy_by_conflicts(blocks, offsets);
    case PlanAlgorithm::kSearch: return plan_search(blocks, search, offsets);
    case PlanAlgorithm::kBest: {
      BlockPlan best = plan_blocks(algorithm, blocks, search);
      *offsets = std::move(best.offsets);
      return best.size;
    }
    case PlanAlgorithm::kGreedyBySize: break;
  }
  return plan_greedy_by_size(blocks, offsets);
}

BlockPlan plan_blocks(PlanAlgorithm algorithm, const std::vector<Block>& blocks, const SearchOptions& search) {
  BlockPlan plan;
  if (algorithm != PlanAlgorithm::kBest) {
    plan.size = run_algorithm(algorithm, blocks, search, &plan.offsets);
    plan.chosen = algorithm;
    plan.sizes.push_back({algorithm, plan.size});
    return plan;
  }
  std::vector<uint64_t> offsets;
  for (const auto a : {PlanAlgorithm::kGreedyBySize, PlanAlgorithm::kGreedyByConflicts, PlanAlgorithm::kSearch}) {
    const uint64_t size = run_algorithm(a, blocks, search, &offsets);
    plan.sizes.push_back({a, size});
    if (plan.sizes.size() == 1 || size < plan.size) {
      plan.size = size;
      plan.chosen = a;
      plan.offsets = offsets;
    }
  }
  return plan;
}

}  // namespace grt::tools
