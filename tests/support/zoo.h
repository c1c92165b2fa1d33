// Where the real models and TFLM's reference outputs are (GRT_MODEL_ZOO). Tests that need
// them skip with instructions when the folder is absent, except under CI, where a missing
// zoo is a failure.
#ifndef GRAPHRT_TESTS_ZOO_H_
#define GRAPHRT_TESTS_ZOO_H_

#include <filesystem>
#include <optional>
#include <string>

namespace grt::test {

// The zoo folder, or nullopt when it is absent (after failing the test under CI).
std::optional<std::filesystem::path> model_zoo();

}  // namespace grt::test

// Skips (or, under CI, fails) the current test when the zoo is missing.
#define GRT_REQUIRE_ZOO(var)                                                                  \
  const auto var##_opt = ::grt::test::model_zoo();                                            \
  if (!var##_opt) GTEST_SKIP() << "model zoo not found: set GRT_MODEL_ZOO to a folder with models/ and golden/ (the project's shared folder)"; \
  const std::filesystem::path var = *var##_opt

#endif  // GRAPHRT_TESTS_ZOO_H_
