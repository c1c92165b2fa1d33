// Reading TFLM's reference cases: meta.json's per-output float tolerance (nlohmann-json),
// the case files, and refusals that name the file and the reason.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>

#include "golden.h"

namespace grt::test {
namespace {

class Golden : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    folder_ = std::filesystem::path(::testing::TempDir()) / ("golden_" + test);
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void write(const std::string& name, const std::string& bytes) { std::ofstream(folder_ / name, std::ios::binary) << bytes; }
  std::filesystem::path folder_;
};

TEST_F(Golden, ReadsEachOutputsToleranceAndEveryCase) {
  write("meta.json", R"({"model": "m", "comparison": {"per_output": [
      {"index": 0, "dtype": "float32", "tolerance": {"rule": "...", "abs": 0.25, "rel": 0.001}},
      {"index": 1, "dtype": "int8", "rule": "exact"}]}})");
  for (const char* name : {"in0", "out0", "out1"}) {
    write(std::string("case1.") + name + ".bin", name);
    write(std::string("case2.") + name + ".bin", name);
  }
  GoldenModel model;
  std::string error;
  ASSERT_TRUE(load_golden_folder(folder_, "m", &model, &error)) << error;
  ASSERT_EQ(model.tolerances.size(), 2u);
  EXPECT_EQ(model.tolerances[0].abs, 0.25);
  EXPECT_EQ(model.tolerances[0].rel, 0.001);
  EXPECT_EQ(model.tolerances[1].abs, 0.0);
  EXPECT_EQ(model.tolerances[1].rel, 0.0);
  ASSERT_EQ(model.cases.size(), 2u);
  EXPECT_EQ(model.cases[1].outputs.size(), 2u);

  // The tolerance is what a float output is compared with: |got - want| <= abs + rel * |want|.
  const float want = 100.0f;
  std::string bytes(4, '\0');
  std::memcpy(bytes.data(), &want, 4);
  model.cases[0].outputs[0].assign(bytes.begin(), bytes.end());
  for (const auto& [got, matches] : {std::pair{100.3f, true}, std::pair{100.4f, false}}) {
    float value = got;
    int64_t shape = 1;
    DLTensor tensor{&value, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, &shape, nullptr, 0};
    EXPECT_EQ(compare_output(model, model.cases[0], 0, tensor).empty(), matches) << got;
  }
}

TEST_F(Golden, RefusesAMetaJsonThatDoesNotParseOrIsMissing) {
  write("case1.in0.bin", "x");
  GoldenModel model;
  std::string error;
  EXPECT_FALSE(load_golden_folder(folder_, "m", &model, &error));
  EXPECT_NE(error.find("meta.json: missing or empty"), std::string::npos) << error;
  write("meta.json", R"({"comparison": {"per_output": [}})");
  error.clear();
  EXPECT_FALSE(load_golden_folder(folder_, "m", &model, &error));
  EXPECT_NE(error.find("meta.json: "), std::string::npos) << error;
  EXPECT_NE(error.find("parse error"), std::string::npos) << error;
}

TEST_F(Golden, AMetaJsonWithoutComparisonMeansExactOutputs) {
  write("meta.json", R"({"model": "m"})");
  write("case1.in0.bin", "x");
  GoldenModel model;
  std::string error;
  ASSERT_TRUE(load_golden_folder(folder_, "m", &model, &error)) << error;
  EXPECT_TRUE(model.tolerances.empty());
}

}  // namespace
}  // namespace grt::test
