// The conformance suite: every model of the kernels issue, imported from its .tflite,
// planned, and run on every one of TensorFlow Lite Micro's reference cases under every
// memory strategy. Integer outputs must match byte for byte, float outputs within
// meta.json's tolerance. A model that does not import is a failure, not a skip.
// Prints one line per model: cases passed / cases total.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "golden.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "host_executor.h"
#include "zoo.h"

namespace grt::test {
namespace {

std::vector<std::string> conformance_models() {
  std::vector<std::string> models = {
      "hello_world_int8",         "hello_world_float",          "micro_speech_quantized",
      "person_detect",            "simple_add_model",           "mobilenet_v2_quantized_1x3x224x224",
      "mlperf_ad_autoencoder_int8", "mlperf_ad_autoencoder_float", "mlperf_ad_autoencoder_int8_floatio",
      "mlperf_ic_resnet8_int8",   "mlperf_ic_resnet8_float",    "mlperf_ic_resnet_large_int8",
      "mlperf_kws_dscnn_int8",    "mlperf_sww_int8",            "mlperf_vww_mobilenet_int8",
      "mlperf_vww_mobilenet_float",
  };
  // TFLM's seanet integration models: int16 activations, int8 weights, one operator each.
  const std::pair<const char*, int> seanet[] = {{"add", 17},        {"conv", 22},   {"leaky_relu", 23}, {"pad", 19},
                                                {"quantize", 2},    {"strided_slice", 34}, {"sub", 5},
                                                {"transpose_conv", 5}};
  for (const auto& [op, count] : seanet) {
    for (int i = 0; i < count; ++i) models.push_back("seanet_" + std::string(op) + std::to_string(i));
  }
  return models;
}

struct StrategyScore {
  cli::Strategy strategy;
  grt_arguments arguments = GRT_ARGUMENTS_LEAN;
  int passed = 0;
};

class Conformance : public ::testing::TestWithParam<std::string> {};

TEST_P(Conformance, EveryGoldenCaseUnderEveryStrategy) {
  GRT_REQUIRE_ZOO(zoo);
  const std::string& name = GetParam();
  const std::vector<uint8_t> tflite = read_bytes(zoo / "models" / (name + ".tflite"));
  ASSERT_FALSE(tflite.empty()) << name << ".tflite is missing from " << zoo;
  tools::ModelDef model;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &model);
  ASSERT_TRUE(imported.ok) << name << " does not import: " << imported.error;
  std::string error;
  ASSERT_TRUE(tools::plan_model(&model, tools::PlanOptions{}, nullptr, &error)) << error;
  const tools::AlignedBytes blob(tools::serialize(model));
  GoldenModel golden;
  ASSERT_TRUE(load_golden(zoo, name, &golden, &error)) << error;

  // Arguments marshalled per node (the default) under each strategy, and prepared at init.
  std::vector<StrategyScore> scores = {{cli::Strategy::kStatic}, {cli::Strategy::kPage}, {cli::Strategy::kStack},
                                       {cli::Strategy::kStatic, GRT_ARGUMENTS_PREPARED}};
  for (StrategyScore& score : scores) {
    cli::HostExecutor executor;
    cli::HostExecutor::Options options;
    options.strategy = score.strategy;
    options.arguments = score.arguments;
    ASSERT_TRUE(executor.init(blob, options, &error)) << name << " (" << cli::strategy_name(score.strategy) << "): " << error;
    grt_executor* x = executor.get();
    for (size_t k = 0; k < golden.cases.size(); ++k) {
      const GoldenCase& c = golden.cases[k];
      ASSERT_EQ(c.inputs.size(), grt_input_count(x)) << name << " case " << k + 1;
      bool ok = true;
      for (uint32_t i = 0; i < grt_input_count(x); ++i) {
        DLTensor* in = grt_input(x, i);
        ASSERT_EQ(c.inputs[i].size(), grt_tensor_bytes(in)) << name << " case " << k + 1 << " input " << i;
        std::memcpy(in->data, c.inputs[i].data(), c.inputs[i].size());
      }
      const grt_status status = grt_run(x);
      EXPECT_EQ(status, GRT_OK) << name << " case " << k + 1 << ": " << grt_last_error(x)->message;
      ok = status == GRT_OK;
      for (uint32_t o = 0; ok && o < grt_output_count(x); ++o) {
        const std::string difference = compare_output(golden, c, o, *grt_output(x, o));
        EXPECT_TRUE(difference.empty()) << name << " case " << k + 1 << " (" << cli::strategy_name(score.strategy) << "): " << difference;
        ok = difference.empty();
      }
      if (ok) score.passed++;
    }
  }
  const int total = static_cast<int>(golden.cases.size());
  int passed = total;
  for (const StrategyScore& s : scores) passed = std::min(passed, s.passed);
  std::printf("conformance: %-40s %d/%d cases (static %d/%d, page %d/%d, stack %d/%d, static prepared %d/%d)\n", name.c_str(),
              passed, total, scores[0].passed, total, scores[1].passed, total, scores[2].passed, total, scores[3].passed, total);
}

INSTANTIATE_TEST_SUITE_P(Zoo, Conformance, ::testing::ValuesIn(conformance_models()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace grt::test
