#include "graphrt/tools/tflite_operator_codes.h"

#include <algorithm>
#include <cstring>

namespace grt::tools {

tflite::BuiltinOperator builtin_code(const tflite::OperatorCode& code) {
  const int32_t legacy = code.deprecated_builtin_code();
  const int32_t extended = static_cast<int32_t>(code.builtin_code());
  return static_cast<tflite::BuiltinOperator>(std::max(legacy, extended));
}

std::string builtin_name(tflite::BuiltinOperator op) {
  // The generated lookup answers "" for codes inside the table's range that have no name.
  const char* name = tflite::EnumNameBuiltinOperator(op);
  if (name != nullptr && std::strlen(name) != 0) return name;
  return "BUILTIN_" + std::to_string(static_cast<int32_t>(op));
}

std::string operator_code_name(const tflite::OperatorCode& code) {
  const tflite::BuiltinOperator op = builtin_code(code);
  if (op != tflite::BuiltinOperator::CUSTOM) return builtin_name(op);
  const auto* custom = code.custom_code();
  return "CUSTOM:" + (custom != nullptr ? custom->str() : std::string("?"));
}

}  // namespace grt::tools
