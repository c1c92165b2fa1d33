#include "one_op_tflite.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "graphrt/tools/importer.h"
#include "one_node.h"

namespace grt::test::reduce {

std::vector<uint8_t> OneOp::tflite() const {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers{tflite::CreateBuffer(fbb)};
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensor_offsets;
  std::vector<int32_t> model_inputs;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    uint32_t buffer = 0;
    if (!t.data.empty()) {
      fbb.ForceVectorAlignment(t.data.size(), sizeof(uint8_t), 16);
      buffer = static_cast<uint32_t>(buffers.size());
      buffers.push_back(tflite::CreateBuffer(fbb, fbb.CreateVector(t.data)));
    } else if (std::find(inputs.begin(), inputs.end(), static_cast<int32_t>(i)) != inputs.end()) {
      model_inputs.push_back(static_cast<int32_t>(i));
    }
    flatbuffers::Offset<tflite::QuantizationParameters> quant;
    if (t.scale > 0.0f) {
      const std::vector<float> scales{t.scale};
      const std::vector<int64_t> zero_points{t.zero_point};
      quant = tflite::CreateQuantizationParametersDirect(fbb, nullptr, nullptr, &scales, &zero_points);
    }
    const std::string name = "t" + std::to_string(i);
    tensor_offsets.push_back(tflite::CreateTensorDirect(fbb, &t.shape, t.type, buffer, name.c_str(), quant));
  }
  const flatbuffers::Offset<void> options_offset = options.build ? options.build(fbb) : flatbuffers::Offset<void>();
  std::vector<flatbuffers::Offset<tflite::Operator>> operators{
      tflite::CreateOperatorDirect(fbb, 0, &inputs, &outputs, options.type, options_offset)};
  const auto code = static_cast<int32_t>(op);
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes{
      tflite::CreateOperatorCode(fbb, static_cast<int8_t>(std::min(code, 127)), 0, 1, op)};
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs{
      tflite::CreateSubGraphDirect(fbb, &tensor_offsets, &model_inputs, &outputs, &operators, "main")};
  tflite::FinishModelBuffer(fbb, tflite::CreateModelDirect(fbb, 3, &codes, &subgraphs, nullptr, &buffers));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
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
