// Sequence bands (bands.h, BandChain::sequence): an LSTM whose output sequence only a fully
// connected layer reads, cut into bands of time steps, gives the plain plan's bytes run after
// run (its state carries across bands and across runs; the sums restart each run), for every
// band count and both time layouts, and holds one band of the sequence instead of all of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "graphrt/tools/bands.h"
#include "band_chain_model.h"
#include "band_runs.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::BandChain;
using tools::DType;
using tools::ModelDef;

constexpr int64_t kSteps = kSequenceSteps, kFeatures = 3, kCells = kSequenceCells, kUnits = 5;

// Three runs of one executor: the LSTM's state carries from run to run, so each run's bytes
// differ, and a sum that did not restart would differ too.
std::vector<std::vector<uint8_t>> three_runs(const ModelDef& m) {
  const std::vector<float> input = random_floats(kSteps * kFeatures, 9);
  std::vector<uint8_t> bytes(input.size() * sizeof(float));
  std::memcpy(bytes.data(), input.data(), bytes.size());
  return outputs_of_runs(m, bytes, 3);
}

bool offered(const ModelDef& m, BandChain chain) {
  const std::vector<BandChain> chains = tools::band_chains(m, {});
  return std::find(chains.begin(), chains.end(), chain) != chains.end();
}

TEST(BandSequence, AnLstmReadOnlyByAFullyConnectedLayerIsOffered) {
  EXPECT_TRUE(offered(lstm_sequence_model(false), BandChain{0, 0, true, true}));
  EXPECT_TRUE(offered(lstm_sequence_model(true), BandChain{0, 0, true, true}));
  EXPECT_FALSE(offered(lstm_sequence_model(false, true), BandChain{0, 0, true, true}));  // y is read outside
}

TEST(BandSequence, EveryBandCountGivesThePlainBytesRunAfterRun) {
  for (const bool time_major : {false, true}) {
    const ModelDef plain = lstm_sequence_model(time_major);
    const auto expected = three_runs(plain);
    ASSERT_EQ(expected.size(), 3u);
    ASSERT_NE(expected[0], expected[1]);  // the state carried over
    for (uint32_t bands = 2; bands <= kSteps; ++bands) {
      ModelDef banded = plain;
      std::string error;
      ASSERT_TRUE(tools::apply_bands(&banded, {BandChain{0, 0, true, true}, bands}, nullptr, nullptr, &error)) << error;
      EXPECT_EQ(banded.nodes.size(), 2 * bands + 1);
      EXPECT_EQ(three_runs(banded), expected) << bands << " bands, time major " << time_major;
    }
  }
}

TEST(BandSequence, TheSequenceIsHeldOneBandAtATime) {
  ModelDef plain = lstm_sequence_model(false);
  ModelDef banded = plain;
  std::string error;
  ASSERT_TRUE(tools::apply_bands(&banded, {BandChain{0, 0, true, true}, kSteps}, nullptr, nullptr, &error)) << error;
  // x, h and c stay; y's 12 steps become one step and the fully connected layer's lanes.
  const uint64_t y_bytes = kSteps * kCells * 4, step_bytes = kCells * 4, lanes_bytes = kUnits * 8 * 4;
  EXPECT_LT(planned_size(&banded), planned_size(&plain) - y_bytes + step_bytes + lanes_bytes + 64);
  for (const tools::TensorDef& t : banded.tensors) EXPECT_NE(t.name, "y");  // gone, and its alias with it
  tools::BandPlan plan;
  ASSERT_TRUE(tools::search_bands(plain, tools::PlanOptions{}, 0.0, &plan, &error)) << error;
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_TRUE(plan.steps[0].chain.sequence);
  EXPECT_EQ(plan.extra_macs, 0u);
}

// Bands of steps cost no MAC but two nodes each: the search stops where their bookkeeping
// outweighs the bytes a smaller band saves, about sqrt(sequence bytes / 16) bands (the
// sequence here is 768 bytes: 7), though 12 one-step bands would lower the peak further
// (6 or 7 bands hold the same two steps; the search takes the fewer).
TEST(BandSequence, TheSearchCutsNoMoreBandsThanTheirNodesAreWorth) {
  const ModelDef plain = lstm_sequence_model(false);
  tools::BandPlan plan;
  std::string error;
  ASSERT_TRUE(tools::search_bands(plain, tools::PlanOptions{}, 0.0, &plan, &error)) << error;
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_GE(plan.steps[0].bands, 2u);
  EXPECT_LE(plan.steps[0].bands, 7u);
  EXPECT_EQ(plan.nodes, 2u * plan.steps[0].bands + 1);
}

TEST(BandSequence, RefusesBandCountsTheStepsCannotFill) {
  for (const uint32_t bands : {1u, static_cast<uint32_t>(kSteps + 1)}) {
    ModelDef m = lstm_sequence_model(false);
    std::string error;
    EXPECT_FALSE(tools::apply_bands(&m, {BandChain{0, 0, true, true}, bands}, nullptr, nullptr, &error));
    EXPECT_NE(error.find("time steps"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace grt::test
