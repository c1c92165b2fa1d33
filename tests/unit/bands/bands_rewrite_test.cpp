// The band rewrite on small synthetic chains: a band plan computes the same bytes as the
// plain plan (conv with stride 2 and SAME padding, depthwise, pointwise, a residual ADD,
// pooling), the loader accepts the band nodes' views as they are, and the band plan's
// peak is lower. Plus the rewrite's refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "band_chain_model.h"
#include "graphrt/tools/bands.h"
#include "graphrt/tools/memory_plan.h"
#include "test_models.h"

namespace grt::test {
namespace {

using tools::ModelDef;

struct Planned {
  ModelDef model;
  uint64_t size = 0;
};

Planned planned(ModelDef m) {
  tools::PlanReport report;
  std::string error;
  EXPECT_TRUE(tools::plan_model(&m, tools::PlanOptions{}, &report, &error)) << error;
  return Planned{std::move(m), report.total_size};
}

std::vector<uint8_t> run(const ModelDef& m, const std::vector<int8_t>& input) {
  const tools::AlignedBytes blob = to_blob(m);
  StaticRun r(blob);
  EXPECT_EQ(r.status, GRT_OK) << r.error.message;
  if (r.status != GRT_OK) return {};
  DLTensor* in = grt_input(r.executor, 0);
  EXPECT_EQ(grt_tensor_bytes(in), input.size());
  std::memcpy(in->data, input.data(), input.size());
  EXPECT_EQ(grt_run(r.executor), GRT_OK) << grt_last_error(r.executor)->message;
  const DLTensor* out = grt_output(r.executor, 0);
  const auto* bytes = static_cast<const uint8_t*>(out->data);
  return std::vector<uint8_t>(bytes, bytes + grt_tensor_bytes(out));
}

TEST(BandRewrite, FindsTheChainsOfConsecutiveRowKernels) {
  const ModelDef m = band_chain_model();
  const std::vector<tools::BandChain> chains = tools::band_chains(m, {});
  // c is read by the add, so every chain holding the first conv reaches the add.
  bool whole = false;
  for (const auto& c : chains) {
    EXPECT_FALSE(c.first == 0 && c.last < 3) << c.first << ".." << c.last;
    whole = whole || (c.first == 0 && c.last == 5);
  }
  EXPECT_TRUE(whole);
}

TEST(BandRewrite, EveryBandCountComputesThePlainPlansBytes) {
  const ModelDef plain = band_chain_model();
  const std::vector<int8_t> input = random_bytes(15 * 13 * 3, 7);
  const std::vector<uint8_t> expected = run(planned(plain).model, input);
  ASSERT_EQ(expected.size(), 7u * 6 * 4);
  for (const tools::BandChain chain : {tools::BandChain{0, 3}, tools::BandChain{0, 4}, tools::BandChain{0, 5}, tools::BandChain{1, 3}}) {
    const uint32_t rows = chain.last == 3 ? 8 : 7;  // of y, else of z and out
    for (uint32_t bands = 2; bands <= rows; ++bands) {
      for (const tools::BandHalo halo : {tools::BandHalo::kRecompute, tools::BandHalo::kKeep, tools::BandHalo::kKeepRowByRow}) {
        ModelDef banded = plain;
        std::string error;
        ASSERT_TRUE(tools::apply_bands(&banded, {chain, bands, halo}, nullptr, nullptr, &error)) << error;
        EXPECT_EQ(run(planned(banded).model, input), expected)
            << "nodes " << chain.first << ".." << chain.last << ", " << bands << " bands, halo mode " << static_cast<int>(halo);
      }
    }
  }
}

TEST(BandRewrite, BandsLowerThePeakAndCountTheHalosMacs) {
  const ModelDef plain = band_chain_model();
  ModelDef banded = plain;
  tools::BandCost cost;
  std::string error;
  ASSERT_TRUE(tools::apply_bands(&banded, {tools::BandChain{0, 3}, 8}, &cost, nullptr, &error)) << error;
  EXPECT_LT(planned(banded).size, planned(plain).size);
  // One-row bands of y: d needs rows r-1..r+1 of c, so c's rows are computed up to 3 times
  // (first conv) and d's once (the 1x1 conv reads only its own row): 16 extra rows of c.
  const uint64_t conv_row = 7 * 16 * 3 * 3 * 3;
  EXPECT_EQ(cost.extra_macs, (3 * 8 - 2 - 8) * conv_row);
  EXPECT_EQ(cost.copied_bytes, 0u);
  EXPECT_EQ(tools::convolution_macs(plain), 8 * conv_row + 8 * 7 * 16 * 9 + 8 * 7 * 16 * 16 + 7 * 6 * 4 * 9 * 16);
}

// Kept halos: each row of c is computed once (no extra MACs); before each step from the
// fourth on, the two rows of c the depthwise still reads move to the top of c's buffer.
TEST(BandRewrite, KeptHalosComputeEveryRowOnceAndCountTheBytesMoved) {
  const ModelDef plain = band_chain_model();
  ModelDef banded = plain;
  tools::BandCost cost;
  std::string error;
  ASSERT_TRUE(tools::apply_bands(&banded, {tools::BandChain{0, 3}, 8, tools::BandHalo::kKeep}, &cost, nullptr, &error)) << error;
  EXPECT_EQ(cost.extra_macs, 0u);
  // One-row bands of y, nine steps: the depthwise reads three rows of c; six steps move two.
  const uint64_t c_row = 7 * 16;
  EXPECT_EQ(cost.copied_bytes, 6 * 2 * c_row);
  size_t copies = 0, c_buffers = 0;
  for (const tools::NodeDef& node : banded.nodes) copies += banded.kernels[node.kernel] == "copy" ? 1 : 0;
  for (const tools::TensorDef& t : banded.tensors) {
    if (t.kind != tools::TensorKind::Activation || t.name.rfind("c ", 0) != 0) continue;
    ++c_buffers;
    EXPECT_EQ(t.shape, (std::vector<int64_t>{1, 3, 7, 16})) << t.name;  // three rows of c, for every band
  }
  EXPECT_EQ(copies, 6u);
  EXPECT_EQ(c_buffers, 1u);
  // One row of c per step: the first step fills the pipeline (c's row 0 only), so no step
  // holds more of c than a steady one.
  size_t c_writers = 0;
  for (const tools::NodeDef& node : banded.nodes) c_writers += node.name.rfind("c band", 0) == 0 ? 1 : 0;
  EXPECT_EQ(c_writers, 8u);
  EXPECT_LT(planned(banded).size, planned(plain).size);
  const std::vector<int8_t> input = random_bytes(15 * 13 * 3, 11);
  EXPECT_EQ(run(planned(banded).model, input), run(planned(plain).model, input));
}

// Float residual adds and subtractions join chains as the integer ones do (ResNet's float
// stages): every band count gives the plain plan's bytes.
TEST(BandRewrite, FloatAddsAndSubtractionsAreRowKernels) {
  ModelDef plain;
  plain.name = "float_chain";
  plain.producer = "graphrt tests";
  const uint32_t x = plain.add_activation("x", tools::DType::Float32, {1, 6, 4, 2});
  const uint32_t a = plain.add_activation("a", tools::DType::Float32, {1, 6, 4, 2});
  const uint32_t b = plain.add_activation("b", tools::DType::Float32, {1, 6, 4, 2});
  const auto binary = [&](const char* kernel, uint32_t p, uint32_t q, uint32_t out) {
    plain.add_node(kernel, {tools::ArgDef::input(p), tools::ArgDef::input(q), tools::ArgDef::output(out), tools::ArgDef::real(-1e30),
                            tools::ArgDef::real(1e30)},
                   kernel);
  };
  binary("add_f32", x, x, a);
  binary("sub_f32", a, x, b);
  plain.inputs = {x};
  plain.outputs = {b};
  const std::vector<tools::BandChain> chains = tools::band_chains(plain, {});
  ASSERT_NE(std::find(chains.begin(), chains.end(), tools::BandChain{0, 1}), chains.end());
  std::vector<int8_t> input(6 * 4 * 2 * sizeof(float));
  for (size_t i = 0; i < input.size() / sizeof(float); ++i) {
    const float v = static_cast<float>(i) * 0.37f - 3.0f;
    std::memcpy(input.data() + i * sizeof(float), &v, sizeof v);
  }
  const std::vector<uint8_t> expected = run(planned(plain).model, input);
  for (uint32_t bands = 2; bands <= 6; ++bands) {
    ModelDef banded = plain;
    std::string error;
    ASSERT_TRUE(tools::apply_bands(&banded, {tools::BandChain{0, 1}, bands, tools::BandHalo::kRecompute}, nullptr, nullptr, &error)) << error;
    EXPECT_EQ(run(planned(banded).model, input), expected) << bands << " bands";
  }
}

// Row by row, no layer computes more than a row at a time: each kept buffer holds the rows
// of one window (3 for the 3x3 layers), not a whole step's (a step of d's rows is four of
// a's), whatever the band count.
TEST(BandRewrite, RowByRowKeepsOneWindowOfEachIntermediate) {
  const ModelDef plain = strided_chain_model();
  const std::vector<int8_t> input = random_bytes(16 * 8 * 4, 12);
  const std::vector<uint8_t> expected = run(planned(plain).model, input);
  for (const uint32_t bands : {2u, 4u}) {
    ModelDef coarse = plain, fine = plain;
    std::string error;
    ASSERT_TRUE(tools::apply_bands(&coarse, {tools::BandChain{0, 3}, bands, tools::BandHalo::kKeep}, nullptr, nullptr, &error)) << error;
    ASSERT_TRUE(tools::apply_bands(&fine, {tools::BandChain{0, 3}, bands, tools::BandHalo::kKeepRowByRow}, nullptr, nullptr, &error))
        << error;
    for (const tools::TensorDef& t : fine.tensors) {
      if (t.kind == tools::TensorKind::Activation && t.name.find("kept rows") != std::string::npos) {
        EXPECT_LE(t.shape[1], 3) << t.name << ", " << bands << " bands";
      }
    }
    EXPECT_EQ(run(planned(fine).model, input), expected) << bands << " bands";
    EXPECT_EQ(run(planned(coarse).model, input), expected) << bands << " bands";
    EXPECT_LT(planned(fine).size, planned(coarse).size) << bands << " bands";
    EXPECT_GT(fine.nodes.size(), coarse.nodes.size());  // the price
  }
}

// A budget that kept bands meet without row-by-row steps gets such a plan (fewer nodes); a
// tighter one gets row-by-row steps.
TEST(BandRewrite, ABudgetTakesRowByRowStepsOnlyWhenNeeded) {
  const ModelDef m = strided_chain_model();
  std::string error;
  tools::BandPlan coarse, fine;
  ASSERT_TRUE(tools::search_bands(m, tools::PlanOptions{}, 0.0, &coarse, &error, 0, false)) << error;
  ASSERT_TRUE(tools::search_bands(m, tools::PlanOptions{}, 0.0, &fine, &error)) << error;
  ASSERT_LT(fine.activations, coarse.activations);
  const auto row_by_row = [](const tools::BandPlan& p) {
    return std::any_of(p.steps.begin(), p.steps.end(), [](const tools::BandStep& s) { return s.halo == tools::BandHalo::kKeepRowByRow; });
  };
  ASSERT_TRUE(row_by_row(fine));
  std::vector<tools::BandPlan> ladder;
  ASSERT_TRUE(tools::band_plan_ladder(m, tools::PlanOptions{}, 0.0, &ladder, &error, coarse.activations)) << error;
  EXPECT_LE(ladder.back().activations, coarse.activations);
  EXPECT_FALSE(row_by_row(ladder.back()));
  ASSERT_TRUE(tools::band_plan_ladder(m, tools::PlanOptions{}, 0.0, &ladder, &error, fine.activations)) << error;
  EXPECT_LE(ladder.back().activations, fine.activations);
  EXPECT_TRUE(row_by_row(ladder.back()));
}

// Band blobs need no rule of their own, and the loader's rules hold for them: a view past
// the end of its tensor, or a band's intermediate placed over the chain's output while both
// are live, is refused as in any blob.
TEST(BandRewrite, TheLoaderChecksBandBlobsAsAnyOther) {
  ModelDef m = band_chain_model();
  std::string error;
  ASSERT_TRUE(tools::apply_bands(&m, {tools::BandChain{0, 3}, 4}, nullptr, nullptr, &error)) << error;
  const ModelDef banded = planned(m).model;
  grt_error e{};
  ASSERT_EQ(init_status(to_blob(banded), &e), GRT_OK) << e.message;

  ModelDef past_the_end = banded;
  for (auto& t : past_the_end.tensors) {
    if (t.kind != tools::TensorKind::Alias) continue;
    t.offset = past_the_end.tensors[t.alias_of].bytes() - t.bytes() + 1;  // one byte too far
    break;
  }
  EXPECT_EQ(init_status(to_blob(past_the_end), &e), GRT_ERR_ALIAS) << e.message;

  ModelDef overlapping = banded;
  // y is the chain's output, written through views by every band.
  uint64_t y_offset = UINT64_MAX;
  for (const auto& t : overlapping.tensors) {
    if (t.name == "y") y_offset = t.offset;
  }
  ASSERT_NE(y_offset, UINT64_MAX);
  for (auto& t : overlapping.tensors) {
    if (t.name == "c band 1") t.offset = y_offset;  // live while y holds band 0's rows
  }
  EXPECT_EQ(init_status(to_blob(overlapping), &e), GRT_ERR_PLAN_OVERLAP) << e.message;
}

TEST(BandRewrite, RefusesWhatItCannotCut) {
  ModelDef m = band_chain_model();
  const ModelDef before = m;
  std::string error;
  EXPECT_FALSE(tools::apply_bands(&m, {tools::BandChain{0, 1}, 2}, nullptr, nullptr, &error));
  EXPECT_EQ(error, "nodes 0 to 1 are not a chain bands can cut");
  EXPECT_FALSE(tools::apply_bands(&m, {tools::BandChain{0, 3}, 9}, nullptr, nullptr, &error));
  EXPECT_EQ(error, "9 bands asked for over 8 output rows (2 to the rows)");
  EXPECT_FALSE(tools::apply_bands(&m, {tools::BandChain{0, 3}, 1}, nullptr, nullptr, &error));
  EXPECT_EQ(m.nodes.size(), before.nodes.size());
  EXPECT_EQ(m.tensors.size(), before.tensors.size());
  // Subgraphs' ranges follow the main graph's lists, which the rewrite would lengthen.
  ModelDef with_subgraph = band_chain_model();
  with_subgraph.subgraphs.push_back(tools::SubgraphDef{"body", static_cast<uint32_t>(with_subgraph.nodes.size()), 0,
                                                       static_cast<uint32_t>(with_subgraph.tensors.size()), 0, {}, {}});
  EXPECT_TRUE(tools::band_chains(with_subgraph, {}).empty());
  EXPECT_FALSE(tools::apply_bands(&with_subgraph, {tools::BandChain{0, 3}, 2}, nullptr, nullptr, &error));
  EXPECT_EQ(error, "nodes 0 to 3 are not a chain bands can cut");
}

TEST(BandRewrite, SearchKeepsWithinTheMacLimit) {
  const ModelDef m = band_chain_model();
  // Without extra MACs only chains with no halo to recompute (the depthwise reads the
  // whole c from outside the chain).
  tools::BandPlan none;
  std::string error;
  ASSERT_TRUE(tools::search_bands(m, tools::PlanOptions{}, 0.0, &none, &error)) << error;
  EXPECT_EQ(none.extra_macs, 0u);
  EXPECT_LE(none.size, planned(m).size);
  tools::BandPlan some;
  ASSERT_TRUE(tools::search_bands(m, tools::PlanOptions{}, 50.0, &some, &error)) << error;
  EXPECT_FALSE(some.steps.empty());
  EXPECT_LE(some.extra_percent(), 50.0);
  EXPECT_LE(some.size, none.size);
  EXPECT_LT(some.size, planned(m).size);
  ModelDef banded = m;
  ASSERT_TRUE(tools::apply_band_plan(&banded, some, &error)) << error;
  const std::vector<int8_t> input = random_bytes(15 * 13 * 3, 9);
  EXPECT_EQ(run(planned(banded).model, input), run(planned(m).model, input));
}

// The ladder offers plans fewest extra MACs first, each smaller than the one before; given a
// budget it ends at the first plan that fits (a budget the plain plan meets: no search at all).
TEST(BandRewrite, LadderEndsAtTheFirstPlanWithinABudget) {
  const ModelDef m = band_chain_model();
  std::vector<tools::BandPlan> whole;
  std::string error;
  ASSERT_TRUE(tools::band_plan_ladder(m, tools::PlanOptions{}, 100.0, &whole, &error)) << error;
  ASSERT_GE(whole.size(), 2u);
  EXPECT_TRUE(whole.front().steps.empty());
  for (size_t k = 1; k < whole.size(); ++k) EXPECT_LT(whole[k].activations, whole[k - 1].activations);

  std::vector<tools::BandPlan> roomy;
  ASSERT_TRUE(tools::band_plan_ladder(m, tools::PlanOptions{}, 100.0, &roomy, &error, whole.front().activations)) << error;
  ASSERT_EQ(roomy.size(), 1u);
  EXPECT_TRUE(roomy.front().steps.empty());

  std::vector<tools::BandPlan> tight;
  ASSERT_TRUE(tools::band_plan_ladder(m, tools::PlanOptions{}, 100.0, &tight, &error, whole[1].activations)) << error;
  ASSERT_EQ(tight.size(), 2u);
  EXPECT_LE(tight.back().activations, whole[1].activations);
}

// Under a budget the chosen plan has the fewest bands that fit: a budget that a plan of at
// most `cap` bands per chain meets gets such a plan, not the deepest the search alone takes.
TEST(BandRewrite, ABudgetTakesTheFewestBandsThatFit) {
  const ModelDef m = band_chain_model();
  std::string error;
  const auto most_bands = [](const tools::BandPlan& p) {
    uint32_t most = 0;
    for (const tools::BandStep& s : p.steps) most = std::max(most, s.bands);
    return most;
  };
  tools::BandPlan deepest;
  ASSERT_TRUE(tools::search_bands(m, tools::PlanOptions{}, 0.0, &deepest, &error, 0, false)) << error;
  // The fewest bands at no extra MACs that lower the plan at all, and more than the deepest needs.
  tools::BandPlan fewer;
  uint32_t cap = 0;
  for (const uint32_t c : {2u, 4u, 8u}) {
    ASSERT_TRUE(tools::search_bands(m, tools::PlanOptions{}, 0.0, &fewer, &error, c, false)) << error;
    if (!fewer.steps.empty()) {
      cap = c;
      break;
    }
  }
  ASSERT_NE(cap, 0u);
  ASSERT_LE(most_bands(fewer), cap);
  ASSERT_GT(most_bands(deepest), cap);
  ASSERT_LT(deepest.activations, fewer.activations);
  std::vector<tools::BandPlan> ladder;
  ASSERT_TRUE(tools::band_plan_ladder(m, tools::PlanOptions{}, 100.0, &ladder, &error, fewer.activations)) << error;
  EXPECT_LE(ladder.back().activations, fewer.activations);
  EXPECT_LE(most_bands(ladder.back()), cap);
  EXPECT_EQ(ladder.back().extra_macs, 0u);
}

}  // namespace
}  // namespace grt::test
