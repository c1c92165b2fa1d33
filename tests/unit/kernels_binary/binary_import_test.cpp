// The binary family's converters: TFLite operators imported and run end to end with
// hand-computed results (MUL's rescaling and fused RELU, ADD_N's argument order, bool
// tensors through LOGICAL_AND), and the variants TFLM refuses refused with a reason.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "graphrt/tools/importer.h"
#include "one_node.h"
#include "tflite_generated.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

struct TensorSpec {
  std::vector<int32_t> shape;
  TensorType type = TensorType::FLOAT32;
  float scale = 0.0f;  // 0: not quantized
  int64_t zero_point = 0;
};

struct OpSpec {
  BuiltinOperator op = BuiltinOperator::ADD;
  std::vector<TensorSpec> inputs;
  TensorSpec output;
  tflite::ActivationFunctionType activation = tflite::ActivationFunctionType::NONE;  // MUL and DIV
};

// One operator whose inputs are all model inputs.
std::vector<uint8_t> one_op_tflite(const OpSpec& spec) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers{tflite::CreateBuffer(fbb)};
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors;
  const auto add_tensor = [&](const TensorSpec& t, const std::string& name) {
    flatbuffers::Offset<tflite::QuantizationParameters> quantization = 0;
    if (t.scale > 0.0f) {
      const std::vector<float> scales{t.scale};
      const std::vector<int64_t> zero_points{t.zero_point};
      quantization = tflite::CreateQuantizationParametersDirect(fbb, nullptr, nullptr, &scales, &zero_points);
    }
    tensors.push_back(tflite::CreateTensorDirect(fbb, &t.shape, t.type, 0, name.c_str(), quantization));
    return static_cast<int32_t>(tensors.size() - 1);
  };
  std::vector<int32_t> op_inputs;
  for (size_t i = 0; i < spec.inputs.size(); ++i) op_inputs.push_back(add_tensor(spec.inputs[i], "x" + std::to_string(i)));
  const std::vector<int32_t> op_outputs{add_tensor(spec.output, "y")};
  tflite::BuiltinOptions options_type = tflite::BuiltinOptions::NONE;
  flatbuffers::Offset<void> options = 0;
  if (spec.op == BuiltinOperator::MUL) {
    options_type = tflite::BuiltinOptions::MulOptions;
    options = tflite::CreateMulOptions(fbb, spec.activation).Union();
  } else if (spec.op == BuiltinOperator::DIV) {
    options_type = tflite::BuiltinOptions::DivOptions;
    options = tflite::CreateDivOptions(fbb, spec.activation).Union();
  }
  std::vector<flatbuffers::Offset<tflite::Operator>> operators{
      tflite::CreateOperatorDirect(fbb, 0, &op_inputs, &op_outputs, options_type, options)};
  const auto code = static_cast<int8_t>(std::min<int>(static_cast<int>(spec.op), 127));
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes{tflite::CreateOperatorCode(fbb, code, 0, 1, spec.op)};
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs{
      tflite::CreateSubGraphDirect(fbb, &tensors, &op_inputs, &op_outputs, &operators, "main")};
  tflite::FinishModelBuffer(fbb, tflite::CreateModelDirect(fbb, 3, &codes, &subgraphs, nullptr, &buffers));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

// The import's error ("" when it imports).
std::string import_error(const OpSpec& spec) {
  const std::vector<uint8_t> tflite = one_op_tflite(spec);
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &def);
  return imported.ok ? std::string() : imported.error;
}

