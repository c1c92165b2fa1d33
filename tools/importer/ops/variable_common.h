// What the resource-variable converters share (variable_ops.cpp, call_once_ops.cpp): how
// TFLM names a variable, and where a subgraph assigns one.
#ifndef GRAPHRT_TOOLS_IMPORTER_OPS_VARIABLE_COMMON_H_
#define GRAPHRT_TOOLS_IMPORTER_OPS_VARIABLE_COMMON_H_

#include <optional>
#include <string>
#include <vector>

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

// True when every operator of `init` is a VAR_HANDLE or an ASSIGN_VARIABLE of a constant:
// graphrt folds such an initialiser into the variables' initial bytes. Any other
// initialiser computes, and runs as a subgraph of the blob (call_once_ops.cpp).
bool initialiser_folds(const tflite::Model& model, const tflite::SubGraph& init);

// The subgraph a CALL_ONCE operator runs in the blob: its initialiser when that computes,
// else none (-1: folded, or an index the CALL_ONCE converter refuses).
int32_t computing_initialiser(const tflite::Model& model, const tflite::Operator& op);

// True while `ctx` converts the computing initialiser of the main graph's CALL_ONCE.
bool converts_initialiser(const ImportContext& ctx);

// The variables a computing initialiser assigns, in the order of their first assignment:
// the blob subgraph's outputs and the call_once node's variables, one for one. `value` is
// the TFLite tensor the last ASSIGN_VARIABLE of the variable assigns (operator `last_op`).
struct InitialValue {
  VariableName name;
  int32_t value;
  uint32_t last_op;
};
std::vector<InitialValue> initial_values(const tflite::Model& model, const tflite::SubGraph& init);

// An ASSIGN_VARIABLE of a computing initialiser: the last one of each variable makes its
// value the subgraph's output for that variable (call_once_ops.cpp).
bool assign_initial_value(ImportContext& ctx);

// The State tensor of variable `name`, created on first use (sized by the first
// ASSIGN_VARIABLE TFLM prepares); -1 when nothing gives it a size, or after failing `ctx`.
int64_t variable_state(ImportContext& ctx, const VariableName& name);

void register_call_once(ConverterTable& table);  // call_once_ops.cpp

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_IMPORTER_OPS_VARIABLE_COMMON_H_
