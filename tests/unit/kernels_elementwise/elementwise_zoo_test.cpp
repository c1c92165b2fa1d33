// Real models against TFLM's reference outputs: each model is imported, planned with
// plan_default, serialized, loaded under the static strategy and run on every golden case.
// Integer outputs must match byte for byte; float outputs within meta.json's tolerance.
// The first group uses only this family's operators; the second runs zoo models that mix
// families once every converter they need exists (skipped until then).
#include <gtest/gtest.h>

#include <flatbuffers/flexbuffers.h>
#include <flatbuffers/idl.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"
#include "test_models.h"
#include "zoo.h"

namespace grt::test {
namespace {

std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// |got - expected| <= abs + rel * |expected| for float outputs (meta.json's rule).
struct Tolerance {
  double abs = 0.0;
  double rel = 0.0;
};

std::vector<Tolerance> float_tolerances(const std::filesystem::path& meta) {
  const std::vector<uint8_t> bytes = read_bytes(meta);
  const std::string text(bytes.begin(), bytes.end());
  flatbuffers::Parser parser;
  flexbuffers::Builder builder;
  std::vector<Tolerance> tolerances;
  if (!parser.ParseFlexBuffer(text.c_str(), meta.string().c_str(), &builder)) {
    ADD_FAILURE() << meta << ": " << parser.error_;
    return tolerances;
  }
  const auto outputs = flexbuffers::GetRoot(builder.GetBuffer()).AsMap()["comparison"].AsMap()["per_output"].AsVector();
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto t = outputs[i].AsMap()["tolerance"];
    tolerances.push_back(t.IsMap() ? Tolerance{t.AsMap()["abs"].AsDouble(), t.AsMap()["rel"].AsDouble()} : Tolerance{});
  }
  return tolerances;
}

void expect_floats_close(const std::vector<uint8_t>& expected, const uint8_t* got, Tolerance tol, const std::string& what) {
  std::vector<float> e(expected.size() / 4);
  std::vector<float> g(expected.size() / 4);
  std::memcpy(e.data(), expected.data(), e.size() * 4);
  std::memcpy(g.data(), got, g.size() * 4);
  int reported = 0;
  for (size_t i = 0; i < e.size() && reported < 5; ++i) {
    const double bound = tol.abs + tol.rel * std::fabs(static_cast<double>(e[i]));
    if (!(std::fabs(static_cast<double>(g[i]) - static_cast<double>(e[i])) <= bound)) {
      ADD_FAILURE() << what << "[" << i << "]: got " << g[i] << ", TFLM " << e[i];
      ++reported;
    }
  }
}

enum class Outcome { kRan, kUnsupported };

Outcome run_golden_cases(const std::filesystem::path& zoo, const std::string& model) {
  const std::vector<uint8_t> tflite = read_bytes(zoo / "models" / (model + ".tflite"));
  EXPECT_FALSE(tflite.empty()) << model;
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &def);
  if (!imported.ok && !imported.unsupported.empty()) return Outcome::kUnsupported;
  EXPECT_TRUE(imported.ok) << model << ": " << imported.error;
  if (!imported.ok) return Outcome::kRan;
  tools::plan_default(&def);
  const tools::AlignedBytes blob = to_blob(def);

  const std::filesystem::path golden = zoo / "golden" / model;
  const std::vector<Tolerance> tolerances = float_tolerances(golden / "meta.json");
  int cases = 0;
  for (int k = 1; std::filesystem::exists(golden / ("case" + std::to_string(k) + ".in0.bin")); ++k, ++cases) {
    const std::string prefix = model + " case" + std::to_string(k);
    const std::filesystem::path files = golden / ("case" + std::to_string(k));
    StaticRun run(blob);
    EXPECT_EQ(run.status, GRT_OK) << prefix << ": " << run.error.message;
    if (run.status != GRT_OK) return Outcome::kRan;
    for (uint32_t i = 0; i < grt_input_count(run.executor); ++i) {
      const std::vector<uint8_t> in = read_bytes(files.string() + ".in" + std::to_string(i) + ".bin");
      DLTensor* t = grt_input(run.executor, i);
      EXPECT_EQ(in.size(), grt_tensor_bytes(t)) << prefix << " input " << i;
      if (in.size() != grt_tensor_bytes(t)) return Outcome::kRan;
      std::memcpy(t->data, in.data(), in.size());
    }
    EXPECT_EQ(grt_run(run.executor), GRT_OK) << prefix << ": " << grt_last_error(run.executor)->message;
    for (uint32_t o = 0; o < grt_output_count(run.executor); ++o) {
      const std::vector<uint8_t> expected = read_bytes(files.string() + ".out" + std::to_string(o) + ".bin");
      const DLTensor* t = grt_output(run.executor, o);
      const auto* got = static_cast<const uint8_t*>(t->data);
      const std::string what = prefix + " output " + std::to_string(o);
      EXPECT_EQ(expected.size(), grt_tensor_bytes(t)) << what;
      if (expected.size() != grt_tensor_bytes(t)) continue;
      if (t->dtype.code == kDLFloat) {
        expect_floats_close(expected, got, o < tolerances.size() ? tolerances[o] : Tolerance{}, what);
      } else {
        EXPECT_EQ(std::vector<uint8_t>(got, got + expected.size()), expected) << what;
      }
    }
  }
  EXPECT_GT(cases, 0) << model << ": no golden cases";
  return Outcome::kRan;
}

std::vector<std::string> numbered(const std::string& stem, int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back(stem + std::to_string(i));
  return names;
}

std::vector<std::string> elementwise_only_models() {
  std::vector<std::string> names = {"simple_add_model"};
  for (const auto& [stem, count] : std::vector<std::pair<std::string, int>>{{"seanet_add", 17},
                                                                           {"seanet_sub", 5},
                                                                           {"seanet_pad", 19},
                                                                           {"seanet_strided_slice", 34},
                                                                           {"seanet_leaky_relu", 23},
                                                                           {"seanet_quantize", 2}}) {
    for (std::string& name : numbered(stem, count)) names.push_back(std::move(name));
  }
  return names;
}

std::string model_name(const ::testing::TestParamInfo<std::string>& param) { return param.param; }

class ElementwiseOnlyModel : public ::testing::TestWithParam<std::string> {};

TEST_P(ElementwiseOnlyModel, MatchesTflmOnEveryGoldenCase) {
  GRT_REQUIRE_ZOO(zoo);
  EXPECT_EQ(run_golden_cases(zoo, GetParam()), Outcome::kRan) << GetParam() << " uses operators outside this family";
}

INSTANTIATE_TEST_SUITE_P(Zoo, ElementwiseOnlyModel, ::testing::ValuesIn(elementwise_only_models()),
                         model_name);

class ModelWithElementwiseOperators : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelWithElementwiseOperators, MatchesTflmOnceItImports) {
  GRT_REQUIRE_ZOO(zoo);
  if (run_golden_cases(zoo, GetParam()) == Outcome::kUnsupported) {
    GTEST_SKIP() << GetParam() << " still has operators without a converter";
  }
}

INSTANTIATE_TEST_SUITE_P(Zoo, ModelWithElementwiseOperators,
                         ::testing::Values("mlperf_ic_resnet8_int8", "mlperf_ic_resnet8_float", "mlperf_ic_resnet_large_int8",
                                           "mobilenet_v2_quantized_1x3x224x224", "mlperf_ad_autoencoder_int8_floatio"),
                         model_name);

}  // namespace
}  // namespace grt::test
