#include "dense_harness.h"

#include "graphrt/tools/planner.h"

namespace grt::test::dense {

Outcome plan_and_run(ModelDef model, const std::vector<std::vector<uint8_t>>& inputs) {
  tools::plan_default(&model);
  const tools::AlignedBytes blob = to_blob(model);
  StaticRun run(blob);
  Outcome outcome;
  outcome.init = run.status;
  if (run.status != GRT_OK) {
    outcome.message = run.error.message;
    return outcome;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    DLTensor* in = grt_input(run.executor, static_cast<uint32_t>(i));
    if (in == nullptr || grt_tensor_bytes(in) != inputs[i].size()) {
      outcome.message = "input " + std::to_string(i) + " has a different size";
      return outcome;
    }
    if (!inputs[i].empty()) std::memcpy(in->data, inputs[i].data(), inputs[i].size());
  }
  outcome.run = grt_run(run.executor);
  if (outcome.run != GRT_OK) {
    outcome.message = grt_last_error(run.executor)->message;
    return outcome;
  }
  for (uint32_t o = 0; o < model.outputs.size(); ++o) {
    const DLTensor* out = grt_output(run.executor, o);
    const auto* p = static_cast<const uint8_t*>(out->data);
    outcome.outputs.emplace_back(p, p + grt_tensor_bytes(out));
  }
  return outcome;
}

}  // namespace grt::test::dense
