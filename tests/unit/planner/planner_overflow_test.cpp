// The planner's arithmetic on sizes a model declares: nothing wraps. The lower bound and
// the placement saturate at UINT64_MAX, and plan_model refuses, by name, sizes past 2^48
// bytes and shapes whose byte count does not fit 64 bits.
#include <gtest/gtest.h>

#include "graphrt/tools/memory_plan.h"
#include "test_models.h"

namespace grt::test {
namespace {

using tools::Block;
using tools::LiveRange;

constexpr uint64_t k2e63 = uint64_t{1} << 63;

Block block(uint64_t size, uint32_t first, uint32_t last) {
  Block b;
  b.tensor = 0;
  b.size = size;
  b.live = LiveRange{first, last};
  return b;
}

TEST(PlannerOverflow, LowerBoundOfHugeBlocksIsExactOrSaturates) {
  EXPECT_EQ(tools::liveness_lower_bound({block(k2e63, 0, 0)}), k2e63);
  // Live at different nodes: the peak is one of them, though their sum passes 2^64.
  EXPECT_EQ(tools::liveness_lower_bound({block(k2e63, 0, 0), block(k2e63, 1, 1), block(k2e63, 2, 2)}), k2e63);
  // Live together: 2^64 bytes, which saturates.
  EXPECT_EQ(tools::liveness_lower_bound({block(k2e63, 0, 1), block(k2e63, 1, 2)}), UINT64_MAX);
  EXPECT_EQ(tools::size_floor({block(UINT64_MAX - 3, 0, 0)}), UINT64_MAX);
}

TEST(PlannerOverflow, PlacementSaturatesInsteadOfWrappingOntoAnotherBlock) {
  const std::vector<Block> blocks = {block(k2e63, 0, 1), block(k2e63, 1, 2)};
  std::vector<uint64_t> offsets;
  const uint64_t size = tools::place_in_order(blocks, tools::conflict_lists(blocks), {0, 1}, &offsets);
  EXPECT_EQ(size, UINT64_MAX);
  EXPECT_EQ(offsets[0], 0u);
  EXPECT_GE(offsets[1], k2e63);  // wrapped arithmetic would have put it back at 0
}

TEST(PlannerOverflow, PlanModelRefusesAWorkspaceOf2e63ByName) {
  tools::ModelDef def = copy_chain(2);
  def.nodes[0].workspace_bytes = k2e63;
  const tools::ModelDef before = def;
  std::string error;
  EXPECT_FALSE(tools::plan_model(&def, tools::PlanOptions{}, nullptr, &error));
  EXPECT_NE(error.find("the workspace of node 0 is too large to plan"), std::string::npos) << error;
  EXPECT_NE(error.find("2^48"), std::string::npos) << error;
  EXPECT_EQ(def.pools[0].size, before.pools[0].size);
  EXPECT_EQ(def.nodes[0].workspace_offset, before.nodes[0].workspace_offset);
}

TEST(PlannerOverflow, PlanModelRefusesAShapeWhoseBytesWrap) {
  tools::ModelDef def = copy_chain(2);
  def.tensors[1].shape = {int64_t{1} << 32, int64_t{1} << 32};  // 2^64 int8 elements: bytes() wraps to 0
  ASSERT_EQ(def.tensors[1].kind, tools::TensorKind::Activation);
  std::string error;
  EXPECT_FALSE(tools::plan_model(&def, tools::PlanOptions{}, nullptr, &error));
  EXPECT_NE(error.find("tensor 1 ('" + def.tensors[1].name + "') is too large to plan"), std::string::npos) << error;
}

TEST(PlannerOverflow, PlanModelStillPlansOrdinaryModels) {
  tools::ModelDef def = copy_chain(3);
  std::string error;
  EXPECT_TRUE(tools::plan_model(&def, tools::PlanOptions{}, nullptr, &error)) << error;
}

}  // namespace
}  // namespace grt::test
