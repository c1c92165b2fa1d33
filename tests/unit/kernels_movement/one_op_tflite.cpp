#include "one_op_tflite.h"

#include <algorithm>

namespace grt::test {

std::vector<uint8_t> OneOp::tflite() const {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers{tflite::CreateBuffer(fbb)};
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensor_offsets;
  std::vector<int32_t> model_inputs;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const OpTensor& t = tensors[i];
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
      const std::vector<float> scale{t.scale};
      const std::vector<int64_t> zero_point{t.zero_point};
      quant = tflite::CreateQuantizationParametersDirect(fbb, nullptr, nullptr, &scale, &zero_point);
    }
    const std::string name = "t" + std::to_string(i);
    tensor_offsets.push_back(tflite::CreateTensorDirect(fbb, &t.shape, t.type, buffer, name.c_str(), quant));
  }
  const flatbuffers::Offset<void> options_offset = options ? options(fbb) : flatbuffers::Offset<void>();
  std::vector<flatbuffers::Offset<tflite::Operator>> operators{
      tflite::CreateOperatorDirect(fbb, 0, &inputs, &outputs, options_type, options_offset)};
  const auto code = static_cast<int32_t>(op);
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes{
      tflite::CreateOperatorCode(fbb, static_cast<int8_t>(std::min(code, 127)), 0, 1, op)};
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs{
      tflite::CreateSubGraphDirect(fbb, &tensor_offsets, &model_inputs, &outputs, &operators, "main")};
  tflite::FinishModelBuffer(fbb, tflite::CreateModelDirect(fbb, 3, &codes, &subgraphs, nullptr, &buffers));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

ImportedOp import_op(const OneOp& model) {
  const std::vector<uint8_t> bytes = model.tflite();
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(bytes.data(), bytes.size(), &def);
  ImportedOp result;
  if (!imported.ok) {
    result.error = imported.error.empty() ? "refused" : imported.error;
    return result;
  }
  result.loaded = std::make_unique<Loaded>(def);
  return result;
}

}  // namespace grt::test
