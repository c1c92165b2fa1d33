// The offset algorithms on hand-made blocks: where greedy by size loses and the search
// does not, alignment, empty input, determinism, and the names the CLI accepts.
#include <gtest/gtest.h>

#include "graphrt/tools/planner.h"
#include "plan_checks.h"

namespace grt::test {
namespace {

using tools::Block;
using tools::PlanAlgorithm;

Block block(uint64_t size, uint32_t first, uint32_t last) {
  Block b;
  b.size = size;
  b.live = {first, last};
  return b;
}

// A chain of conflicts A - C - D - B. Greedy by size puts both large blocks at 0, so the
// small ones stack above them (96 bytes); putting B above D instead needs only 80, the
// lower bound.
std::vector<Block> greedy_by_size_trap(uint32_t start = 0) {
  return {block(64, start + 1, start + 1), block(64, start + 3, start + 5), block(16, start + 1, start + 2),
          block(16, start + 2, start + 3)};
}

TEST(PlannerAlgorithms, GreedyBySizeFallsIntoTheTrap) {
  const auto blocks = greedy_by_size_trap();
  std::vector<uint64_t> offsets;
  EXPECT_EQ(tools::liveness_lower_bound(blocks), 80u);
  EXPECT_EQ(tools::plan_greedy_by_size(blocks, &offsets), 96u);
  EXPECT_EQ(plan_violation(blocks, offsets, 96), "");
}

TEST(PlannerAlgorithms, SearchFindsTheLowerBoundOnASmallTrap) {
  const auto blocks = greedy_by_size_trap();
  std::vector<uint64_t> offsets;
  EXPECT_EQ(tools::plan_search(blocks, {}, &offsets), 80u);
  EXPECT_EQ(plan_violation(blocks, offsets, 80), "");
}

TEST(PlannerAlgorithms, SearchEscapesTrapsTooLargeForExhaustiveSearch) {
  // Three traps one after the other: 12 blocks, so the hill climbing has to find it.
  std::vector<Block> blocks;
  for (uint32_t k = 0; k < 3; ++k) {
    for (const Block& b : greedy_by_size_trap(6 * k)) blocks.push_back(b);
  }
  tools::SearchOptions options;
  ASSERT_GT(blocks.size(), options.exhaustive_up_to);
  std::vector<uint64_t> offsets;
  EXPECT_EQ(tools::plan_greedy_by_size(blocks, &offsets), 96u);
  EXPECT_EQ(tools::plan_search(blocks, options, &offsets), 80u);
  EXPECT_EQ(plan_violation(blocks, offsets, 80), "");
}

TEST(PlannerAlgorithms, BestKeepsTheSmallestAndReportsEveryAlgorithm) {
  const tools::BlockPlan plan = tools::plan_blocks(PlanAlgorithm::kBest, greedy_by_size_trap());
  ASSERT_EQ(plan.sizes.size(), 3u);
  EXPECT_EQ(plan.sizes[0].algorithm, PlanAlgorithm::kGreedyBySize);
  EXPECT_EQ(plan.sizes[0].size, 96u);
  EXPECT_EQ(plan.sizes[2].algorithm, PlanAlgorithm::kSearch);
  EXPECT_EQ(plan.size, 80u);
  EXPECT_NE(plan.chosen, PlanAlgorithm::kGreedyBySize);
  EXPECT_EQ(plan_violation(greedy_by_size_trap(), plan.offsets, plan.size), "");
}

TEST(PlannerAlgorithms, GreedyByConflictsPlacesTheMostConflictedFirst) {
  // The small block conflicts with both large ones, which do not conflict: placed first
  // it takes offset 0.
  const std::vector<Block> blocks = {block(64, 0, 1), block(64, 2, 3), block(16, 0, 3)};
  std::vector<uint64_t> offsets;
  EXPECT_EQ(tools::plan_greedy_by_conflicts(blocks, &offsets), 80u);
  EXPECT_EQ(offsets[2], 0u);
  EXPECT_EQ(offsets[0], 16u);
  EXPECT_EQ(offsets[1], 16u);
}

TEST(PlannerAlgorithms, OffsetsHonourEachBlocksAlignment) {
  std::vector<Block> blocks = {block(3, 0, 2), block(5, 0, 2), block(70, 1, 2)};
  blocks[1].alignment = 64;
  blocks[2].alignment = 128;
  for (const auto a : {PlanAlgorithm::kGreedyBySize, PlanAlgorithm::kGreedyByConflicts, PlanAlgorithm::kSearch, PlanAlgorithm::kBest}) {
    const tools::BlockPlan plan = tools::plan_blocks(a, blocks);
    EXPECT_EQ(plan_violation(blocks, plan.offsets, plan.size), "") << tools::algorithm_name(a);
    EXPECT_EQ(plan.size % 16, 0u);
  }
}

TEST(PlannerAlgorithms, NothingToPlanNeedsNoBytes) {
  for (const auto a : {PlanAlgorithm::kGreedyBySize, PlanAlgorithm::kGreedyByConflicts, PlanAlgorithm::kSearch, PlanAlgorithm::kBest}) {
    EXPECT_EQ(tools::plan_blocks(a, {}).size, 0u);
    EXPECT_EQ(tools::plan_blocks(a, {block(0, 0, 3), block(0, 1, 1)}).size, 0u);
  }
}

TEST(PlannerAlgorithms, LowerBoundIsTheMostBytesLiveAtOneNode) {
  EXPECT_EQ(tools::liveness_lower_bound({block(10, 0, 1), block(20, 1, 2), block(40, 3, 3)}), 40u);
  EXPECT_EQ(tools::liveness_lower_bound({block(10, 0, 1), block(20, 1, 2), block(5, 2, 3)}), 30u);
  EXPECT_EQ(tools::size_floor({block(10, 0, 1), block(20, 1, 2)}), 32u);
}

TEST(PlannerAlgorithms, ConflictsAreBlocksLiveTogetherWithBytes) {
  const auto conflicts = tools::conflict_lists({block(8, 0, 1), block(8, 1, 2), block(0, 0, 2), block(8, 3, 3)});
  EXPECT_EQ(conflicts[0], (std::vector<uint32_t>{1}));
  EXPECT_EQ(conflicts[1], (std::vector<uint32_t>{0}));
  EXPECT_TRUE(conflicts[2].empty());
  EXPECT_TRUE(conflicts[3].empty());
}

TEST(PlannerAlgorithms, SearchIsDeterministicForASeed) {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const auto blocks = random_blocks(seed, 60);
    tools::SearchOptions options;
    options.iterations = 500;
    options.seed = seed;
    std::vector<uint64_t> first;
    std::vector<uint64_t> second;
    EXPECT_EQ(tools::plan_search(blocks, options, &first), tools::plan_search(blocks, options, &second));
    EXPECT_EQ(first, second) << "seed " << seed;
  }
}

TEST(PlannerAlgorithms, NamesRoundTrip) {
  for (const auto a : {PlanAlgorithm::kGreedyBySize, PlanAlgorithm::kGreedyByConflicts, PlanAlgorithm::kSearch, PlanAlgorithm::kBest}) {
    EXPECT_EQ(tools::parse_algorithm(tools::algorithm_name(a)), a);
  }
  EXPECT_EQ(tools::parse_algorithm("greedy"), std::nullopt);
  EXPECT_EQ(tools::parse_algorithm(""), std::nullopt);
}

}  // namespace
}  // namespace grt::test
