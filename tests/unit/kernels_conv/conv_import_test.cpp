// End to end: real convolution models imported, planned, serialized, loaded and run on
// every reference case; outputs must equal TFLM's byte for byte.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
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

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string case_file(int k, const char* role, uint32_t i) {
  return "case" + std::to_string(k) + "." + role + std::to_string(i) + ".bin";
}

// Imports `model`, runs every golden case, returns how many ran.
int run_golden(const std::filesystem::path& zoo, const std::string& model) {
  const std::vector<uint8_t> tflite = read_file(zoo / "models" / (model + ".tflite"));
  EXPECT_FALSE(tflite.empty()) << model;
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &def);
  EXPECT_TRUE(imported.ok) << model << ": " << imported.error;
  if (!imported.ok) return 0;
  tools::plan_default(&def);
  const tools::AlignedBytes blob = to_blob(def);
  StaticRun run(blob);
  EXPECT_EQ(run.status, GRT_OK) << model << ": " << run.error.message;
  if (run.status != GRT_OK) return 0;
  const std::filesystem::path golden = zoo / "golden" / model;
  int cases = 0;
  for (int k = 1; std::filesystem::exists(golden / case_file(k, "in", 0)); ++k, ++cases) {
    for (uint32_t i = 0; i < def.inputs.size(); ++i) {
      const std::vector<uint8_t> bytes = read_file(golden / case_file(k, "in", i));
      DLTensor* in = grt_input(run.executor, i);
      EXPECT_EQ(grt_tensor_bytes(in), bytes.size()) << model << " input " << i;
      if (grt_tensor_bytes(in) != bytes.size()) return cases;
      std::memcpy(in->data, bytes.data(), bytes.size());
    }
    EXPECT_EQ(grt_run(run.executor), GRT_OK) << model << ": " << grt_last_error(run.executor)->message;
    for (uint32_t j = 0; j < def.outputs.size(); ++j) {
      const std::vector<uint8_t> expected = read_file(golden / case_file(k, "out", j));
      const DLTensor* out = grt_output(run.executor, j);
      const auto* p = static_cast<const uint8_t*>(out->data);
      EXPECT_EQ(std::vector<uint8_t>(p, p + grt_tensor_bytes(out)), expected) << model << " case " << k << " output " << j;
    }
  }
  return cases;
}

TEST(ConvImport, SeanetConvolutionsMatchTflm) {
  GRT_REQUIRE_ZOO(zoo);
  for (int m = 0; m <= 21; ++m) {
    const std::string model = "seanet_conv" + std::to_string(m);
    EXPECT_GT(run_golden(zoo, model), 0) << model;
  }
}

TEST(ConvImport, SeanetTransposeConvolutionsMatchTflm) {
  GRT_REQUIRE_ZOO(zoo);
  for (int m = 0; m <= 4; ++m) {
    const std::string model = "seanet_transpose_conv" + std::to_string(m);
    EXPECT_GT(run_golden(zoo, model), 0) << model;
  }
}

}  // namespace
}  // namespace grt::test