// Imports, runs on the given input bytes and returns output 0's bytes.
std::vector<uint8_t> import_and_run(const OpSpec& spec, const std::vector<std::vector<uint8_t>>& inputs) {
  const std::vector<uint8_t> tflite = one_op_tflite(spec);
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &def);
  EXPECT_TRUE(imported.ok) << imported.error;
  if (!imported.ok) return {};
  Loaded loaded(def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return {};
  for (size_t i = 0; i < inputs.size(); ++i) loaded.set_input(static_cast<uint32_t>(i), inputs[i]);
  EXPECT_EQ(loaded.run(), GRT_OK) << loaded.run_message();
  return loaded.output<uint8_t>(0);
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST(BinaryImport, MulInt8RescalesAndAppliesTheFusedRelu) {
  // Scales 0.5 * 0.25 / 0.125 = 1.0. a = 5 -> 2.0, b = 2 -> 1.0: 2.0 -> 16 + 3 = 19.
  // a = -3 -> -2.0, b = 0 -> 0.5: -1.0, RELU -> 0.0 -> the zero point 3.
  OpSpec spec{BuiltinOperator::MUL,
              {{{2}, TensorType::INT8, 0.5f, 1}, {{2}, TensorType::INT8, 0.25f, -2}},
              {{2}, TensorType::INT8, 0.125f, 3},
              tflite::ActivationFunctionType::RELU};
  EXPECT_EQ(import_and_run(spec, {bytes_of<int8_t>({5, -3}), bytes_of<int8_t>({2, 0})}), bytes_of<int8_t>({19, 3}));
}

TEST(BinaryImport, DivInt8UsesTheFloatRatioOfTheScales) {
  // 1.0 / (1.0 * 0.25) = 4: 4 * 7 / 2 = 14 and 4 * 10 / 3 = 13.3 -> 13, plus the zero point 1.
  OpSpec spec{BuiltinOperator::DIV,
              {{{2}, TensorType::INT8, 1.0f, 0}, {{2}, TensorType::INT8, 1.0f, 0}},
              {{2}, TensorType::INT8, 0.25f, 1},
              tflite::ActivationFunctionType::NONE};
  EXPECT_EQ(import_and_run(spec, {bytes_of<int8_t>({7, 10}), bytes_of<int8_t>({2, 3})}), bytes_of<int8_t>({15, 14}));
}

TEST(BinaryImport, AddNPutsTheOutputFirstAndSumsEveryInput) {
  OpSpec spec{BuiltinOperator::ADD_N, {{{2}}, {{2}}, {{2}}}, {{2}}, {}};
  EXPECT_EQ(import_and_run(spec, {bytes_of<float>({1, 2}), bytes_of<float>({10, 20}), bytes_of<float>({100, 200})}),
            bytes_of<float>({111, 222}));
}

TEST(BinaryImport, BoolTensorsFlowThroughComparisonsAndLogic) {
  OpSpec logical{BuiltinOperator::LOGICAL_AND, {{{2, 2}, TensorType::BOOL}, {{2}, TensorType::BOOL}}, {{2, 2}, TensorType::BOOL}, {}};
  EXPECT_EQ(import_and_run(logical, {bytes_of<uint8_t>({1, 1, 0, 1}), bytes_of<uint8_t>({1, 0})}), bytes_of<uint8_t>({1, 0, 0, 0}));
  OpSpec less{BuiltinOperator::LESS, {{{3}, TensorType::INT32}, {{1}, TensorType::INT32}}, {{3}, TensorType::BOOL}, {}};
  EXPECT_EQ(import_and_run(less, {bytes_of<int32_t>({-1, 0, 1}), bytes_of<int32_t>({0})}), bytes_of<uint8_t>({1, 0, 0}));
}

TEST(BinaryImport, RefusesWhatTflmRefuses) {
  const auto refused = [](const OpSpec& spec, const char* reason) {
    const std::string error = import_error(spec);
    EXPECT_NE(error.find(reason), std::string::npos) << "'" << error << "' lacks '" << reason << "'";
  };
  // int16 MUL and SQUARED_DIFFERENCE take no zero points.
  refused({BuiltinOperator::MUL, {{{2}, TensorType::INT16, 0.5f, 1}, {{2}, TensorType::INT16, 0.5f, 0}}, {{2}, TensorType::INT16, 0.5f, 0}, {}},
          "zero point");
  refused({BuiltinOperator::SQUARED_DIFFERENCE, {{{2}, TensorType::INT16, 0.5f, 0}, {{2}, TensorType::INT16, 0.5f, 0}},
           {{2}, TensorType::INT16, 0.5f, 2}, {}},
          "zero point");
  // GREATER lists int16 in TFLM but never prepares its rescaling.
  refused({BuiltinOperator::GREATER, {{{2}, TensorType::INT16, 0.5f, 0}, {{2}, TensorType::INT16, 0.5f, 0}}, {{2}, TensorType::BOOL}, {}},
          "int16 is not supported");
  // int8 comparisons multiply by the scale itself, which must be below one.
  refused({BuiltinOperator::EQUAL, {{{2}, TensorType::INT8, 2.0f, 0}, {{2}, TensorType::INT8, 0.5f, 0}}, {{2}, TensorType::BOOL}, {}},
          "not in (0, 1)");
  refused({BuiltinOperator::EQUAL, {{{2}, TensorType::FLOAT32}, {{2}, TensorType::FLOAT32}}, {{2}, TensorType::FLOAT32}, {}},
          "output must be bool");
  refused({BuiltinOperator::DIV, {{{2}, TensorType::INT8, 1.0f, 0}, {{2}, TensorType::INT8, 1.0f / 4096, 0}},
           {{2}, TensorType::INT8, 1.0f / 4096, 0}, {}},
          "rescaling is out of range");
  refused({BuiltinOperator::DIV, {{{2}, TensorType::INT32, 1.0f, 0}, {{2}, TensorType::INT32}}, {{2}, TensorType::INT32}, {}},
          "unquantized");
  refused({BuiltinOperator::SELECT_V2, {{{2}, TensorType::BOOL}, {{2}, TensorType::INT32}, {{2}, TensorType::INT32}}, {{2}, TensorType::INT32}, {}},
          "int32 is not supported");
  refused({BuiltinOperator::FLOOR_MOD, {{{2}, TensorType::INT32}, {{2}, TensorType::INT32}}, {{2}, TensorType::INT32}, {}},
          "int32 is not supported");
  refused({BuiltinOperator::ADD_N, {{{2}, TensorType::INT8, 0.5f, 0}, {{2}, TensorType::INT8, 0.25f, 0}}, {{2}, TensorType::INT8, 0.5f, 0}, {}},
          "share one scale");
  refused({BuiltinOperator::MAXIMUM, {{{2}, TensorType::INT8, 0.5f, 0}, {{2}, TensorType::INT16, 0.5f, 0}}, {{2}, TensorType::INT8, 0.5f, 0}, {}},
          "share one type");
  refused({BuiltinOperator::MUL, {{{2, 3}}, {{4}}}, {{2, 4}}, {}}, "broadcast");
  refused({BuiltinOperator::MUL, {{{2}}, {{2}}}, {{2}}, tflite::ActivationFunctionType::TANH}, "fused activation");
}

}  // namespace
}  // namespace grt::test
