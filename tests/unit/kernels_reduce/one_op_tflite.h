// One-operator TFLite models for the reduce family's converter tests: tensors (quantized or
// not, constant or not), one builtin operator with its options, written with the tests' TFLite
// builder (tests/support/tflite_op_model.h), imported by graphrt's importer and run on the
// static pool.
#ifndef GRAPHRT_TESTS_KERNELS_REDUCE_ONE_OP_TFLITE_H_
#define GRAPHRT_TESTS_KERNELS_REDUCE_ONE_OP_TFLITE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tflite_op_model.h"

namespace grt::test::reduce {

// An OpTensor with the reduce tests' argument order.
struct Tensor : OpTensor {
  Tensor(tflite::TensorType t, std::vector<int32_t> s, float q_scale = 0.0f, int64_t q_zero_point = 0,
         std::vector<uint8_t> bytes = {})
      : OpTensor{t, std::move(s), std::move(bytes), q_scale, q_zero_point} {}
};

// The operator's builtin options, written into the model's builder.
struct Options {
  tflite::BuiltinOptions type = tflite::BuiltinOptions::NONE;
  OptionsTableWriter build;
};

// A model whose one operator reads tensors `inputs` and writes tensor `outputs`; the model
// inputs are the operator's non-constant inputs, its outputs the operator's.
struct OneOp {
  tflite::BuiltinOperator op = tflite::BuiltinOperator::SUM;
  std::vector<Tensor> tensors;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  Options options;

  std::vector<uint8_t> tflite() const;
};

// What importing and running a OneOp gave: the import error (then nothing ran), the kernel
// names of the imported nodes, and each output's bytes.
struct Imported {
  std::string error;
  std::vector<std::string> kernels;
  std::vector<std::vector<uint8_t>> outputs;
};

// Imports `model`, feeds `inputs` (one per model input, in order) and runs once.
Imported import_and_run(const OneOp& model, const std::vector<std::vector<uint8_t>>& inputs);

}  // namespace grt::test::reduce

#endif  // GRAPHRT_TESTS_KERNELS_REDUCE_ONE_OP_TFLITE_H_
