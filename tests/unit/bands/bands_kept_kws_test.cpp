// Kept halos on a real chain: KWS's first convolution and its four depthwise/pointwise
// pairs (nodes 0 to 8) in one-row steps. The depthwise inputs keep three rows each; the
// pointwise inputs hold a row only within a step, so all four share one scratch tensor.
// Every golden case still matches TFLM byte for byte.
#include <gtest/gtest.h>

#include "band_runs.h"
#include "golden.h"
#include "graphrt/tools/bands.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "test_models.h"
#include "zoo.h"

namespace grt::test {
namespace {

TEST(BandsKeptKws, PointwiseInputsShareOneScratchAndEveryCaseMatches) {
  GRT_REQUIRE_ZOO(zoo);
  const std::vector<uint8_t> tflite = read_bytes(zoo / "models" / "mlperf_kws_dscnn_int8.tflite");
  tools::ModelDef model;
  ASSERT_TRUE(tools::import_tflite(tflite.data(), tflite.size(), &model).ok);
  tools::ModelDef banded = model;
  tools::BandCost cost;
  std::string error;
  ASSERT_TRUE(tools::apply_bands(&banded, {tools::BandChain{0, 8}, 25, tools::BandHalo::kKeep}, &cost, nullptr, &error)) << error;
  EXPECT_EQ(cost.extra_macs, 0u);
  size_t scratch = 0, kept = 0;
  for (const tools::TensorDef& t : banded.tensors) {
    if (t.kind != tools::TensorKind::Activation) continue;
    if (t.name.find(" band scratch ") != std::string::npos) {
      ++scratch;
      EXPECT_EQ(t.bytes(), 5u * 64) << t.name;  // one row of 5 x 64
    }
    if (t.name.find(" kept rows") != std::string::npos) {
      ++kept;
      EXPECT_EQ(t.shape, (std::vector<int64_t>{1, 3, 5, 64})) << t.name;
    }
  }
  EXPECT_EQ(scratch, 1u);
  EXPECT_EQ(kept, 4u);  // the first convolution's output and three pointwise outputs
  tools::PlanReport report, plain;
  ASSERT_TRUE(tools::plan_model(&banded, tools::PlanOptions{}, &report, &error)) << error;
  ASSERT_TRUE(tools::plan_model(&model, tools::PlanOptions{}, &plain, &error)) << error;
  // The input (490 B), the chain's output (8,000 B) and 13 rows of 320 B.
  EXPECT_EQ(report.total_size, 12656u);
  EXPECT_EQ(plain.total_size, 16000u);

  expect_every_golden_case(zoo, "mlperf_kws_dscnn_int8", banded);
}

}  // namespace
}  // namespace grt::test
