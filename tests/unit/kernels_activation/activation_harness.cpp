#include "activation_harness.h"

namespace grt::test {
namespace {

OpTensor op_tensor(const Operand& operand, std::vector<int32_t> shape, std::vector<uint8_t> data = {}) {
  return {operand.type, std::move(shape), std::move(data), operand.scale, operand.zero_point};
}

}  // namespace

std::vector<uint8_t> OneOperator::tflite() const {
  std::vector<OpTensor> tensors{op_tensor(in, shape)};
  if (!constant.empty()) tensors.push_back(op_tensor(constant_operand, constant_shape, constant));
  tensors.push_back(op_tensor(out, shape));
  const auto y = static_cast<int32_t>(tensors.size() - 1);
  std::vector<int32_t> op_inputs;
  for (int32_t i = 0; i < y; ++i) op_inputs.push_back(i);
  return one_op_tflite(op, tensors, op_inputs, {y});
}

std::string OneOperator::refusal() const {
  const std::vector<uint8_t> bytes = tflite();
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(bytes.data(), bytes.size(), &def);
  return imported.ok ? "" : imported.error;
}

std::string unary_refusal(tflite::BuiltinOperator op, Operand in, Operand out) {
  OneOperator model;
  model.op = op;
  model.shape = {4};
  model.in = in;
  model.out = out;
  return model.refusal();
}

std::vector<int8_t> every_int8() {
  std::vector<int8_t> values;
  for (int v = -128; v <= 127; ++v) values.push_back(static_cast<int8_t>(v));
  return values;
}

}  // namespace grt::test
