#include "tflite_op_model.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace grt::test {

std::vector<uint8_t> build_tflite(const TfliteModelSpec& spec) {
  flatbuffers::FlatBufferBuilder fbb;

  // Buffer 0 is the empty sentinel, as TFLite writers always emit it.
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers{tflite::CreateBuffer(fbb)};
  // One operator code per distinct (builtin, custom code, legacy) triple, in first-use order.
  struct CodeKey {
    tflite::BuiltinOperator op;
    std::string custom;
    bool legacy;
    bool operator==(const CodeKey&) const = default;
  };
  std::vector<CodeKey> keys;
  // One subgraph's tensors and operators, sharing the buffers and operator codes.
  const auto write_subgraph = [&](const TfliteModelSpec& graph, const char* name) {
    std::vector<flatbuffers::Offset<tflite::Tensor>> tensors;
    for (const TfliteTensorSpec& t : graph.tensors) {
      uint32_t buffer = 0;
      if (!t.data.empty()) {
        fbb.ForceVectorAlignment(t.data.size(), sizeof(uint8_t), 16);
        buffer = static_cast<uint32_t>(buffers.size());
        buffers.push_back(tflite::CreateBuffer(fbb, fbb.CreateVector(t.data)));
      }
      if (t.buffer >= 0) buffer = static_cast<uint32_t>(t.buffer);
      flatbuffers::Offset<tflite::QuantizationParameters> quant;
      if (!t.scale.empty()) {
        quant = tflite::CreateQuantizationParametersDirect(fbb, nullptr, nullptr, &t.scale, &t.zero_point,
                                                           tflite::QuantizationDetails::NONE, 0, t.quantized_dimension);
      }
      tensors.push_back(tflite::CreateTensorDirect(fbb, &t.shape, t.type, buffer, t.name.c_str(), quant, t.is_variable));
    }

    std::vector<flatbuffers::Offset<tflite::Operator>> operators;
    for (const TfliteOpSpec& op : graph.ops) {
      const CodeKey key{op.op, op.custom_code, op.legacy_code_only};
      auto found = std::find(keys.begin(), keys.end(), key);
      if (found == keys.end()) found = keys.insert(keys.end(), key);
      uint32_t code_index = static_cast<uint32_t>(found - keys.begin());
      if (op.opcode_index >= 0) code_index = static_cast<uint32_t>(op.opcode_index);
      tflite::BuiltinOptions options_type = tflite::BuiltinOptions::NONE;
      flatbuffers::Offset<void> options;
      if (op.options) std::tie(options_type, options) = op.options(fbb);
      operators.push_back(tflite::CreateOperatorDirect(fbb, code_index, &op.inputs, &op.outputs, options_type, options,
                                                       op.custom_options.empty() ? nullptr : &op.custom_options));
    }
    return tflite::CreateSubGraphDirect(fbb, &tensors, &graph.inputs, &graph.outputs, &operators, name);
  };
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs{write_subgraph(spec, "main")};
  for (size_t i = 0; i < spec.subgraphs.size(); ++i) {
    subgraphs.push_back(write_subgraph(spec.subgraphs[i], ("subgraph" + std::to_string(i + 1)).c_str()));
  }
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes;
  for (const CodeKey& key : keys) {
    const auto value = static_cast<int32_t>(key.op);
    const auto legacy = static_cast<int8_t>(std::min(value, 127));
    codes.push_back(tflite::CreateOperatorCodeDirect(fbb, legacy, key.custom.empty() ? nullptr : key.custom.c_str(), 1,
                                                     key.legacy ? tflite::BuiltinOperator::ADD : key.op));
  }

  const auto model = tflite::CreateModelDirect(fbb, 3, &codes, &subgraphs,
                                               spec.description.empty() ? nullptr : spec.description.c_str(), &buffers);
  tflite::FinishModelBuffer(fbb, model);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

TfliteModelSpec single_reshape_model(int32_t n) {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor({.name = "x", .shape = {1, n}});
  const int32_t y = spec.add_tensor({.name = "y", .shape = {n}});
  spec.add_op(tflite::BuiltinOperator::RESHAPE, {x}, {y});
  spec.inputs = {x};
  spec.outputs = {y};
  return spec;
}

BuiltinOptionsWriter builtin_options(tflite::BuiltinOptions type, OptionsTableWriter table) {
  return [type, table = std::move(table)](flatbuffers::FlatBufferBuilder& fbb) {
    return std::make_pair(type, table ? table(fbb) : flatbuffers::Offset<void>());
  };
}

BuiltinOptionsWriter if_options(int32_t then_index, int32_t else_index) {
  return builtin_options(tflite::BuiltinOptions::IfOptions, [=](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateIfOptions(fbb, then_index, else_index).Union();
  });
}

TfliteModelSpec float_binary_subgraph(tflite::BuiltinOperator op) {
  TfliteModelSpec g;
  const int32_t x = g.add_tensor({.name = "x", .type = tflite::TensorType::FLOAT32, .shape = {4}});
  const int32_t y = g.add_tensor({.name = "y", .type = tflite::TensorType::FLOAT32, .shape = {4}});
  const int32_t out = g.add_tensor({.name = "out", .type = tflite::TensorType::FLOAT32, .shape = {4}});
  g.add_op(op, {x, y}, {out});
  g.inputs = {x, y};
  g.outputs = {out};
  return g;
}

std::vector<uint8_t> one_op_tflite(tflite::BuiltinOperator op, const std::vector<OpTensor>& tensors,
                                   const std::vector<int32_t>& inputs, const std::vector<int32_t>& outputs,
                                   const BuiltinOptionsWriter& options) {
  TfliteModelSpec spec;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const OpTensor& t = tensors[i];
    TfliteTensorSpec tensor{.name = "t" + std::to_string(i), .type = t.type, .shape = t.shape, .data = t.data};
    if (t.scale > 0.0f) {
      tensor.scale = {t.scale};
      tensor.zero_point = {t.zero_point};
    }
    const int32_t index = spec.add_tensor(std::move(tensor));
    const bool read = std::find(inputs.begin(), inputs.end(), index) != inputs.end();
    if (read && t.data.empty()) spec.inputs.push_back(index);
  }
  spec.add_op(op, inputs, outputs, options);
  spec.outputs = outputs;
  return build_tflite(spec);
}

}  // namespace grt::test
