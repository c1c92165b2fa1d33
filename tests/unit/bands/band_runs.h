// Running a band test's model: planned, serialized and run several times on one executor.
#ifndef GRAPHRT_TESTS_UNIT_BANDS_BAND_RUNS_H_
#define GRAPHRT_TESTS_UNIT_BANDS_BAND_RUNS_H_

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "golden.h"
#include "graphrt/tools/memory_plan.h"
#include "test_models.h"

namespace grt::test {

// The pools' total of `m` once planned (the plan is written into `m`).
inline uint64_t planned_size(tools::ModelDef* m) {
  tools::PlanReport report;
  std::string error;
  EXPECT_TRUE(tools::plan_model(m, tools::PlanOptions{}, &report, &error)) << error;
  return report.total_size;
}

// Output 0's bytes after each of `runs` runs of one executor, input 0 set to `input` before
// each: state kept across runs, or sums that fail to restart, show in the later runs.
inline std::vector<std::vector<uint8_t>> outputs_of_runs(tools::ModelDef m, const std::vector<uint8_t>& input, int runs) {
  planned_size(&m);
  const tools::AlignedBytes blob = to_blob(m);
  StaticRun r(blob);
  EXPECT_EQ(r.status, GRT_OK) << r.error.message;
  if (r.status != GRT_OK) return {};
  std::vector<std::vector<uint8_t>> outputs;
  for (int run = 0; run < runs; ++run) {
    std::memcpy(grt_input(r.executor, 0)->data, input.data(), input.size());
    EXPECT_EQ(grt_run(r.executor), GRT_OK) << grt_last_error(r.executor)->message;
    const DLTensor* out = grt_output(r.executor, 0);
    const auto* bytes = static_cast<const uint8_t*>(out->data);
    outputs.emplace_back(bytes, bytes + grt_tensor_bytes(out));
  }
  return outputs;
}

// Every golden case of zoo model `name` through `planned` (its plan written), byte for byte.
inline void expect_every_golden_case(const std::filesystem::path& zoo, const std::string& name, const tools::ModelDef& planned) {
  GoldenModel golden;
  std::string error;
  ASSERT_TRUE(load_golden(zoo, name, &golden, &error)) << error;
  const tools::AlignedBytes blob = to_blob(planned);
  StaticRun run(blob);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  for (const GoldenCase& c : golden.cases) {
    DLTensor* in = grt_input(run.executor, 0);
    ASSERT_EQ(grt_tensor_bytes(in), c.inputs[0].size());
    std::memcpy(in->data, c.inputs[0].data(), c.inputs[0].size());
    ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
    EXPECT_EQ(compare_output(golden, c, 0, *grt_output(run.executor, 0)), "");
  }
}

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_UNIT_BANDS_BAND_RUNS_H_
