// CALL_ONCE: TFLM runs the initialiser subgraph on the first invoke only. The TensorFlow
// converter writes it as the first operator, its subgraph assigning resource variables.
//
// An initialiser that assigns constants only is folded: the constants become the
// variables' initial bytes (VAR_HANDLE's converter reads them), so init sets them and no
// node runs. One difference from TFLM there: grt_reset_state brings variables back to these
// constants, where TFLM's Reset sets them to their zero points and never runs the
// initialiser again.
//
// An initialiser that computes becomes a subgraph of the blob and CALL_ONCE a `call_once`
// node: [initialiser, done (State bool [1]), variables (State)...]. The subgraph's outputs
// are the values its last ASSIGN_VARIABLE of each variable assigns, one per variable in the
// order of their first assignment; the node runs it while `done` is 0, copies the outputs
// into the variables and sets `done`. `done` starts at 0 and grt_reset_state sets it back,
// so the run after a reset initialises again, like a fresh TFLM interpreter. Refused: an
// initialiser with inputs or outputs, one that reads a variable, and control flow inside it.
#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/tflite_operator_codes.h"
#include "variable_common.h"

namespace grt::tools {
namespace {

template <typename T>
uint32_t count_of(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

bool in_range(int32_t tensor, const tflite::SubGraph& subgraph) {
  return tensor >= 0 && static_cast<uint32_t>(tensor) < count_of(subgraph.tensors());
}

// The operator's builtin code; CUSTOM for a code index out of range (checked elsewhere).
tflite::BuiltinOperator code_of(const tflite::Model& model, const tflite::Operator& op) {
  if (op.opcode_index() >= count_of(model.operator_codes())) return tflite::BuiltinOperator::CUSTOM;
  return builtin_code(*model.operator_codes()->Get(op.opcode_index()));
}

// The value tensor of an ASSIGN_VARIABLE has bytes in the model's buffers.
bool assigns_constant(const tflite::Model& model, const tflite::SubGraph& init, const tflite::Operator& op) {
  if (count_of(op.inputs()) != 2 || !in_range(op.inputs()->Get(1), init)) return false;
  const uint32_t buffer = init.tensors()->Get(static_cast<uint32_t>(op.inputs()->Get(1)))->buffer();
  return buffer != 0 && buffer < count_of(model.buffers()) && count_of(model.buffers()->Get(buffer)->data()) != 0;
}

// What both kinds of initialiser must be: no inputs or outputs, operators and tensors in
// range, handles with names, assignments of named handles, no reads of variables and no
// control flow (graphrt does not nest CALL_ONCE, IF or WHILE inside an initialiser).
bool check_initialiser(ImportContext& ctx, uint32_t index) {
  const tflite::Model& model = ctx.model();
  const tflite::SubGraph& init = *model.subgraphs()->Get(index);
  const std::string where = "initialiser subgraph " + std::to_string(index);
  if (count_of(init.inputs()) != 0 || count_of(init.outputs()) != 0) {
    return ctx.fail(where + " has " + std::to_string(count_of(init.inputs())) + " inputs and " + std::to_string(count_of(init.outputs())) +
                    " outputs; CALL_ONCE passes none");
  }
  const auto* ops = init.operators();
  for (uint32_t i = 0; i < count_of(ops); ++i) {
    const tflite::Operator& op = *ops->Get(i);
    const std::string at = where + " operator #" + std::to_string(i);
    if (op.opcode_index() >= count_of(model.operator_codes())) {
      return ctx.fail(at + " uses operator code " + std::to_string(op.opcode_index()) + ", but the model has " +
                      std::to_string(count_of(model.operator_codes())));
    }
    const tflite::OperatorCode& code = *model.operator_codes()->Get(op.opcode_index());
    const tflite::BuiltinOperator builtin = builtin_code(code);
    for (const auto* list : {op.inputs(), op.outputs()}) {
      for (uint32_t k = 0; k < count_of(list); ++k) {
        if (list->Get(k) >= 0 && !in_range(list->Get(k), init)) {
          return ctx.fail(at + " uses tensor " + std::to_string(list->Get(k)) + ", but the subgraph has " +
                          std::to_string(count_of(init.tensors())) + " tensors");
        }
      }
    }
    if (builtin == tflite::BuiltinOperator::CALL_ONCE || builtin == tflite::BuiltinOperator::IF || builtin == tflite::BuiltinOperator::WHILE) {
      return ctx.fail(at + " is " + operator_code_name(code) + "; graphrt runs initialisers without nested control flow");
    }
    if (builtin == tflite::BuiltinOperator::READ_VARIABLE) {
      return ctx.fail(at + " reads a variable; graphrt runs initialisers that only assign them");
    }
    if (builtin == tflite::BuiltinOperator::VAR_HANDLE) {
      if (count_of(op.outputs()) != 1 || !handle_name(op)) return ctx.fail(at + ": VAR_HANDLE needs 1 output and a shared_name");
      continue;
    }
    if (builtin != tflite::BuiltinOperator::ASSIGN_VARIABLE) continue;
    if (count_of(op.inputs()) != 2 || count_of(op.outputs()) != 0 || op.inputs()->Get(1) < 0) {
      return ctx.fail(at + ": ASSIGN_VARIABLE needs 2 inputs and no output");
    }
    const tflite::Operator* handle = handle_writing(model, init, op.inputs()->Get(0));
    if (handle == nullptr || !handle_name(*handle)) return ctx.fail(at + " assigns a resource no VAR_HANDLE of it writes");
    const tflite::Tensor& value = *init.tensors()->Get(static_cast<uint32_t>(op.inputs()->Get(1)));
    // The verifier checks 4-byte alignment only; the zero points are read in place as int64.
    if (const auto* q = value.quantization(); q != nullptr && count_of(q->zero_point()) != 0 &&
                                             reinterpret_cast<uintptr_t>(q->zero_point()->data()) % 8 != 0) {
      return ctx.fail(at + " assigns a tensor whose zero points are off an 8-byte boundary (malformed file)");
    }
  }
  return true;
}

// The call_once node of a computing initialiser (TFLite subgraph `index`).
bool add_call_once(ImportContext& ctx, int32_t index) {
  const tflite::SubGraph& init = *ctx.model().subgraphs()->Get(static_cast<uint32_t>(index));
  const int32_t blob_index = ctx.blob_subgraph(index);
  if (blob_index < 0) return ctx.fail("initialiser subgraph " + std::to_string(index) + " was not imported");
  const std::vector<InitialValue> values = initial_values(ctx.model(), init);
  std::vector<ArgDef> args = {ArgDef::subgraph(static_cast<uint32_t>(blob_index)),
                              ArgDef::output(ctx.graph().add_state(ctx.op_name() + " done", DType::Bool, {1}, {}))};
  for (const InitialValue& v : values) {
    const int64_t state = variable_state(ctx, v.name);
    if (!ctx.error().empty()) return false;
    const TensorDef& variable = ctx.graph().tensors[static_cast<size_t>(state)];
    const tflite::Tensor& value = *init.tensors()->Get(static_cast<uint32_t>(v.value));
    const std::optional<DType> dtype = blob_dtype(value.type());
    uint64_t bytes = dtype ? dtype_bytes(*dtype) : 0;
    for (uint32_t i = 0; i < count_of(value.shape()); ++i) bytes *= static_cast<uint64_t>(value.shape()->Get(i) < 0 ? 0 : value.shape()->Get(i));
    if (!dtype || *dtype != variable.dtype || bytes != variable.bytes()) {
      return ctx.fail("CALL_ONCE's initialiser assigns variable '" + v.name.shared_name + "' " + std::to_string(bytes) + " bytes of " +
                      tflite::EnumNameTensorType(value.type()) + "; the variable is " + std::to_string(variable.bytes()) + " bytes of " +
                      dtype_name(variable.dtype));
    }
    args.push_back(ArgDef::output(static_cast<uint32_t>(state)));
  }
  ctx.add_node("call_once", std::move(args));
  return ctx.error().empty();
}

bool convert_call_once(ImportContext& ctx) {
  if (ctx.nested()) return ctx.fail("inside an IF, WHILE or CALL_ONCE subgraph is not supported");
  if (ctx.op_index() != 0) return ctx.fail("must be the first operator, where TensorFlow's converter puts it");
  if (ctx.input_count() != 0 || ctx.output_count() != 0) return ctx.fail("expects no inputs and no outputs");
  const auto* o = ctx.options<tflite::CallOnceOptions>();
  if (o == nullptr) return ctx.fail("has no CallOnceOptions");
  const int32_t index = o->init_subgraph_index();
  const uint32_t subgraphs = count_of(ctx.model().subgraphs());
  if (index <= 0 || static_cast<uint32_t>(index) >= subgraphs) {
    return ctx.fail("init_subgraph_index " + std::to_string(index) + " is not another subgraph (the model has " + std::to_string(subgraphs) +
                    ")");
  }
  if (!check_initialiser(ctx, static_cast<uint32_t>(index))) return false;
  // Folded: VAR_HANDLE's converter sets the variables' initial bytes; nothing runs.
  if (initialiser_folds(ctx.model(), *ctx.model().subgraphs()->Get(static_cast<uint32_t>(index)))) return true;
  return add_call_once(ctx, index);
}

}  // namespace

bool initialiser_folds(const tflite::Model& model, const tflite::SubGraph& init) {
  const auto* ops = init.operators();
  for (uint32_t i = 0; i < count_of(ops); ++i) {
    const tflite::Operator& op = *ops->Get(i);
    const tflite::BuiltinOperator builtin = code_of(model, op);
    if (builtin == tflite::BuiltinOperator::VAR_HANDLE) continue;
    if (builtin != tflite::BuiltinOperator::ASSIGN_VARIABLE || !assigns_constant(model, init, op)) return false;
  }
  return true;
}

int32_t computing_initialiser(const tflite::Model& model, const tflite::Operator& op) {
  if (code_of(model, op) != tflite::BuiltinOperator::CALL_ONCE) return -1;
  const auto* o = op.builtin_options_as_CallOnceOptions();
  if (o == nullptr || o->init_subgraph_index() <= 0 || static_cast<uint32_t>(o->init_subgraph_index()) >= count_of(model.subgraphs())) {
    return -1;
  }
  return initialiser_folds(model, *model.subgraphs()->Get(static_cast<uint32_t>(o->init_subgraph_index()))) ? -1 : o->init_subgraph_index();
}

bool converts_initialiser(const ImportContext& ctx) {
  if (!ctx.nested()) return false;
  const tflite::Model& model = ctx.model();
  const auto* main_ops = model.subgraphs()->Get(0)->operators();
  if (count_of(main_ops) == 0) return false;
  const int32_t index = computing_initialiser(model, *main_ops->Get(0));
  return index > 0 && model.subgraphs()->Get(static_cast<uint32_t>(index)) == &ctx.subgraph();
}

std::vector<InitialValue> initial_values(const tflite::Model& model, const tflite::SubGraph& init) {
  std::vector<InitialValue> values;
  const auto* ops = init.operators();
  for (uint32_t i = 0; i < count_of(ops); ++i) {
    const tflite::Operator& op = *ops->Get(i);
    if (code_of(model, op) != tflite::BuiltinOperator::ASSIGN_VARIABLE || count_of(op.inputs()) != 2 || !in_range(op.inputs()->Get(1), init)) {
      continue;
    }
    const tflite::Operator* handle = handle_writing(model, init, op.inputs()->Get(0));
    const std::optional<VariableName> name = handle == nullptr ? std::nullopt : handle_name(*handle);
    if (!name) continue;
    bool known = false;
    for (InitialValue& v : values) {
      if (names_match(v.name, name->container.value_or(""), name->shared_name)) {
        v.value = op.inputs()->Get(1);
        v.last_op = i;
        known = true;
        break;
      }
    }
    if (!known) values.push_back({*name, op.inputs()->Get(1), i});
  }
  return values;
}

bool assign_initial_value(ImportContext& ctx) {
  if (ctx.input_count() != 2 || ctx.output_count() != 0) return ctx.fail("expects 2 inputs and no output");
  const std::vector<InitialValue> values = initial_values(ctx.model(), ctx.subgraph());
  size_t slot = values.size();
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].last_op == ctx.op_index()) slot = i;
  }
  if (slot == values.size()) return true;  // a later assignment of the variable wins: nothing to keep
  uint32_t value = ctx.input(1);
  if (!ctx.error().empty()) return false;
  // A subgraph passes out activations only: a constant is copied into one first.
  if (ctx.is_constant(ctx.input_index(1))) {
    const TensorDef constant = ctx.graph().tensors[value];
    const uint32_t copy = ctx.graph().add_activation(constant.name + " (initial value)", constant.dtype, constant.shape);
    ctx.add_node("copy", {ArgDef::input(value), ArgDef::output(copy)});
    value = copy;
  }
  std::vector<uint32_t>& outputs = ctx.graph().subgraphs.back().outputs;
  if (outputs.size() < values.size()) outputs.resize(values.size(), value);
  outputs[slot] = value;
  return ctx.error().empty();
}

void register_call_once(ConverterTable& table) {
  // Variables of every dtype: folded constants, or the initialiser's values copied in.
  table.add(tflite::BuiltinOperator::CALL_ONCE, convert_call_once, every_dtype());
}

}  // namespace grt::tools
