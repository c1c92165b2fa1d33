#include "pool_model.h"

#include <gtest/gtest.h>

#include "graphrt/tools/importer.h"
#include "one_node.h"

namespace grt::test {

std::vector<uint8_t> build_op_model(const OpModel& model) {
  std::vector<OpTensor> tensors = model.inputs;
  tensors.push_back(model.output);
  std::vector<int32_t> op_inputs;
  for (size_t i = 0; i < model.inputs.size(); ++i) op_inputs.push_back(static_cast<int32_t>(i));
  const std::vector<int32_t> op_outputs{static_cast<int32_t>(model.inputs.size())};
  return one_op_tflite(model.op, tensors, op_inputs, op_outputs, model.options);
}

OpRun import_and_run(const OpModel& model, const std::vector<std::vector<uint8_t>>& inputs) {
  OpRun result;
  const std::vector<uint8_t> tflite = build_op_model(model);
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &def);
  if (!imported.ok) {
    result.error = imported.error;
    return result;
  }
  Loaded loaded(def);
  if (loaded.status() != GRT_OK) {
    result.error = loaded.message();
    return result;
  }
  for (size_t i = 0; i < inputs.size(); ++i) loaded.set_input(static_cast<uint32_t>(i), inputs[i]);
  if (loaded.run() != GRT_OK) {
    result.error = loaded.run_message();
    return result;
  }
  result.output = loaded.output<uint8_t>(0);
  return result;
}

}  // namespace grt::test
