// One-operator TFLite models for the activation converters: build, import, run on given
// input values, read the output; or import and return the refusal.
#ifndef GRAPHRT_TESTS_ACTIVATION_HARNESS_H_
#define GRAPHRT_TESTS_ACTIVATION_HARNESS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/importer.h"
#include "one_node.h"
#include "tflite_op_model.h"

namespace grt::test {

// A tensor's type and quantization (scale 0: not quantized).
struct Operand {
  tflite::TensorType type = tflite::TensorType::INT8;
  float scale = 0.0f;
  int64_t zero_point = 0;
};

inline Operand int8(float scale, int64_t zero_point) { return {tflite::TensorType::INT8, scale, zero_point}; }
inline Operand int16(float scale, int64_t zero_point = 0) { return {tflite::TensorType::INT16, scale, zero_point}; }
inline Operand float32() { return {tflite::TensorType::FLOAT32, 0.0f, 0}; }

// x [shape] -> op -> y [shape]; with `constant` set, it is op's second input (PRELU's alpha).
struct OneOperator {
  tflite::BuiltinOperator op = tflite::BuiltinOperator::RELU;
  std::vector<int32_t> shape;
  Operand in, out;
  Operand constant_operand{};
  std::vector<int32_t> constant_shape;
  std::vector<uint8_t> constant;

  std::vector<uint8_t> tflite() const;
  // The importer's refusal ("" when it imports).
  std::string refusal() const;
};

// Imports, loads, runs; the test fails (and the result is empty) on any error.
template <typename T>
std::vector<T> run_operator(const OneOperator& model, const std::vector<T>& input) {
  const std::vector<uint8_t> bytes = model.tflite();
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(bytes.data(), bytes.size(), &def);
  EXPECT_TRUE(imported.ok) << imported.error;
  if (!imported.ok) return {};
  Loaded loaded(def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return {};
  loaded.set_input(0, input);
  EXPECT_EQ(loaded.run(), GRT_OK) << loaded.run_message();
  return loaded.output<T>(0);
}

// A unary operator over a [n] tensor of these values.
template <typename T>
std::vector<T> run_unary(tflite::BuiltinOperator op, Operand in, Operand out, const std::vector<T>& input) {
  OneOperator model;
  model.op = op;
  model.shape = {static_cast<int32_t>(input.size())};
  model.in = in;
  model.out = out;
  return run_operator(model, input);
}

// The refusal of a unary operator on [4] tensors.
std::string unary_refusal(tflite::BuiltinOperator op, Operand in, Operand out);

// Every int8 value, -128 .. 127, the input of the table tests.
std::vector<int8_t> every_int8();

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_ACTIVATION_HARNESS_H_
