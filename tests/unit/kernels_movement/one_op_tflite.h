// One-operator TFLite models with builtin options, for the movement converters' tests:
// written with the tests' TFLite builder (tests/support/tflite_op_model.h), imported, loaded
// and run on the static pool.
#ifndef GRAPHRT_TESTS_KERNELS_MOVEMENT_ONE_OP_TFLITE_H_
#define GRAPHRT_TESTS_KERNELS_MOVEMENT_ONE_OP_TFLITE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graphrt/tools/importer.h"
#include "one_node.h"
#include "tflite_op_model.h"

namespace grt::test {

// Tensors, then one operator over them. The model's inputs are the operator's non-constant
// inputs, its outputs the operator's outputs.
struct OneOp {
  tflite::BuiltinOperator op = tflite::BuiltinOperator::ADD;
  std::vector<OpTensor> tensors;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  tflite::BuiltinOptions options_type = tflite::BuiltinOptions::NONE;
  OptionsTableWriter options;

  int32_t add(OpTensor t) {
    tensors.push_back(std::move(t));
    return static_cast<int32_t>(tensors.size() - 1);
  }
  std::vector<uint8_t> tflite() const;
};

// The imported and loaded model (load status in `loaded`), or the importer's refusal.
struct ImportedOp {
  std::string error;  // empty: imported
  std::unique_ptr<Loaded> loaded;
};
ImportedOp import_op(const OneOp& model);

// The importer's refusal of the model ("" if it imports).
inline std::string import_error(const OneOp& model) { return import_op(model).error; }

// Imports, loads and runs the model on the given inputs (in model input order); returns
// every output's values, or nothing after a failure (reported to gtest).
template <typename Out, typename In>
std::vector<std::vector<Out>> run_op(const OneOp& model, const std::vector<std::vector<In>>& inputs) {
  const ImportedOp imported = import_op(model);
  EXPECT_EQ(imported.error, "");
  if (!imported.error.empty()) return {};
  EXPECT_EQ(imported.loaded->status(), GRT_OK) << imported.loaded->message();
  if (imported.loaded->status() != GRT_OK) return {};
  for (size_t i = 0; i < inputs.size(); ++i) imported.loaded->set_input(static_cast<uint32_t>(i), inputs[i]);
  EXPECT_EQ(imported.loaded->run(), GRT_OK) << imported.loaded->run_message();
  std::vector<std::vector<Out>> outputs;
  for (size_t j = 0; j < model.outputs.size(); ++j) outputs.push_back(imported.loaded->output<Out>(static_cast<uint32_t>(j)));
  return outputs;
}

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_KERNELS_MOVEMENT_ONE_OP_TFLITE_H_
