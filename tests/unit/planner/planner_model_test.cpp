// Planning whole models: the runtime loads and runs every planned blob (its own overlap
// check is the referee), pools keep their settings, the fast pool gets the hot blocks,
// capacities hold, and a failed plan leaves the model alone.
#include <gtest/gtest.h>

#include <cstring>

#include "graphrt/graphrt.h"
#include "graphrt/tools/memory_plan.h"
#include "plan_checks.h"
#include "test_models.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;
using tools::ModelDef;
using tools::PlanAlgorithm;
using tools::PlanOptions;
using tools::PoolSpec;

static_assert(GRT_MAX_POOLS == 8, "plan_model's kMaxPools mirrors GRT_MAX_POOLS");

// Loads the blob with exact static memory, runs it, and checks y starts with x's bytes.
void expect_runs(const ModelDef& m, const std::string& what) {
  const tools::AlignedBytes blob = to_blob(m);
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << what << ": " << run.error.message;
  DLTensor* in = grt_input(run.executor, 0);
  auto* x = static_cast<uint8_t*>(in->data);
  const size_t n = grt_tensor_bytes(in);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<uint8_t>(i * 7 + 1);
  const std::vector<uint8_t> expected(x, x + n);
  ASSERT_EQ(grt_run(run.executor), GRT_OK) << what << ": " << grt_last_error(run.executor)->message;
  const auto* y = static_cast<const uint8_t*>(grt_output(run.executor, 0)->data);
  EXPECT_EQ(std::vector<uint8_t>(y, y + n), expected) << what;
}

TEST(PlannerModel, EveryAlgorithmsPlanLoadsAndRuns) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    for (const auto a : {PlanAlgorithm::kGreedyBySize, PlanAlgorithm::kGreedyByConflicts, PlanAlgorithm::kSearch, PlanAlgorithm::kBest}) {
      ModelDef m = random_copy_model(seed);
      PlanOptions options;
      options.algorithm = a;
      options.search.iterations = 200;
      std::string error;
      ASSERT_TRUE(tools::plan_model(&m, options, nullptr, &error)) << error;
      expect_runs(m, std::string(tools::algorithm_name(a)) + ", seed " + std::to_string(seed));
    }
  }
}

TEST(PlannerModel, MultiPoolPlansLoadRunAndFitTheirCapacities) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    ModelDef m = random_copy_model(seed);
    TestRandom random(seed);
    PlanOptions options;
    options.search.iterations = 200;
    options.pools = {{"tcm", random.between(0, 512), 16, "fast"}, {"sram", random.between(0, 1024), 32, "sram"}, {"ext", 0, 16, "external"}};
    tools::PlanReport report;
    std::string error;
    ASSERT_TRUE(tools::plan_model(&m, options, &report, &error)) << error;
    ASSERT_EQ(m.pools.size(), 3u);
    for (size_t p = 0; p < 3; ++p) {
      EXPECT_EQ(m.pools[p].name, options.pools[p].name);
      EXPECT_EQ(m.pools[p].placement, options.pools[p].placement);
      EXPECT_EQ(m.pools[p].alignment, options.pools[p].alignment);
      if (options.pools[p].capacity != 0) {
        EXPECT_LE(m.pools[p].size, options.pools[p].capacity) << "seed " << seed;
      }
      EXPECT_EQ(m.pools[p].size, report.pools[p].size);
    }
    expect_runs(m, "seed " + std::to_string(seed));
  }
}

// x -> a -> y, and a workspace on each node. `a` is read three times, so it is the
// hottest block; it fits the fast pool only alone.
ModelDef hot_tensor_model() {
  ModelDef m;
  const uint32_t x = m.add_activation("x", DType::Int8, {1, 64});
  const uint32_t a = m.add_activation("a", DType::Int8, {1, 64});
  const uint32_t b = m.add_activation("b", DType::Int8, {1, 64});
  const uint32_t c = m.add_activation("c", DType::Int8, {1, 64});
  const uint32_t y = m.add_activation("y", DType::Int8, {1, 64});
  m.inputs = {x};
  m.outputs = {y};
  m.add_node("copy", {ArgDef::input(x), ArgDef::output(a)});
  m.add_node("copy", {ArgDef::input(a), ArgDef::output(b)});
  m.add_node("copy", {ArgDef::input(a), ArgDef::output(c)});
  m.add_node("copy", {ArgDef::input(a), ArgDef::output(y)});
  return m;
}

TEST(PlannerModel, TheFastPoolGetsTheHottestBlock) {
  ModelDef m = hot_tensor_model();
  PlanOptions options;
  options.pools = {{"fast", 64, 16, "tcm"}, {"slow", 0, 16, "flash-xip"}};
  tools::PlanReport report;
  std::string error;
  ASSERT_TRUE(tools::plan_model(&m, options, &report, &error)) << error;
  EXPECT_EQ(m.tensors[1].pool, 0u);  // a: written once, read three times
  for (const uint32_t t : {0u, 2u, 3u, 4u}) EXPECT_EQ(m.tensors[t].pool, 1u) << "tensor " << t;
  EXPECT_EQ(m.pools[0].size, 64u);
  EXPECT_EQ(report.pools[0].blocks, 1u);
  expect_runs(m, "hot");
}

