// The AoT twins of the conformance models: each model imported and written as C by
// `graphrt aot` during the build, compiled into this test, and run on every one of
// TensorFlow Lite Micro's reference cases. Integer outputs byte for byte, float outputs
// within meta.json's tolerance, as the interpreter's conformance suite.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "aot_model.h"
#include "golden.h"
#include "graphrt/graphrt.h"
#include "zoo.h"

namespace grt::test {
namespace {

std::vector<std::string> compiled_models() {
  std::vector<std::string> names;
  for (size_t i = 0; i < aot_test_model_count; ++i) names.push_back(aot_test_models[i]->name);
  return names;
}

const aot_test_model* find_model(const std::string& name) {
  for (size_t i = 0; i < aot_test_model_count; ++i) {
    if (name == aot_test_models[i]->name) return aot_test_models[i];
  }
  return nullptr;
}

class AotConformance : public ::testing::TestWithParam<std::string> {};

TEST_P(AotConformance, EveryGoldenCaseBitExact) {
  GRT_REQUIRE_ZOO(zoo);
  const aot_test_model* model = find_model(GetParam());
  ASSERT_NE(model, nullptr);
  GoldenModel golden;
  std::string error;
  ASSERT_TRUE(load_golden(zoo, model->name, &golden, &error)) << error;
  ASSERT_FALSE(golden.cases.empty());
  size_t passed = 0;
  for (size_t c = 0; c < golden.cases.size(); ++c) {
    const GoldenCase& golden_case = golden.cases[c];
    // TFLM's golden cases each start from a fresh interpreter: state at its initial bytes.
    model->reset_state();
    ASSERT_EQ(golden_case.inputs.size(), model->input_count);
    ASSERT_EQ(golden_case.outputs.size(), model->output_count);
    for (uint32_t i = 0; i < model->input_count; ++i) {
      const DLTensor* input = model->input(i);
      ASSERT_EQ(golden_case.inputs[i].size(), grt_tensor_bytes(input)) << "case " << c + 1 << " input " << i;
      std::memcpy(input->data, golden_case.inputs[i].data(), golden_case.inputs[i].size());
    }
    const char* message = nullptr;
    ASSERT_EQ(model->run(&message), 0) << "case " << c + 1 << ": " << (message != nullptr ? message : "no message");
    bool all_match = true;
    for (uint32_t o = 0; o < model->output_count; ++o) {
      const std::string difference = compare_output(golden, golden_case, o, *model->output(o));
      EXPECT_TRUE(difference.empty()) << "case " << c + 1 << ": " << difference;
      all_match = all_match && difference.empty();
    }
    passed += all_match ? 1 : 0;
  }
  std::printf("%s (AoT): %zu / %zu cases\n", model->name, passed, golden.cases.size());
}

// Without the zoo no model was generated: the test says so (and fails under CI).
TEST(AotConformanceZoo, ModelsWereGenerated) {
  GRT_REQUIRE_ZOO(zoo);
  EXPECT_GT(aot_test_model_count, 0u) << "the zoo was absent when CMake configured: configure again to generate the AoT models";
}

INSTANTIATE_TEST_SUITE_P(Zoo, AotConformance, ::testing::ValuesIn(compiled_models()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AotConformance);

}  // namespace
}  // namespace grt::test
