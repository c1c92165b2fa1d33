// Band chains ending in a reduction (bands.h, BandChain::tail): a global average pool or a
// fully connected layer fed band by band through int32 sums gives the plain plan's bytes,
// run after run, under every band count and both halo modes, and lowers the peak; only
// reductions of the whole tensor qualify.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "band_chain_model.h"
#include "band_runs.h"
#include "graphrt/tools/bands.h"
#include "graphrt/tools/memory_plan.h"
#include "test_models.h"

namespace grt::test {
namespace {

using tools::BandChain;
using tools::BandHalo;
using tools::ModelDef;

// Two runs of one executor: a sum that did not restart on its first band would differ on the
// second.
std::vector<std::vector<uint8_t>> two_runs(const ModelDef& m, const std::vector<int8_t>& input) {
  return outputs_of_runs(m, std::vector<uint8_t>(input.begin(), input.end()), 2);
}

bool offered(const ModelDef& m, BandChain chain) {
  const std::vector<BandChain> chains = tools::band_chains(m, {});
  return std::find(chains.begin(), chains.end(), chain) != chains.end();
}

TEST(BandTail, ChainsComeWithAndWithoutTheirReduction) {
  for (const Tail tail : {Tail::kAveragePool, Tail::kFullyConnected}) {
    const ModelDef m = band_tail_model(tail);
    EXPECT_TRUE(offered(m, BandChain{0, 1, false}));
    EXPECT_TRUE(offered(m, BandChain{0, 1, true}));
    EXPECT_TRUE(offered(m, BandChain{1, 1, true}));   // one node with a tail is worth cutting
    EXPECT_FALSE(offered(m, BandChain{1, 1, false}));  // one node alone is not
    EXPECT_FALSE(offered(m, BandChain{0, 0, true}));   // c's reader is no reduction
  }
}

TEST(BandTail, EveryBandCountAndHaloGivesThePlainBytes) {
  const std::vector<int8_t> input = random_bytes(15 * 13 * 3, 11);
  for (const Tail tail : {Tail::kAveragePool, Tail::kFullyConnected}) {
    const ModelDef plain = band_tail_model(tail);
    const std::vector<uint8_t> expected = two_runs(plain, input).at(0);
    ASSERT_EQ(expected.size(), tail == Tail::kAveragePool ? 16u : 10u);
    for (const BandChain chain : {BandChain{0, 1, true}, BandChain{1, 1, true}}) {
      for (uint32_t bands = 2; bands <= 8; ++bands) {
        for (const BandHalo halo : {BandHalo::kRecompute, BandHalo::kKeep, BandHalo::kKeepRowByRow}) {
          ModelDef banded = plain;
          std::string error;
          ASSERT_TRUE(tools::apply_bands(&banded, {chain, bands, halo}, nullptr, nullptr, &error)) << error;
          const auto outputs = two_runs(banded, input);
          ASSERT_EQ(outputs.size(), 2u);
          const std::string what = std::string(tail == Tail::kAveragePool ? "pool" : "fc") + ", nodes " + std::to_string(chain.first) +
                                   ".." + std::to_string(chain.last) + ", " + std::to_string(bands) + " bands" +
                                   ", halo mode " + std::to_string(static_cast<int>(halo));
          EXPECT_EQ(outputs[0], expected) << what;
          EXPECT_EQ(outputs[1], expected) << what << ", second run";
        }
      }
    }
  }
}

TEST(BandTail, TheReductionTakesTheChainsOutputOffThePeak) {
  for (const Tail tail : {Tail::kAveragePool, Tail::kFullyConnected}) {
    ModelDef plain = band_tail_model(tail);
    ModelDef without = plain, with = plain;
    std::string error;
    ASSERT_TRUE(tools::apply_bands(&without, {BandChain{0, 1, false}, 8, BandHalo::kKeep}, nullptr, nullptr, &error)) << error;
    ASSERT_TRUE(tools::apply_bands(&with, {BandChain{0, 1, true}, 8, BandHalo::kKeep}, nullptr, nullptr, &error)) << error;
    const uint64_t plain_size = planned_size(&plain), without_size = planned_size(&without), with_size = planned_size(&with);
    // Without the tail d's 896 bytes stay whole beside the whole input: the bands gain
    // nothing. With it d holds one band, and the reduction's int32 sums are live.
    EXPECT_GE(without_size, plain_size);
    // (1,792 B plain; 1,104 and 1,088 B with 8 kept bands and a tail when this was written.)
    EXPECT_LE(with_size + 512, plain_size) << "without the tail " << without_size;
    tools::BandPlan plan;
    ASSERT_TRUE(tools::search_bands(plain, tools::PlanOptions{}, 15.0, &plan, &error)) << error;
    ASSERT_FALSE(plan.steps.empty());
    EXPECT_TRUE(plan.steps.back().chain.tail);
    EXPECT_LE(plan.size, with_size);
  }
}

TEST(BandTail, OnlyAReductionOfTheWholeTensorIsATail) {
  ModelDef partial_pool = band_tail_model(Tail::kAveragePool);
  partial_pool.nodes[2].args[4].value = 4;  // a window of 4 of d's 8 rows: two output rows
  partial_pool.tensors[partial_pool.nodes[2].args[1].value].shape = {1, 5, 1, 16};
  EXPECT_FALSE(offered(partial_pool, BandChain{0, 1, true}));
  EXPECT_TRUE(offered(partial_pool, BandChain{0, 1, false}));

  ModelDef padded_pool = band_tail_model(Tail::kAveragePool);
  padded_pool.nodes[2].args[6].value = 1;
  EXPECT_FALSE(offered(padded_pool, BandChain{0, 1, true}));

  // d read by the reduction and by a second node: it must stay whole.
  ModelDef shared = band_tail_model(Tail::kFullyConnected);
  const uint32_t d = static_cast<uint32_t>(shared.nodes[2].args[0].value);
  const uint32_t copy = shared.add_activation("d copy", tools::DType::Int8, {1, 8, 7, 16});
  shared.add_node("copy", {tools::ArgDef::input(d), tools::ArgDef::output(copy)}, "copy");
  shared.outputs.push_back(copy);
  EXPECT_FALSE(offered(shared, BandChain{0, 1, true}));
  std::string error;
  EXPECT_FALSE(tools::apply_bands(&shared, {BandChain{0, 1, true}, 2, BandHalo::kKeep}, nullptr, nullptr, &error));
  EXPECT_NE(error.find("not a chain bands can cut"), std::string::npos) << error;
}

}  // namespace
}  // namespace grt::test
