// Resource variables: VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE, as TFLM keeps them
// (micro_resource_variable.cc). VAR_HANDLE names a variable by (container, shared_name);
// the first ASSIGN_VARIABLE of it in operator order fixes its size (TFLM allocates it when
// preparing that operator, before any operator runs), and it starts as that value's int8
// zero point repeated over every byte (zeros without quantization). READ_VARIABLE copies it
// out, ASSIGN_VARIABLE copies a value in; both need the byte counts to match.
//
// Here a variable is a State tensor of the blob: a slot of its own, kept across grt_run and
// set back to the same start by grt_reset_state (TFLM's ResetAll). The RESOURCE tensors
// only name it, so they get no graphrt tensor, and reading or assigning is one `copy` node.
// The constants a CALL_ONCE initialiser assigns become the variable's initial bytes; an
// initialiser that computes runs as a subgraph whose outputs the call_once node copies into
// the variables (call_once_ops.cpp).
#include <optional>
#include <string>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/tflite_operator_codes.h"
#include "variable_common.h"

namespace grt::tools {

template <typename T>
static uint32_t count_of(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

std::optional<VariableName> handle_name(const tflite::Operator& op) {
  const auto* o = op.builtin_options_as_VarHandleOptions();
  if (o == nullptr || o->shared_name() == nullptr) return std::nullopt;
  VariableName name;
  if (o->container() != nullptr) name.container = o->container()->str();
  name.shared_name = o->shared_name()->str();
  return name;
}

bool names_match(const VariableName& lookup, const std::string& container, const std::string& shared_name) {
  return lookup.shared_name == shared_name && (!lookup.container || lookup.container->empty() || container.empty() || *lookup.container == container);
}

static tflite::BuiltinOperator code_of(const tflite::Model& model, const tflite::Operator& op) {
  return builtin_code(*model.operator_codes()->Get(op.opcode_index()));
}

const tflite::Operator* handle_writing(const tflite::Model& model, const tflite::SubGraph& subgraph, int32_t resource) {
  const auto* ops = subgraph.operators();
  for (uint32_t i = 0; i < count_of(ops); ++i) {
    const tflite::Operator* op = ops->Get(i);
    if (code_of(model, *op) != tflite::BuiltinOperator::VAR_HANDLE || count_of(op->outputs()) != 1) continue;
    if (op->outputs()->Get(0) == resource) return op;
  }
  return nullptr;
}

int32_t assigned_value(const tflite::Model& model, const tflite::SubGraph& subgraph, const VariableName& name, Which which) {
  const auto* ops = subgraph.operators();
  int32_t found = -1;
  for (uint32_t i = 0; i < count_of(ops); ++i) {
    const tflite::Operator* op = ops->Get(i);
    if (code_of(model, *op) != tflite::BuiltinOperator::ASSIGN_VARIABLE || count_of(op->inputs()) != 2) continue;
    const tflite::Operator* handle = handle_writing(model, subgraph, op->inputs()->Get(0));
    const std::optional<VariableName> other = handle == nullptr ? std::nullopt : handle_name(*handle);
    if (!other || !names_match(name, other->container.value_or(""), other->shared_name)) continue;
    found = op->inputs()->Get(1);
    if (which == Which::First) break;
  }
  return found;
}

const tflite::SubGraph* initialiser(const ImportContext& ctx) {
  const auto* ops = ctx.subgraph().operators();
  if (count_of(ops) == 0 || code_of(ctx.model(), *ops->Get(0)) != tflite::BuiltinOperator::CALL_ONCE) return nullptr;
  const auto* o = ops->Get(0)->builtin_options_as_CallOnceOptions();
  const auto* subgraphs = ctx.model().subgraphs();
  if (o == nullptr || o->init_subgraph_index() <= 0 || static_cast<uint32_t>(o->init_subgraph_index()) >= count_of(subgraphs)) return nullptr;
  return subgraphs->Get(static_cast<uint32_t>(o->init_subgraph_index()));
}

namespace {

std::string describe(const TensorDef& t) { return "'" + t.name + "' (" + std::to_string(t.bytes()) + " bytes)"; }

}  // namespace

int64_t variable_state(ImportContext& ctx, const VariableName& name) {
  for (const ImportContext::Variable& v : ctx.variables()) {
    if (names_match(name, v.container, v.shared_name)) return v.state;
  }
  // Sized by the first ASSIGN_VARIABLE TFLM prepares: the main subgraph's, then the
  // initialiser's. A variable never assigned has no size; reading it is refused there.
  const tflite::SubGraph* init = initialiser(ctx);
  const tflite::SubGraph* sizing = &ctx.subgraph();
  int32_t value = assigned_value(ctx.model(), *sizing, name, Which::First);
  if (value < 0 && init != nullptr) {
    sizing = init;
    value = assigned_value(ctx.model(), *sizing, name, Which::First);
  }
  if (value < 0) return -1;
  const tflite::Tensor& sized_by = *sizing->tensors()->Get(static_cast<uint32_t>(value));
  const std::string variable = "variable '" + name.shared_name + "'";
  const std::optional<DType> dtype = blob_dtype(sized_by.type());
  if (!dtype) {
    ctx.fail(variable + " has type " + tflite::EnumNameTensorType(sized_by.type()) + ", which graphrt does not support");
    return -1;
  }
  std::vector<int64_t> shape;
  uint64_t elements = 1;
  for (uint32_t i = 0; i < count_of(sized_by.shape()); ++i) {
    const int32_t d = sized_by.shape()->Get(i);
    if (d < 0) {
      ctx.fail(variable + " is assigned a tensor of dynamic shape");
      return -1;
    }
    if (d != 0 && elements > (uint64_t{1} << 31) / static_cast<uint64_t>(d)) {
      ctx.fail(variable + " has more than 2^31 elements");
      return -1;
    }
    shape.push_back(d);
    elements *= static_cast<uint64_t>(d);
  }
  const uint64_t bytes = elements * dtype_bytes(*dtype);
  // TFLM sets every byte to the value's zero point cast to int8, whatever the type.
  const auto* q = sized_by.quantization();
  const int64_t zero_point = q != nullptr && count_of(q->zero_point()) != 0 ? q->zero_point()->Get(0) : 0;
  const auto fill = static_cast<uint8_t>(static_cast<int8_t>(zero_point));
  if (fill != 0 && !ctx.reserve_written(bytes, "the initial values of " + variable + " (zero point " + std::to_string(zero_point) + ")")) {
    return -1;
  }
  std::vector<uint8_t> initial;
  if (fill != 0) initial.assign(bytes, fill);
  // CALL_ONCE's initialiser, folded: its last constant assignment is where the variable
  // starts. One that computes runs as the call_once node instead (call_once_ops.cpp).
  if (init != nullptr && initialiser_folds(ctx.model(), *init)) {
    if (const int32_t start = assigned_value(ctx.model(), *init, name, Which::Last); start >= 0) {
      const auto* data = ctx.model().buffers()->Get(init->tensors()->Get(static_cast<uint32_t>(start))->buffer())->data();
      if (count_of(data) != bytes) {
        ctx.fail("CALL_ONCE's initialiser assigns " + variable + " " + std::to_string(count_of(data)) + " bytes; it has " +
                 std::to_string(bytes));
        return -1;
      }
      initial.assign(data->begin(), data->end());
    }
  }
  const uint32_t state = ctx.graph().add_state(name.shared_name, *dtype, shape, std::move(initial));
  ctx.variables().push_back({name.container.value_or(""), name.shared_name, state});
  return state;
}

namespace {

bool convert_var_handle(ImportContext& ctx) {
  // A computing initialiser's handles only name the variables its assignments write.
  if (converts_initialiser(ctx)) return ctx.input_count() == 0 && ctx.output_count() == 1 ? true : ctx.fail("expects no inputs and 1 output");
  if (ctx.nested()) return ctx.fail("resource variables inside an IF or WHILE subgraph are not supported");
  if (ctx.input_count() != 0 || ctx.output_count() != 1) return ctx.fail("expects no inputs and 1 output");
  const int32_t resource = ctx.output_index(0);
  if (ctx.tensor(resource)->type() != tflite::TensorType::RESOURCE) return ctx.fail("output is not a RESOURCE tensor");
  const std::optional<VariableName> name = handle_name(ctx.op());
  if (!name) return ctx.fail("has no VarHandleOptions with a shared_name");
  const int64_t state = variable_state(ctx, *name);
  if (!ctx.error().empty()) return false;
  if (state >= 0) ctx.bind_resource(resource, static_cast<uint32_t>(state));
  return true;
}

// The State tensor of the operator's resource input 0, or -1 after failing the conversion.
int64_t variable_of(ImportContext& ctx) {
  const int32_t resource = ctx.input_index(0);
  const int64_t state = ctx.resource_state(resource);
  if (state >= 0) return state;
  if (resource < 0 || handle_writing(ctx.model(), ctx.subgraph(), resource) == nullptr) {
    ctx.fail("input 0 (tensor " + std::to_string(resource) + ") is not the output of a VAR_HANDLE of this subgraph");
  } else {
    ctx.fail("uses a variable that no ASSIGN_VARIABLE of this subgraph gives a size");
  }
  return -1;
}

bool convert_read_variable(ImportContext& ctx) {
  if (ctx.nested()) return ctx.fail("resource variables inside an IF or WHILE subgraph are not supported");
  if (ctx.input_count() != 1 || ctx.output_count() != 1) return ctx.fail("expects 1 input and 1 output");
  const int64_t state = variable_of(ctx);
  if (state < 0) return false;
  const uint32_t out = ctx.output(0);
  if (!ctx.error().empty()) return false;
  const TensorDef& variable = ctx.graph().tensors[static_cast<size_t>(state)];
  const TensorDef& output = ctx.graph().tensors[out];
  if (output.bytes() != variable.bytes()) return ctx.fail("output " + describe(output) + " does not match variable " + describe(variable));
  ctx.add_node("copy", {ArgDef::input(static_cast<uint32_t>(state)), ArgDef::output(out)});
  return true;
}

bool convert_assign_variable(ImportContext& ctx) {
  if (converts_initialiser(ctx)) return assign_initial_value(ctx);
  if (ctx.nested()) return ctx.fail("resource variables inside an IF or WHILE subgraph are not supported");
  if (ctx.input_count() != 2 || ctx.output_count() != 0) return ctx.fail("expects 2 inputs and no output");
  const int64_t state = variable_of(ctx);
  if (state < 0) return false;
  const uint32_t value = ctx.input(1);
  if (!ctx.error().empty()) return false;
  const TensorDef& variable = ctx.graph().tensors[static_cast<size_t>(state)];
  const TensorDef& input = ctx.graph().tensors[value];
  if (input.bytes() != variable.bytes()) return ctx.fail("value " + describe(input) + " does not match variable " + describe(variable));
  ctx.add_node("copy", {ArgDef::input(value), ArgDef::output(static_cast<uint32_t>(state))});
  return true;
}

}  // namespace

void register_variable_ops(ConverterTable& table) {
  // Variables of every dtype: their bytes are copied, never read.
  table.add(tflite::BuiltinOperator::VAR_HANDLE, convert_var_handle, every_dtype());
  table.add(tflite::BuiltinOperator::READ_VARIABLE, convert_read_variable, every_dtype());
  table.add(tflite::BuiltinOperator::ASSIGN_VARIABLE, convert_assign_variable, every_dtype());
  register_call_once(table);
}

}  // namespace grt::tools
