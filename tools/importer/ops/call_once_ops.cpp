// CALL_ONCE: TFLM runs the initialiser subgraph on the first invoke only. The TensorFlow
// converter writes it as the first operator, its subgraph assigning constants to resource
// variables; graphrt folds those constants into the variables' initial bytes (VAR_HANDLE's
// converter reads them), so init sets them and no node runs. An initialiser that computes
// anything is refused: that needs subgraphs in the blob, which graphrt does not have yet.
//
// One difference from TFLM: grt_reset_state brings variables back to these constants,
// where TFLM's Reset sets them to their zero points and never runs the initialiser again.
#include <cstdint>

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

// Every operator of the initialiser is a VAR_HANDLE or a constant ASSIGN_VARIABLE to one.
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
        if (!in_range(list->Get(k), init)) {
          return ctx.fail(at + " uses tensor " + std::to_string(list->Get(k)) + ", but the subgraph has " +
                          std::to_string(count_of(init.tensors())) + " tensors");
        }
      }
    }
    if (builtin == tflite::BuiltinOperator::VAR_HANDLE) {
      if (count_of(op.outputs()) != 1 || !handle_name(op)) return ctx.fail(at + ": VAR_HANDLE needs 1 output and a shared_name");
      continue;
    }
    if (builtin != tflite::BuiltinOperator::ASSIGN_VARIABLE) {
      return ctx.fail(at + " is " + operator_code_name(code) + "; graphrt folds initialisers of constant ASSIGN_VARIABLEs only");
    }
    if (count_of(op.inputs()) != 2 || count_of(op.outputs()) != 0) return ctx.fail(at + ": ASSIGN_VARIABLE needs 2 inputs and no output");
    if (handle_writing(model, init, op.inputs()->Get(0)) == nullptr) return ctx.fail(at + " assigns a resource no VAR_HANDLE of it writes");
    const tflite::Tensor& value = *init.tensors()->Get(static_cast<uint32_t>(op.inputs()->Get(1)));
    // The verifier checks 4-byte alignment only; the zero points are read in place as int64.
    if (const auto* q = value.quantization(); q != nullptr && count_of(q->zero_point()) != 0 &&
                                             reinterpret_cast<uintptr_t>(q->zero_point()->data()) % 8 != 0) {
      return ctx.fail(at + " assigns a tensor whose zero points are off an 8-byte boundary (malformed file)");
    }
    const uint32_t buffer = value.buffer();
    if (buffer == 0 || buffer >= count_of(model.buffers()) || count_of(model.buffers()->Get(buffer)->data()) == 0) {
      return ctx.fail(at + " assigns a value that is not a constant");
    }
  }
  return true;
}

bool convert_call_once(ImportContext& ctx) {
  if (ctx.nested()) return ctx.fail("inside an IF or WHILE subgraph is not supported");
  if (ctx.op_index() != 0) return ctx.fail("must be the first operator: graphrt folds its initialiser into the variables' start");
  if (ctx.input_count() != 0 || ctx.output_count() != 0) return ctx.fail("expects no inputs and no outputs");
  const auto* o = ctx.options<tflite::CallOnceOptions>();
  if (o == nullptr) return ctx.fail("has no CallOnceOptions");
  const int32_t index = o->init_subgraph_index();
  const uint32_t subgraphs = count_of(ctx.model().subgraphs());
  if (index <= 0 || static_cast<uint32_t>(index) >= subgraphs) {
    return ctx.fail("init_subgraph_index " + std::to_string(index) + " is not another subgraph (the model has " + std::to_string(subgraphs) +
                    ")");
  }
  return check_initialiser(ctx, static_cast<uint32_t>(index));
}

}  // namespace

void register_call_once(ConverterTable& table) {
  // Constants of every dtype, folded into the variables they assign.
  table.add(tflite::BuiltinOperator::CALL_ONCE, convert_call_once, every_dtype());
}

}  // namespace grt::tools
