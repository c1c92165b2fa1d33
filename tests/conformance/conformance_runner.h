// One model against TensorFlow Lite Micro's reference cases: imported from its .tflite,
// planned, and run on every case under every memory strategy (static, page, stack, and
// static with prepared arguments). Shared by the model zoo and the operator zoo suites.
#ifndef GRAPHRT_TESTS_CONFORMANCE_RUNNER_H_
#define GRAPHRT_TESTS_CONFORMANCE_RUNNER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "golden.h"

namespace grt::test {

// Imports, plans and runs `tflite`; reports gtest failures for every mismatch and prints one
// line: cases passed / cases total per strategy. A model that does not import fails.
void expect_model_matches_golden(const std::string& name, const std::vector<uint8_t>& tflite, const GoldenModel& golden);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_CONFORMANCE_RUNNER_H_
