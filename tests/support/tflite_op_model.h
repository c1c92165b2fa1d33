// Small TFLite models written with the flatc-generated builder API, for the importer's and
// the operator families' tests. Every field that a malformed file could get wrong can be set
// on purpose; operators can carry builtin options.
#ifndef GRAPHRT_TESTS_SUPPORT_TFLITE_OP_MODEL_H_
#define GRAPHRT_TESTS_SUPPORT_TFLITE_OP_MODEL_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "byte_values.h"
#include "tflite_generated.h"

namespace grt::test {

// Writes an operator's builtin options into the model's builder; says which table it wrote.
using BuiltinOptionsWriter =
    std::function<std::pair<tflite::BuiltinOptions, flatbuffers::Offset<void>>(flatbuffers::FlatBufferBuilder&)>;

// Writes one options table.
using OptionsTableWriter = std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)>;

// The writer of `type`'s table written by `table` (none when `table` is empty).
BuiltinOptionsWriter builtin_options(tflite::BuiltinOptions type, OptionsTableWriter table);

struct TfliteTensorSpec {
  std::string name{};
  tflite::TensorType type = tflite::TensorType::INT8;
  std::vector<int32_t> shape{};
  std::vector<uint8_t> data{};  // non-empty: a constant with its own buffer
  std::vector<float> scale{};
  std::vector<int64_t> zero_point{};
  int32_t quantized_dimension = 0;
  int64_t buffer = -1;  // >= 0: this buffer index instead of the automatic one
  bool is_variable = false;  // TFLite's variable tensors: SVDF and LSTM state
};

struct TfliteOpSpec {
  tflite::BuiltinOperator op = tflite::BuiltinOperator::ADD;
  std::string custom_code;  // for CUSTOM
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  int64_t opcode_index = -1;  // >= 0: this operator code index instead of the right one
  bool legacy_code_only = false;  // only deprecated_builtin_code, as pre-3a writers did
  BuiltinOptionsWriter options;   // empty: no builtin options
  std::vector<uint8_t> custom_options;  // a custom operator's options (FlexBuffers); empty: none
};

struct TfliteModelSpec {
  // Subgraph 0 ("main"); `subgraphs` holds subgraphs 1, 2, ... (their own tensors and
  // operators; buffers and operator codes are the model's). Their descriptions are unused.
  std::vector<TfliteTensorSpec> tensors;
  std::vector<TfliteOpSpec> ops;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::string description;
  std::vector<TfliteModelSpec> subgraphs;

  int32_t add_tensor(TfliteTensorSpec tensor) {
    tensors.push_back(std::move(tensor));
    return static_cast<int32_t>(tensors.size() - 1);
  }
  void add_op(tflite::BuiltinOperator op, std::vector<int32_t> op_inputs, std::vector<int32_t> op_outputs,
              BuiltinOptionsWriter options = {}) {
    TfliteOpSpec spec;
    spec.op = op;
    spec.inputs = std::move(op_inputs);
    spec.outputs = std::move(op_outputs);
    spec.options = std::move(options);
    ops.push_back(std::move(spec));
  }
};

// The .tflite bytes.
std::vector<uint8_t> build_tflite(const TfliteModelSpec& spec);

// int8 [1, n] x -> RESHAPE -> [n] y (y is the model output).
TfliteModelSpec single_reshape_model(int32_t n = 4);

// IF's options: the subgraphs of its two branches.
BuiltinOptionsWriter if_options(int32_t then_index, int32_t else_index);

// A subgraph computing out = op(x, y) on float32 [4] (an IF branch, a WHILE body).
TfliteModelSpec float_binary_subgraph(tflite::BuiltinOperator op);

// A tensor of a one-operator model.
struct OpTensor {
  tflite::TensorType type = tflite::TensorType::INT8;
  std::vector<int32_t> shape{};
  std::vector<uint8_t> data{};  // non-empty: a constant
  float scale = 0.0f;           // > 0: quantized per tensor
  int64_t zero_point = 0;
};

// One operator `op` over `tensors` (named t0, t1, ...), reading `inputs` and writing
// `outputs`. The model's inputs are the operator's non-constant inputs in tensor order, its
// outputs the operator's outputs.
std::vector<uint8_t> one_op_tflite(tflite::BuiltinOperator op, const std::vector<OpTensor>& tensors,
                                   const std::vector<int32_t>& inputs, const std::vector<int32_t>& outputs,
                                   const BuiltinOptionsWriter& options = {});

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_SUPPORT_TFLITE_OP_MODEL_H_
