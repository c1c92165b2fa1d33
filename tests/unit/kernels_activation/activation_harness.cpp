#include "activation_harness.h"

namespace grt::test {
namespace {

TfliteTensorSpec tensor_spec(const char* name, const Operand& operand, std::vector<int32_t> shape) {
  TfliteTensorSpec t;
  t.name = name;
  t.type = operand.type;
  t.shape = std::move(shape);
  if (operand.scale > 0.0f) {
    t.scale = {operand.scale};
    t.zero_point = {operand.zero_point};
  }
  return t;
}

}  // namespace

std::vector<uint8_t> OneOperator::tflite() const {
  TfliteModelSpec spec;
  const int32_t x = spec.add_tensor(tensor_spec("x", in, shape));
  std::vector<int32_t> op_inputs{x};
  if (!constant.empty()) {
    TfliteTensorSpec c = tensor_spec("constant", constant_operand, constant_shape);
    c.data = constant;
    op_inputs.push_back(spec.add_tensor(std::move(c)));
  }
  const int32_t y = spec.add_tensor(tensor_spec("y", out, shape));
  spec.add_op(op, op_inputs, {y});
  spec.inputs = {x};
  spec.outputs = {y};
  return build_tflite(spec);
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
