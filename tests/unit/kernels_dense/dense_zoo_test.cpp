// Real models against TFLM's reference outputs: each model is imported, planned with
// plan_default, serialized, loaded under the static strategy and run on every golden case.
// Integer outputs must match byte for byte; float outputs within meta.json's tolerance.
// The first group uses only dense operators; the second runs every zoo model with a dense
// operator once the other families' converters let it import (skipped until then).
#include <gtest/gtest.h>

#include <flatbuffers/flexbuffers.h>
#include <flatbuffers/idl.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"
#include "test_models.h"
#include "zoo.h"

namespace grt::test {
namespace {

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Float tolerance per output: |got - expected| <= abs + rel * |expected|.
struct Tolerance {
  double abs = 0.0;
  double rel = 0.0;
};

std::vector<Tolerance> read_tolerances(const std::filesystem::path& meta) {
  const std::vector<uint8_t> bytes = read_file(meta);
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
    Tolerance tol;
    if (t.IsMap()) {
      tol.abs = t.AsMap()["abs"].AsDouble();
      tol.rel = t.AsMap()["rel"].AsDouble();
    }
    tolerances.push_back(tol);
  }
  return tolerances;
}

enum class Imported { kOk, kUnsupported };

// Imports, plans, loads and runs every golden case of `model`, comparing outputs.
Imported run_golden_cases(const std::string& model) {
  const auto zoo = model_zoo();
  if (!zoo) return Imported::kUnsupported;
  const std::vector<uint8_t> tflite = read_file(*zoo / "models" / (model + ".tflite"));
  EXPECT_FALSE(tflite.empty()) << model;
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &def);
  if (!imported.ok && !imported.unsupported.empty()) return Imported::kUnsupported;
  EXPECT_TRUE(imported.ok) << model << ": " << imported.error;
  if (!imported.ok) return Imported::kOk;
  tools::plan_default(&def);
  const tools::AlignedBytes blob = to_blob(def);

  const std::filesystem::path golden = *zoo / "golden" / model;
  const std::vector<Tolerance> tolerances = read_tolerances(golden / "meta.json");
  int cases = 0;
  for (int k = 1;; ++k) {
    const std::string prefix = "case" + std::to_string(k);
    if (!std::filesystem::exists(golden / (prefix + ".in0.bin"))) break;
    ++cases;
    StaticRun run(blob);
    EXPECT_EQ(run.status, GRT_OK) << model << ": " << run.error.message;
    if (run.status != GRT_OK) return Imported::kOk;
    for (uint32_t i = 0; i < grt_input_count(run.executor); ++i) {
      const std::vector<uint8_t> in = read_file(golden / (prefix + ".in" + std::to_string(i) + ".bin"));
      DLTensor* t = grt_input(run.executor, i);
      EXPECT_EQ(in.size(), grt_tensor_bytes(t)) << model << " " << prefix << " input " << i;
      if (in.size() != grt_tensor_bytes(t)) return Imported::kOk;
      std::memcpy(t->data, in.data(), in.size());
    }
    EXPECT_EQ(grt_run(run.executor), GRT_OK) << model << ": " << grt_last_error(run.executor)->message;
    for (uint32_t o = 0; o < grt_output_count(run.executor); ++o) {
      const std::vector<uint8_t> expected = read_file(golden / (prefix + ".out" + std::to_string(o) + ".bin"));
      const DLTensor* t = grt_output(run.executor, o);
      const auto* got = static_cast<const uint8_t*>(t->data);
      EXPECT_EQ(expected.size(), grt_tensor_bytes(t)) << model << " " << prefix << " output " << o;
      if (expected.size() != grt_tensor_bytes(t)) continue;
      if (t->dtype.code == kDLFloat && t->dtype.bits == 32) {
        const Tolerance tol = o < tolerances.size() ? tolerances[o] : Tolerance{};
        std::vector<float> e(expected.size() / 4), g(expected.size() / 4);
        std::memcpy(e.data(), expected.data(), expected.size());
        std::memcpy(g.data(), got, expected.size());
        int reported = 0;
        for (size_t i = 0; i < e.size() && reported < 5; ++i) {
          const double bound = tol.abs + tol.rel * std::fabs(static_cast<double>(e[i]));
          if (!(std::fabs(static_cast<double>(g[i]) - static_cast<double>(e[i])) <= bound)) {
            ADD_FAILURE() << model << " " << prefix << " output " << o << "[" << i << "]: got " << g[i] << ", TFLM " << e[i];
            ++reported;
          }
        }
      } else {
        EXPECT_EQ(std::vector<uint8_t>(got, got + expected.size()), expected) << model << " " << prefix << " output " << o;
      }
    }
  }
  EXPECT_GT(cases, 0) << model << ": no golden cases";
  return Imported::kOk;
}

class DenseOnlyModel : public ::testing::TestWithParam<const char*> {};

TEST_P(DenseOnlyModel, MatchesTflmOnEveryGoldenCase) {
  GRT_REQUIRE_ZOO(zoo);
  EXPECT_EQ(run_golden_cases(GetParam()), Imported::kOk) << GetParam() << " uses operators outside the dense family";
}

INSTANTIATE_TEST_SUITE_P(Zoo, DenseOnlyModel,
                         ::testing::Values("hello_world_int8", "hello_world_float", "mlperf_ad_autoencoder_int8",
                                           "mlperf_ad_autoencoder_float"));

class ModelWithDenseOperators : public ::testing::TestWithParam<const char*> {};

TEST_P(ModelWithDenseOperators, MatchesTflmOnceItImports) {
  GRT_REQUIRE_ZOO(zoo);
  if (run_golden_cases(GetParam()) == Imported::kUnsupported) {
    GTEST_SKIP() << GetParam() << " still has operators without a converter";
  }
}

INSTANTIATE_TEST_SUITE_P(Zoo, ModelWithDenseOperators,
                         ::testing::Values("mlperf_kws_dscnn_int8", "mlperf_ic_resnet8_int8", "mlperf_ic_resnet8_float",
                                           "mlperf_vww_mobilenet_int8", "mlperf_vww_mobilenet_float", "person_detect",
                                           "micro_speech_quantized", "mobilenet_v2_quantized_1x3x224x224",
                                           "mlperf_ic_resnet_large_int8", "mlperf_sww_int8"));

}  // namespace
}  // namespace grt::test
