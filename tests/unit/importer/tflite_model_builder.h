// Small TFLite models written with the flatc-generated builder API, for importer tests.
// Every field that a malformed file could get wrong can be set on purpose.
#ifndef GRAPHRT_TESTS_TFLITE_MODEL_BUILDER_H_
#define GRAPHRT_TESTS_TFLITE_MODEL_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tflite_generated.h"

namespace grt::test {

struct TfliteTensorSpec {
  std::string name{};
  tflite::TensorType type = tflite::TensorType::INT8;
  std::vector<int32_t> shape{};
  std::vector<uint8_t> data{};  // non-empty: a constant with its own buffer
  std::vector<float> scale{};
  std::vector<int64_t> zero_point{};
  int32_t quantized_dimension = 0;
  int64_t buffer = -1;  // >= 0: this buffer index instead of the automatic one
};

struct TfliteOpSpec {
  tflite::BuiltinOperator op = tflite::BuiltinOperator::ADD;
  std::string custom_code;  // for CUSTOM
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  int64_t opcode_index = -1;  // >= 0: this operator code index instead of the right one
  bool legacy_code_only = false;  // only deprecated_builtin_code, as pre-3a writers did
};

struct TfliteModelSpec {
  std::vector<TfliteTensorSpec> tensors;
  std::vector<TfliteOpSpec> ops;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::string description;

  int32_t add_tensor(TfliteTensorSpec tensor) {
    tensors.push_back(std::move(tensor));
    return static_cast<int32_t>(tensors.size() - 1);
  }
  void add_op(tflite::BuiltinOperator op, std::vector<int32_t> op_inputs, std::vector<int32_t> op_outputs) {
    TfliteOpSpec spec;
    spec.op = op;
    spec.inputs = std::move(op_inputs);
    spec.outputs = std::move(op_outputs);
    ops.push_back(std::move(spec));
  }
};

// The .tflite bytes.
std::vector<uint8_t> build_tflite(const TfliteModelSpec& spec);

// int8 [1, n] x -> RESHAPE -> [n] y (y is the model output).
TfliteModelSpec single_reshape_model(int32_t n = 4);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_TFLITE_MODEL_BUILDER_H_
