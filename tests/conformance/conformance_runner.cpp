#include "conformance_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "graphrt/tools/bands.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "host_executor.h"
#include "in_place.h"

namespace grt::test {
namespace {

struct StrategyScore {
  cli::Strategy strategy;
  grt_arguments arguments = GRT_ARGUMENTS_LEAN;
  bool in_place = false;  // the blob planned with in-place operators
  bool bands = false;     // the blob with chains cut into bands (within 15 % extra MACs)
  int passed = 0;
};

}  // namespace

void expect_model_matches_golden(const std::string& name, const std::vector<uint8_t>& tflite, const GoldenModel& golden) {
  tools::ModelDef model;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &model);
  ASSERT_TRUE(imported.ok) << name << " does not import: " << imported.error;
  std::string error;
  tools::ModelDef in_place_model = model;
  // Bands as `graphrt plan --report` shows them; run only where the search cut a chain.
  tools::BandPlan band_plan;
  ASSERT_TRUE(tools::search_bands(model, tools::PlanOptions{}, 15.0, &band_plan, &error)) << error;
  tools::ModelDef band_model = model;
  ASSERT_TRUE(tools::apply_band_plan(&band_model, band_plan, &error)) << error;
  ASSERT_TRUE(tools::plan_model(&band_model, tools::PlanOptions{}, nullptr, &error)) << error;
  const tools::AlignedBytes band_blob(tools::serialize(band_model));
  ASSERT_TRUE(tools::plan_model(&model, tools::PlanOptions{}, nullptr, &error)) << error;
  const tools::AlignedBytes blob(tools::serialize(model));
  tools::PlanOptions in_place_options;
  in_place_options.overwritable_inputs = cli::builtin_overwritable_inputs();
  ASSERT_TRUE(tools::plan_model(&in_place_model, in_place_options, nullptr, &error)) << error;
  const tools::AlignedBytes in_place_blob(tools::serialize(in_place_model));

  // Arguments marshalled per node (the default) under each strategy, and prepared at init;
  // then the plan with in-place operators, whose offsets only the static strategy uses.
  std::vector<StrategyScore> scores = {{cli::Strategy::kStatic}, {cli::Strategy::kPage}, {cli::Strategy::kStack},
                                       {cli::Strategy::kStatic, GRT_ARGUMENTS_PREPARED},
                                       {cli::Strategy::kStatic, GRT_ARGUMENTS_LEAN, true},
                                       {cli::Strategy::kStatic, GRT_ARGUMENTS_PREPARED, true},
                                       {cli::Strategy::kStatic, GRT_ARGUMENTS_LEAN, false, true},
                                       {cli::Strategy::kPage, GRT_ARGUMENTS_LEAN, false, true},
                                       {cli::Strategy::kStatic, GRT_ARGUMENTS_PREPARED, false, true}};
  const auto label = [](const StrategyScore& s) {
    return std::string(cli::strategy_name(s.strategy)) + (s.in_place ? ", in place" : "") + (s.bands ? ", bands" : "") +
           (s.arguments == GRT_ARGUMENTS_PREPARED ? ", prepared" : "");
  };
  for (StrategyScore& score : scores) {
    if (score.bands && band_plan.steps.empty()) {
      score.passed = static_cast<int>(golden.cases.size());  // the same blob as the plain plan's
      continue;
    }
    cli::HostExecutor executor;
    cli::HostExecutor::Options options;
    options.strategy = score.strategy;
    options.arguments = score.arguments;
    ASSERT_TRUE(executor.init(score.bands ? band_blob : score.in_place ? in_place_blob : blob, options, &error)) << name << " (" << label(score) << "): " << error;
    grt_executor* x = executor.get();
    for (size_t k = 0; k < golden.cases.size(); ++k) {
      const GoldenCase& c = golden.cases[k];
      // TFLM's golden cases each start from a fresh interpreter: state at its initial values.
      ASSERT_EQ(grt_reset_state(x), GRT_OK);
      ASSERT_EQ(c.inputs.size(), grt_input_count(x)) << name << " case " << k + 1;
      for (uint32_t i = 0; i < grt_input_count(x); ++i) {
        DLTensor* in = grt_input(x, i);
        ASSERT_EQ(c.inputs[i].size(), grt_tensor_bytes(in)) << name << " case " << k + 1 << " input " << i;
        std::memcpy(in->data, c.inputs[i].data(), c.inputs[i].size());
      }
      const grt_status status = grt_run(x);
      EXPECT_EQ(status, GRT_OK) << name << " case " << k + 1 << ": " << grt_last_error(x)->message;
      bool ok = status == GRT_OK;
      for (uint32_t o = 0; ok && o < grt_output_count(x); ++o) {
        const std::string difference = compare_output(golden, c, o, *grt_output(x, o));
        EXPECT_TRUE(difference.empty()) << name << " case " << k + 1 << " (" << label(score) << "): " << difference;
        ok = difference.empty();
      }
      if (ok) score.passed++;
    }
  }
  const int total = static_cast<int>(golden.cases.size());
  int passed = total;
  for (const StrategyScore& s : scores) passed = std::min(passed, s.passed);
  std::printf(
      "conformance: %-40s %d/%d cases (static %d/%d, page %d/%d, stack %d/%d, static prepared %d/%d, in place %d/%d, in place "
      "prepared %d/%d, bands %d/%d, bands page %d/%d, bands prepared %d/%d; %zu chains in bands)\n",
      name.c_str(), passed, total, scores[0].passed, total, scores[1].passed, total, scores[2].passed, total, scores[3].passed, total,
      scores[4].passed, total, scores[5].passed, total, scores[6].passed, total, scores[7].passed, total, scores[8].passed, total,
      band_plan.steps.size());
}

}  // namespace grt::test
