// What the resource-variable converters share (variable_ops.cpp, call_once_ops.cpp): how
// TFLM names a variable, and where a subgraph assigns one.
#ifndef GRAPHRT_TOOLS_IMPORTER_OPS_VARIABLE_COMMON_H_
#define GRAPHRT_TOOLS_IMPORTER_OPS_VARIABLE_COMMON_H_

#include <optional>
#include <string>

#include "graphrt/tools/import_context.h"

namespace grt::tools {

struct VariableName {
  std::optional<std::string> container;  // TFLite writers may leave it out
  std::string shared_name;
};

// A VAR_HANDLE's name; nullopt without options or shared_name.
std::optional<VariableName> handle_name(const tflite::Operator& op);

// One variable, as TFLM's FindId finds them: the shared names agree, and so do the
// containers when both handles name one (whichever handle TFLM prepares first creates it).
bool names_match(const VariableName& lookup, const std::string& container, const std::string& shared_name);

// The VAR_HANDLE of `subgraph` that writes `resource`, or null.
const tflite::Operator* handle_writing(const tflite::Model& model, const tflite::SubGraph& subgraph, int32_t resource);

// The value tensor of the first (or last) ASSIGN_VARIABLE of variable `name` in `subgraph`, or -1.
enum class Which { First, Last };
int32_t assigned_value(const tflite::Model& model, const tflite::SubGraph& subgraph, const VariableName& name, Which which);

// The initialiser subgraph of a CALL_ONCE that is the model's first operator (the CALL_ONCE
// converter, run first, has checked it), or null.
const tflite::SubGraph* initialiser(const ImportContext& ctx);

void register_call_once(ConverterTable& table);  // call_once_ops.cpp

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_IMPORTER_OPS_VARIABLE_COMMON_H_
