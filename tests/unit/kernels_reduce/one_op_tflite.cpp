#include "one_op_tflite.h"

#include <gtest/gtest.h>

#include <cstring>

#include "graphrt/tools/importer.h"
#include "one_node.h"

namespace grt::test::reduce {

std::vector<uint8_t> OneOp::tflite() const {
  const std::vector<OpTensor> op_tensors(tensors.begin(), tensors.end());
  return one_op_tflite(op, op_tensors, inputs, outputs, builtin_options(options.type, options.build));
}

Imported import_and_run(const OneOp& model, const std::vector<std::vector<uint8_t>>& inputs) {
  Imported result;
  const std::vector<uint8_t> bytes = model.tflite();
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(bytes.data(), bytes.size(), &def);
  if (!imported.ok) {
    result.error = imported.error;
    return result;
  }
  for (const auto& node : def.nodes) result.kernels.push_back(def.kernels[node.kernel]);
  Loaded loaded(def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return result;
  for (size_t i = 0; i < inputs.size(); ++i) {
    DLTensor* t = grt_input(loaded.executor(), static_cast<uint32_t>(i));
    EXPECT_EQ(grt_tensor_bytes(t), inputs[i].size()) << "input " << i;
    if (grt_tensor_bytes(t) != inputs[i].size()) return result;
    if (!inputs[i].empty()) std::memcpy(t->data, inputs[i].data(), inputs[i].size());
  }
  EXPECT_EQ(loaded.run(), GRT_OK) << loaded.run_message();
  for (uint32_t i = 0; i < def.outputs.size(); ++i) {
    const DLTensor* t = grt_output(loaded.executor(), i);
    const auto* data = static_cast<const uint8_t*>(t->data);
    result.outputs.emplace_back(data, data + grt_tensor_bytes(t));
  }
  return result;
}

}  // namespace grt::test::reduce
