// The signal converters: custom operators found by their custom_code, options read from
// FlexBuffers, and what they refuse.
#include <gtest/gtest.h>

#include <flatbuffers/flexbuffers.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graphrt/tools/importer.h"
#include "one_node.h"
#include "tflite_generated.h"

namespace grt::test {
namespace {

struct CustomTensor {
  tflite::TensorType type;
  std::vector<int32_t> shape;
  std::vector<uint8_t> data{};  // non-empty: a constant
};

// One custom operator over its tensors: inputs are the non-constant operands.
struct CustomOp {
  std::string name;
  std::vector<CustomTensor> tensors;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::function<void(flexbuffers::Builder&)> options;  // the map's entries; null: no options

  std::vector<uint8_t> tflite() const {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<tflite::Buffer>> buffers{tflite::CreateBuffer(fbb)};
    std::vector<flatbuffers::Offset<tflite::Tensor>> offsets;
    std::vector<int32_t> model_inputs;
    for (size_t i = 0; i < tensors.size(); ++i) {
      uint32_t buffer = 0;
      if (!tensors[i].data.empty()) {
        fbb.ForceVectorAlignment(tensors[i].data.size(), 1, 16);
        buffer = static_cast<uint32_t>(buffers.size());
        buffers.push_back(tflite::CreateBuffer(fbb, fbb.CreateVector(tensors[i].data)));
      } else if (std::find(inputs.begin(), inputs.end(), static_cast<int32_t>(i)) != inputs.end()) {
        model_inputs.push_back(static_cast<int32_t>(i));
      }
      const std::string tensor_name = "t" + std::to_string(i);
      offsets.push_back(tflite::CreateTensorDirect(fbb, &tensors[i].shape, tensors[i].type, buffer, tensor_name.c_str()));
    }
    std::vector<uint8_t> custom;
    if (options) {
      flexbuffers::Builder flex;
      const size_t map = flex.StartMap();
      options(flex);
      flex.EndMap(map);
      flex.Finish();
      custom = flex.GetBuffer();
    }
    std::vector<flatbuffers::Offset<tflite::Operator>> operators{tflite::CreateOperatorDirect(
        fbb, 0, &inputs, &outputs, tflite::BuiltinOptions::NONE, 0, custom.empty() ? nullptr : &custom)};
    std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes{
        tflite::CreateOperatorCodeDirect(fbb, 32, name.c_str(), 1, tflite::BuiltinOperator::CUSTOM)};
    std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs{
        tflite::CreateSubGraphDirect(fbb, &offsets, &model_inputs, &outputs, &operators, "main")};
    tflite::FinishModelBuffer(fbb, tflite::CreateModelDirect(fbb, 3, &codes, &subgraphs, nullptr, &buffers));
    return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  }
};

tools::ImportResult import(const CustomOp& op, tools::ModelDef* def) {
  const std::vector<uint8_t> bytes = op.tflite();
  return tools::import_tflite(bytes.data(), bytes.size(), def);
}

std::vector<uint8_t> int16_bytes(const std::vector<int16_t>& v) {
  std::vector<uint8_t> b(v.size() * 2);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

CustomOp window(int shift) {
  CustomOp op;
  op.name = "SignalWindow";
  op.tensors = {{tflite::TensorType::INT16, {4}}, {tflite::TensorType::INT16, {4}, int16_bytes({16384, 16384, 8192, 8192})},
                {tflite::TensorType::INT16, {4}}};
  op.inputs = {0, 1};
  op.outputs = {2};
  op.options = [shift](flexbuffers::Builder& f) { f.Int("shift", shift); };
  return op;
}

TEST(SignalImport, FindsCustomOperatorsByNameAndReadsTheirOptions) {
  tools::ModelDef def;
  const tools::ImportResult result = import(window(14), &def);
  ASSERT_TRUE(result.ok) << result.error;
  Loaded loaded(def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<int16_t>{100, -100, 100, -100});
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<int16_t>(0), (std::vector<int16_t>{100, -100, 50, -50}));
}

TEST(SignalImport, RefusesOptionsOutOfRangeOrMissing) {
  tools::ModelDef def;
  EXPECT_NE(import(window(40), &def).error.find("'shift' is 40"), std::string::npos);
  CustomOp no_options = window(0);
  no_options.options = nullptr;
  EXPECT_NE(import(no_options, &def).error.find("custom options"), std::string::npos);
  CustomOp wrong_key = window(0);
  wrong_key.options = [](flexbuffers::Builder& f) { f.Int("shfit", 3); };
  EXPECT_NE(import(wrong_key, &def).error.find("'shift' is missing"), std::string::npos);
}

TEST(SignalImport, ListsCustomOperatorsItDoesNotKnow) {
  CustomOp unknown = window(0);
  unknown.name = "SignalNoSuchOperator";
  tools::ModelDef def;
  const tools::ImportResult result = import(unknown, &def);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("CUSTOM:SignalNoSuchOperator x1"), std::string::npos) << result.error;
}

CustomOp rfft(int fft_length) {
  CustomOp op;
  op.name = "SignalRfft";
  op.tensors = {{tflite::TensorType::INT16, {fft_length}}, {tflite::TensorType::INT16, {fft_length + 2}}};
  op.inputs = {0};
  op.outputs = {1};
  op.options = [fft_length](flexbuffers::Builder& f) {
    f.Int("T", static_cast<int64_t>(tflite::TensorType::INT16));
    f.Int("fft_length", fft_length);
  };
  return op;
}

TEST(SignalImport, RfftPrecomputesTwiddlesAndRefusesLengthsThatAreNotPowersOfTwo) {
  tools::ModelDef def;
  const tools::ImportResult result = import(rfft(16), &def);
  ASSERT_TRUE(result.ok) << result.error;
  Loaded loaded(def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  std::vector<int16_t> impulse(16, 0);
  impulse[0] = 16384;
  loaded.set_input(0, impulse);
  ASSERT_EQ(loaded.run(), GRT_OK);
  const std::vector<int16_t> y = loaded.output<int16_t>(0);
  for (size_t k = 0; k < y.size(); k += 2) {
    EXPECT_EQ(y[k], 1024) << "bin " << k / 2;
    EXPECT_EQ(y[k + 1], 0) << "bin " << k / 2;
  }
  EXPECT_NE(import(rfft(24), &def).error.find("radix-3"), std::string::npos);
}

// Inside a model uint32 tensors are int32 words (the zoo's audio_preprocessor models, in
// the conformance suite); a model input or output has no dtype to be shown as, so it is
// refused by name.
TEST(SignalImport, RefusesUint32ModelOutputs) {
  CustomOp op;
  op.name = "SignalEnergy";
  op.tensors = {{tflite::TensorType::INT16, {4}}, {tflite::TensorType::UINT32, {2}}};
  op.inputs = {0};
  op.outputs = {1};
  op.options = [](flexbuffers::Builder& f) {
    f.Int("end_index", 2);
    f.Int("start_index", 0);
  };
  tools::ModelDef def;
  const tools::ImportResult result = import(op, &def);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("has type UINT32"), std::string::npos) << result.error;
}

}  // namespace
}  // namespace grt::test
