// Naming TFLite operator codes: the builtin code an OperatorCode stands for, and the name
// the importer reports ("CONV_2D", "CUSTOM:SignalWindow", "BUILTIN_251").
#ifndef GRAPHRT_TOOLS_TFLITE_OPERATOR_CODES_H_
#define GRAPHRT_TOOLS_TFLITE_OPERATOR_CODES_H_

#include <string>

#include "tflite_generated.h"

namespace grt::tools {

// Writers before schema 3a only fill the byte-sized deprecated_builtin_code; newer ones fill
// both (the byte field saturates at 127), so the real code is the larger of the two.
tflite::BuiltinOperator builtin_code(const tflite::OperatorCode& code);

// The public name of a builtin operator, or "BUILTIN_<n>" for a code this schema lacks.
std::string builtin_name(tflite::BuiltinOperator op);

// builtin_name, except custom operators: "CUSTOM:<custom_code>".
std::string operator_code_name(const tflite::OperatorCode& code);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_TFLITE_OPERATOR_CODES_H_
