// Properties over thousands of seeded random block sets: every algorithm gives a valid
// plan (aligned, inside the pool, no two live blocks sharing a byte) no smaller than the
// lower bound, and best and the search are never worse than greedy by size.
#include <gtest/gtest.h>

#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/planner.h"
#include "plan_checks.h"

namespace grt::test {
namespace {

using tools::PlanAlgorithm;

// The sanitizer builds pass fewer (the search runs some 50 times slower there); the plain
// build checks them all.
#ifndef GRT_PLANNER_PROPERTY_CASES
#define GRT_PLANNER_PROPERTY_CASES 3000
#endif
constexpr uint64_t kCases = GRT_PLANNER_PROPERTY_CASES;

tools::SearchOptions quick_search(uint64_t seed) {
  tools::SearchOptions options;
  options.iterations = 300;
  options.seed = seed;
  return options;
}

TEST(PlannerProperties, EveryAlgorithmGivesAValidPlanNoSmallerThanTheBound) {
  for (uint64_t seed = 0; seed < kCases; ++seed) {
    const auto blocks = random_blocks(seed);
    const uint64_t bound = tools::liveness_lower_bound(blocks);
    for (const auto a : {PlanAlgorithm::kGreedyBySize, PlanAlgorithm::kGreedyByConflicts, PlanAlgorithm::kSearch}) {
      std::vector<uint64_t> offsets;
      const uint64_t size = tools::run_algorithm(a, blocks, quick_search(seed), &offsets);
      ASSERT_EQ(plan_violation(blocks, offsets, size), "") << tools::algorithm_name(a) << ", seed " << seed;
      ASSERT_GE(size, bound) << tools::algorithm_name(a) << ", seed " << seed;
      ASSERT_EQ(size % 16, 0u);
    }
  }
}

TEST(PlannerProperties, BestAndSearchAreNeverWorseThanGreedy) {
  for (uint64_t seed = 0; seed < kCases; ++seed) {
    const auto blocks = random_blocks(seed);
    std::vector<uint64_t> offsets;
    const uint64_t by_size = tools::plan_greedy_by_size(blocks, &offsets);
    const uint64_t by_conflicts = tools::plan_greedy_by_conflicts(blocks, &offsets);
    const uint64_t searched = tools::plan_search(blocks, quick_search(seed), &offsets);
    ASSERT_LE(searched, by_size) << "seed " << seed;
    const tools::BlockPlan best = tools::plan_blocks(PlanAlgorithm::kBest, blocks, quick_search(seed));
    ASSERT_EQ(plan_violation(blocks, best.offsets, best.size), "") << "seed " << seed;
    ASSERT_LE(best.size, by_size) << "seed " << seed;
    ASSERT_LE(best.size, by_conflicts) << "seed " << seed;
    ASSERT_EQ(best.size, std::min({by_size, by_conflicts, searched})) << "seed " << seed;
  }
}

TEST(PlannerProperties, SearchIsExactOnTinyInputs) {
  // Up to exhaustive_up_to blocks the search tries every order; an order sorted by the
  // optimal offsets reproduces the optimum, so no other plan may beat it. Compare with
  // a second, independent brute force over offsets on a 16-byte grid.
  for (uint64_t seed = 0; seed < 150; ++seed) {
    auto blocks = random_blocks(seed, 4);
    for (auto& b : blocks) {
      b.alignment = 16;
      b.size = b.size % 64;
    }
    std::vector<uint64_t> offsets;
    const uint64_t searched = tools::plan_search(blocks, quick_search(seed), &offsets);
    // Every assignment of offsets 0, 16, ..., 192.
    uint64_t best = UINT64_MAX;
    std::vector<uint64_t> trial(blocks.size(), 0);
    const auto visit = [&](auto&& self, size_t i) -> void {
      if (i == blocks.size()) {
        uint64_t top = 0;
        for (size_t k = 0; k < blocks.size(); ++k) top = std::max(top, trial[k] + blocks[k].size);
        top = (top + 15) / 16 * 16;
        if (top < best && plan_violation(blocks, trial, top).empty()) best = top;
        return;
      }
      for (uint64_t o = 0; o <= 192; o += 16) {
        trial[i] = o;
        self(self, i + 1);
      }
    };
    visit(visit, 0);
    ASSERT_EQ(searched, best) << "seed " << seed;
  }
}

TEST(PlannerProperties, PoolCapacitiesAreRespected) {
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    const auto blocks = random_blocks(seed, 30);
    TestRandom random(seed);
    std::vector<tools::PoolSpec> pools = {{"tcm", random.between(0, 2048), 16, "fast"},
                                          {"sram", random.between(0, 8192), 16, "sram"},
                                          {"external", 0, 16, "slow"}};
    std::vector<uint32_t> pool_of;
    std::string error;
    ASSERT_TRUE(tools::assign_pools(blocks, pools, PlanAlgorithm::kGreedyBySize, {}, &pool_of, &error)) << error;
    for (uint32_t p = 0; p < pools.size(); ++p) {
      std::vector<tools::Block> members;
      for (size_t i = 0; i < blocks.size(); ++i) {
        if (pool_of[i] == p) members.push_back(blocks[i]);
      }
      const tools::BlockPlan plan = tools::plan_blocks(PlanAlgorithm::kBest, members, quick_search(seed));
      ASSERT_EQ(plan_violation(members, plan.offsets, plan.size), "") << "seed " << seed;
      if (pools[p].capacity != 0) {
        ASSERT_LE(plan.size, pools[p].capacity) << "pool " << p << ", seed " << seed;
      }
    }
  }
}

}  // namespace
}  // namespace grt::test
