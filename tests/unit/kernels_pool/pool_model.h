// One-operator TFLite models for the pool family's converter tests: written with the
// flatc-generated builder, imported with graphrt's importer, then run on given inputs.
#ifndef GRAPHRT_TESTS_KERNELS_POOL_POOL_MODEL_H_
#define GRAPHRT_TESTS_KERNELS_POOL_POOL_MODEL_H_

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tflite_generated.h"

namespace grt::test {

struct OpTensor {
  tflite::TensorType type = tflite::TensorType::INT8;
  std::vector<int32_t> shape;
  std::vector<uint8_t> data;  // non-empty: a constant
  float scale = 0.0f;         // > 0: quantized per tensor
  int64_t zero_point = 0;
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

using BuiltinOptionsWriter =
    std::function<std::pair<tflite::BuiltinOptions, flatbuffers::Offset<void>>(flatbuffers::FlatBufferBuilder&)>;

struct OpModel {
  tflite::BuiltinOperator op = tflite::BuiltinOperator::MAX_POOL_2D;
  std::vector<OpTensor> inputs;
  OpTensor output;
  BuiltinOptionsWriter options;  // empty: no options
};

std::vector<uint8_t> build_op_model(const OpModel& model);

struct OpRun {
  std::string error;  // the importer's refusal, or the runtime's message
  std::vector<uint8_t> output;
};

// Imports the model, loads it under the static strategy and runs it once with the bytes of
// its non-constant inputs, in order.
OpRun import_and_run(const OpModel& model, const std::vector<std::vector<uint8_t>>& inputs);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_KERNELS_POOL_POOL_MODEL_H_
