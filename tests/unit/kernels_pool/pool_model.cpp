#include "pool_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "graphrt/tools/importer.h"
#include "one_node.h"

namespace grt::test {

std::vector<uint8_t> build_op_model(const OpModel& model) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers{tflite::CreateBuffer(fbb)};
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors;
  std::vector<int32_t> graph_inputs;
  const auto add_tensor = [&](const OpTensor& t, const std::string& name) {
    uint32_t buffer = 0;
    if (!t.data.empty()) {
      fbb.ForceVectorAlignment(t.data.size(), sizeof(uint8_t), 16);
      buffers.push_back(tflite::CreateBuffer(fbb, fbb.CreateVector(t.data)));
      buffer = static_cast<uint32_t>(buffers.size() - 1);
    }
    flatbuffers::Offset<tflite::QuantizationParameters> quantization = 0;
    if (t.scale > 0) {
      const std::vector<float> scale{t.scale};
      const std::vector<int64_t> zero_point{t.zero_point};
      quantization = tflite::CreateQuantizationParametersDirect(fbb, nullptr, nullptr, &scale, &zero_point);
    }
    tensors.push_back(tflite::CreateTensorDirect(fbb, &t.shape, t.type, buffer, name.c_str(), quantization));
    return static_cast<int32_t>(tensors.size() - 1);
  };
  std::vector<int32_t> op_inputs;
  for (size_t i = 0; i < model.inputs.size(); ++i) {
    const int32_t index = add_tensor(model.inputs[i], "in" + std::to_string(i));
    op_inputs.push_back(index);
    if (model.inputs[i].data.empty()) graph_inputs.push_back(index);
  }
  const std::vector<int32_t> op_outputs{add_tensor(model.output, "out")};
  tflite::BuiltinOptions options_type = tflite::BuiltinOptions::NONE;
  flatbuffers::Offset<void> options = 0;
  if (model.options) std::tie(options_type, options) = model.options(fbb);
  std::vector<flatbuffers::Offset<tflite::Operator>> operators{
      tflite::CreateOperatorDirect(fbb, 0, &op_inputs, &op_outputs, options_type, options)};
  const auto legacy = static_cast<int8_t>(std::min(static_cast<int>(model.op), 127));
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes{tflite::CreateOperatorCode(fbb, legacy, 0, 1, model.op)};
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs{
      tflite::CreateSubGraphDirect(fbb, &tensors, &graph_inputs, &op_outputs, &operators, "main")};
  tflite::FinishModelBuffer(fbb, tflite::CreateModelDirect(fbb, 3, &codes, &subgraphs, nullptr, &buffers));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
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
