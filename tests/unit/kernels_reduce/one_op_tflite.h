// One-operator TFLite models for the reduce family's converter tests: tensors (quantized or
// not, constant or not), one builtin operator with its options, imported by graphrt's
// importer and run on the static pool.
#ifndef GRAPHRT_TESTS_KERNELS_REDUCE_ONE_OP_TFLITE_H_
#define GRAPHRT_TESTS_KERNELS_REDUCE_ONE_OP_TFLITE_H_

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tflite_generated.h"

namespace grt::test::reduce {

struct Tensor {
  Tensor(tflite::TensorType t, std::vector<int32_t> s, float q_scale = 0.0f, int64_t q_zero_point = 0,
         std::vector<uint8_t> bytes = {})
      : type(t), shape(std::move(s)), scale(q_scale), zero_point(q_zero_point), data(std::move(bytes)) {}

  tflite::TensorType type;
  std::vector<int32_t> shape;
  float scale;  // > 0: per-tensor quantized
  int64_t zero_point;
  std::vector<uint8_t> data;  // non-empty: a constant
};

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> values_of(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// The operator's builtin options, written into the model's builder.
struct Options {
  tflite::BuiltinOptions type = tflite::BuiltinOptions::NONE;
  std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)> build;
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
