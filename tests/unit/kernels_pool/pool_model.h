// One-operator TFLite models for the pool family's converter tests: written with the tests'
// TFLite builder (tests/support/tflite_op_model.h), imported with graphrt's importer, then run
// on given inputs.
#ifndef GRAPHRT_TESTS_KERNELS_POOL_POOL_MODEL_H_
#define GRAPHRT_TESTS_KERNELS_POOL_POOL_MODEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tflite_op_model.h"

namespace grt::test {

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