TEST(PlannerModel, BlocksThatFitNoPoolAreAnErrorAndLeaveTheModelAlone) {
  ModelDef m = hot_tensor_model();
  tools::plan_default(&m);
  const std::vector<uint8_t> before = tools::serialize(m);
  PlanOptions options;
  options.pools = {{"small", 64, 16, ""}, {"smaller", 48, 16, ""}};
  std::string error;
  EXPECT_FALSE(tools::plan_model(&m, options, nullptr, &error));
  EXPECT_NE(error.find("fits in no pool"), std::string::npos) << error;
  EXPECT_EQ(tools::serialize(m), before);

  options.pools.assign(9, PoolSpec{"p", 0, 16, ""});
  EXPECT_FALSE(tools::plan_model(&m, options, nullptr, &error));
  EXPECT_NE(error.find("at most 8"), std::string::npos) << error;
}

TEST(PlannerModel, BadIndicesAreRefusedNotFollowed) {
  ModelDef m = hot_tensor_model();
  m.nodes[1].args[0] = ArgDef::input(99);
  std::string error;
  EXPECT_FALSE(tools::plan_model(&m, {}, nullptr, &error));
  EXPECT_NE(error.find("tensor 99"), std::string::npos) << error;
}

TEST(PlannerModel, WithoutPoolOptionsBlocksStayInTheirPools) {
  ModelDef m = hot_tensor_model();
  m.pools = {{"first", 0, 16, "sram"}, {"second", 0, 64, "dram"}};
  m.tensors[2].pool = 1;  // b
  m.tensors[4].pool = 1;  // y
  tools::PlanReport report;
  std::string error;
  ASSERT_TRUE(tools::plan_model(&m, {}, &report, &error)) << error;
  EXPECT_EQ(m.pools[1].name, "second");
  EXPECT_EQ(m.pools[1].alignment, 64u);
  EXPECT_EQ(m.pools[1].placement, "dram");
  EXPECT_EQ(m.tensors[2].pool, 1u);
  EXPECT_EQ(m.tensors[4].pool, 1u);
  EXPECT_EQ(m.tensors[1].pool, 0u);
  expect_runs(m, "kept pools");
}

TEST(PlannerModel, ReportComparesEveryAlgorithmWithTheBound) {
  ModelDef m = random_copy_model(7);
  tools::PlanReport report;
  std::string error;
  ASSERT_TRUE(tools::plan_model(&m, {}, &report, &error)) << error;
  ASSERT_EQ(report.pools.size(), 1u);
  const tools::PoolReport& pool = report.pools[0];
  EXPECT_EQ(pool.pool.name, "activations");
  ASSERT_EQ(pool.sizes.size(), 3u);
  for (const auto& s : pool.sizes) EXPECT_GE(s.size, pool.size);
  EXPECT_EQ(pool.lower_bound, tools::liveness_lower_bound(tools::planning_blocks(m)));
  EXPECT_GE(pool.size, pool.lower_bound);
  EXPECT_DOUBLE_EQ(pool.ratio, static_cast<double>(pool.size) / static_cast<double>(pool.lower_bound));
  EXPECT_EQ(report.total_size, pool.size);
  EXPECT_EQ(report.blocks.size(), tools::planning_blocks(m).size());

  const std::string text = tools::format_plan_text(report, m, true);
  EXPECT_NE(text.find("lower bound"), std::string::npos) << text;
  EXPECT_NE(text.find("greedy_by_conflicts"), std::string::npos) << text;
  EXPECT_NE(text.find("'x'"), std::string::npos) << text;
  const std::string json = tools::format_plan_json(report, m);
  EXPECT_NE(json.find("\"lower_bound\":" + std::to_string(pool.lower_bound)), std::string::npos) << json;
  EXPECT_NE(json.find("\"chosen\":\""), std::string::npos) << json;
}

TEST(PlannerModel, SamePlanEveryTime) {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    ModelDef first = random_copy_model(seed);
    ModelDef second = random_copy_model(seed);
    std::string error;
    ASSERT_TRUE(tools::plan_model(&first, {}, nullptr, &error));
    ASSERT_TRUE(tools::plan_model(&second, {}, nullptr, &error));
    EXPECT_EQ(tools::serialize(first), tools::serialize(second)) << "seed " << seed;
  }
}

TEST(PlannerModel, UntouchedActivationsStillGetASlot) {
  ModelDef m = hot_tensor_model();
  m.add_activation("unused", DType::Float32, {1000});
  std::string error;
  ASSERT_TRUE(tools::plan_model(&m, {}, nullptr, &error)) << error;
  EXPECT_GE(m.pools[0].size, 4000u);
  expect_runs(m, "untouched");
}

}  // namespace
}  // namespace grt::test
