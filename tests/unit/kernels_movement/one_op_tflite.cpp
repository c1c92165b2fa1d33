#include "one_op_tflite.h"

namespace grt::test {

std::vector<uint8_t> OneOp::tflite() const {
  return one_op_tflite(op, tensors, inputs, outputs, builtin_options(options_type, options));
}

ImportedOp import_op(const OneOp& model) {
  const std::vector<uint8_t> bytes = model.tflite();
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(bytes.data(), bytes.size(), &def);
  ImportedOp result;
  if (!imported.ok) {
    result.error = imported.error.empty() ? "refused" : imported.error;
    return result;
  }
  result.loaded = std::make_unique<Loaded>(def);
  return result;
}

}  // namespace grt::test
