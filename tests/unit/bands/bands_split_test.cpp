// The search cuts a chain in two where one chain would keep more buffers live at once than
// two with a small whole tensor between them (band_search.cpp, split_steps).
#include <gtest/gtest.h>

#include "band_chain_model.h"
#include "band_runs.h"
#include "graphrt/tools/bands.h"
#include "graphrt/tools/importer.h"
#include "zoo.h"

namespace grt::test {
namespace {

using tools::BandChain;
using tools::BandHalo;
using tools::ModelDef;

tools::PlanOptions inputs_outside() {
  tools::PlanOptions options;
  options.inputs_outside = true;
  return options;
}

// The pools besides the caller's input of `m` with `plan` applied.
uint64_t activations_with(const ModelDef& m, const tools::BandPlan& plan) {
  ModelDef banded = m;
  std::string error;
  EXPECT_TRUE(tools::apply_band_plan(&banded, plan, &error)) << error;
  tools::PlanReport report;
  EXPECT_TRUE(tools::plan_model(&banded, inputs_outside(), &report, &error)) << error;
  uint64_t bytes = 0;
  for (const tools::PoolReport& pool : report.pools) {
    if (pool.pool.name != tools::kInputsPool) bytes += pool.size;
  }
  return bytes;
}

TEST(BandSplit, TwoChainsAroundASmallTensorKeepFewerBuffersThanOne) {
  const ModelDef plain = mobilenet_chain_model();
  tools::BandPlan plan;
  std::string error;
  ASSERT_TRUE(tools::search_bands(plain, inputs_outside(), 0.0, &plan, &error)) << error;
  ASSERT_EQ(plan.steps.size(), 2u);
  EXPECT_EQ(plan.extra_macs, 0u);
  // What one step takes first: the whole chain, every layer a row at a time.
  tools::BandPlan one_chain;
  one_chain.steps = {{BandChain{0, 11}, 2, BandHalo::kKeepRowByRow}};
  EXPECT_LT(plan.activations, activations_with(plain, one_chain));
  EXPECT_EQ(plan.activations, activations_with(plain, plan));

  ModelDef banded = plain;
  ASSERT_TRUE(tools::apply_band_plan(&banded, plan, &error)) << error;
  const std::vector<int8_t> x = random_bytes(32 * 32 * 3, 7);
  const std::vector<uint8_t> input(x.begin(), x.end());
  EXPECT_EQ(outputs_of_runs(banded, input, 2), outputs_of_runs(plain, input, 2));
}

// VWW with its input bound by the caller: below TinyTS's 13,824 bytes, every golden case
// byte for byte.
TEST(BandSplit, VwwRunsBelowTinyTsAndMatchesEveryCase) {
  GRT_REQUIRE_ZOO(zoo);
  const std::vector<uint8_t> tflite = read_bytes(zoo / "models" / "mlperf_vww_mobilenet_int8.tflite");
  ModelDef model;
  ASSERT_TRUE(tools::import_tflite(tflite.data(), tflite.size(), &model).ok);
  tools::BandPlan plan;
  std::string error;
  ASSERT_TRUE(tools::search_bands(model, inputs_outside(), 0.0, &plan, &error)) << error;
  EXPECT_EQ(plan.steps.size(), 2u);
  EXPECT_LE(plan.activations, 13824u);
  EXPECT_EQ(plan.extra_macs, 0u);

  ASSERT_TRUE(tools::apply_band_plan(&model, plan, &error)) << error;
  tools::PlanReport report;
  ASSERT_TRUE(tools::plan_model(&model, inputs_outside(), &report, &error)) << error;
  expect_every_golden_case(zoo, "mlperf_vww_mobilenet_int8", model);
}

}  // namespace
}  // namespace grt::test
