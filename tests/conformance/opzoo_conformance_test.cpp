// The operator zoo (zoo/opzoo, README there): single-operator models with TensorFlow Lite
// Micro's reference outputs, one test per model, run as the model zoo is (every case, every
// strategy; integers byte for byte, floats within meta.json's tolerance).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "conformance_runner.h"
#include "golden.h"
#include "graphrt/tools/importer.h"
#include "zoo.h"

namespace grt::test {
namespace {

// The models present when the tests are registered (the zoo is found the same way at run time).
std::vector<std::string> opzoo_models() {
  const char* env = std::getenv("GRT_MODEL_ZOO");
  const std::filesystem::path folder =
      std::filesystem::path(env != nullptr && *env != '\0' ? env : GRT_DEFAULT_MODEL_ZOO) / "opzoo";
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    if (entry.is_directory() && std::filesystem::exists(entry.path() / "meta.json")) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  // Without the zoo one test still runs, to skip (or fail under CI) with the zoo's message.
  if (names.empty()) names.push_back("zoo_missing");
  return names;
}

// Models graphrt refuses on purpose, with a part of the refusal (none today; the check stays
// so that a deliberate refusal is recorded here with its reason).
const char* known_refusal(const std::string& name) {
  (void)name;
  return nullptr;
}

class OperatorZoo : public ::testing::TestWithParam<std::string> {};

TEST_P(OperatorZoo, EveryGoldenCaseUnderEveryStrategy) {
  GRT_REQUIRE_ZOO(zoo);
  const std::string& name = GetParam();
  const std::filesystem::path folder = zoo / "opzoo" / name;
  ASSERT_TRUE(std::filesystem::is_directory(folder)) << folder << " is missing: the zoo has no opzoo/";
  const std::vector<uint8_t> tflite = read_bytes(folder / (name + ".tflite"));
  ASSERT_FALSE(tflite.empty()) << name << ".tflite is missing from " << folder;
  // Every model must import and match, except the ones graphrt knowingly refuses: those must
  // still be refused, with their reason (so the list cannot go stale).
  tools::ModelDef probe;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &probe);
  if (const char* reason = known_refusal(name)) {
    ASSERT_FALSE(imported.ok) << name << " imports now: take it off the known refusals";
    ASSERT_NE(imported.error.find(reason), std::string::npos) << name << " is refused for another reason: " << imported.error;
    GTEST_SKIP() << "refused, as documented: " << imported.error;
  }
  GoldenModel golden;
  std::string error;
  ASSERT_TRUE(load_golden_folder(folder, name, &golden, &error)) << error;
  expect_model_matches_golden(name, tflite, golden);
}

INSTANTIATE_TEST_SUITE_P(Opzoo, OperatorZoo, ::testing::ValuesIn(opzoo_models()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string id = p.param;  // gtest names allow [A-Za-z0-9_] only
                           std::replace_if(id.begin(), id.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
                           return id;
                         });

}  // namespace
}  // namespace grt::test
