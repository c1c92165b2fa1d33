#include "single_node.h"

#include <gtest/gtest.h>

#include "graphrt/tools/planner.h"
#include "test_models.h"

namespace grt::test {

uint32_t SingleNode::input(tools::DType dtype, std::vector<int64_t> shape) {
  const uint32_t t = model.add_activation("x", dtype, std::move(shape));
  model.inputs.push_back(t);
  return t;
}

uint32_t SingleNode::output(tools::DType dtype, std::vector<int64_t> shape) {
  const uint32_t t = model.add_activation("y", dtype, std::move(shape));
  model.outputs.push_back(t);
  return t;
}

std::string init_error(tools::ModelDef model) {
  tools::plan_default(&model);
  const tools::AlignedBytes blob = to_blob(model);
  StaticRun run(blob);
  return run.status == GRT_OK ? std::string() : std::string(run.error.message);
}

std::vector<uint8_t> run_bytes(tools::ModelDef model, const void* input, size_t input_bytes) {
  tools::plan_default(&model);
  const tools::AlignedBytes blob = to_blob(model);
  StaticRun run(blob);
  if (run.status != GRT_OK) {
    ADD_FAILURE() << "init failed: " << run.error.message;
    return {};
  }
  DLTensor* in = grt_input(run.executor, 0);
  if (grt_tensor_bytes(in) != input_bytes) {
    ADD_FAILURE() << "input has " << grt_tensor_bytes(in) << " bytes, test gives " << input_bytes;
    return {};
  }
  if (input_bytes != 0) std::memcpy(in->data, input, input_bytes);
  if (grt_run(run.executor) != GRT_OK) {
    ADD_FAILURE() << "run failed: " << grt_last_error(run.executor)->message;
    return {};
  }
  const DLTensor* out = grt_output(run.executor, 0);
  const auto* p = static_cast<const uint8_t*>(out->data);
  return std::vector<uint8_t>(p, p + grt_tensor_bytes(out));
}

}  // namespace grt::test
