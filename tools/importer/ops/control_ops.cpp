// IF and WHILE: nodes that invoke subgraphs of the blob (schema 1.2). The importer converts
// every subgraph they reach, callers before callees (importer.cpp); here each operator
// becomes one node of the control kernels (kernels/src/control), its subgraphs passed as
// ArgKind Subgraph arguments. Signatures are compared here for a clear refusal at import;
// the kernels' checks compare them again at init, as the blob may come from anywhere.
#include <string>

#include "graphrt/tools/import_context.h"

namespace grt::tools {
namespace {

template <typename T>
uint32_t count_of(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

// The TFLite tensor's dtype and shape, to compare across subgraphs.
std::string signature(const tflite::Tensor& t) {
  std::string s = tflite::EnumNameTensorType(t.type());
  s += "[";
  for (uint32_t i = 0; i < count_of(t.shape()); ++i) s += (i == 0 ? "" : ",") + std::to_string(t.shape()->Get(i));
  return s + "]";
}

// Operator tensors [first, first + count) of the inputs (or outputs) against the subgraph's
// inputs (or outputs).
bool same_signatures(ImportContext& ctx, bool outputs, int first, uint32_t count, int32_t tflite_subgraph, bool subgraph_outputs,
                     const std::string& what) {
  const tflite::SubGraph& sub = *ctx.model().subgraphs()->Get(static_cast<uint32_t>(tflite_subgraph));
  const auto* list = subgraph_outputs ? sub.outputs() : sub.inputs();
  if (count_of(list) != count) {
    return ctx.fail(what + " (subgraph " + std::to_string(tflite_subgraph) + ") has " + std::to_string(count_of(list)) + " " +
                    (subgraph_outputs ? "outputs" : "inputs") + "; the operator passes " + std::to_string(count));
  }
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t mine = outputs ? ctx.output_index(first + static_cast<int>(i)) : ctx.input_index(first + static_cast<int>(i));
    if (mine < 0) return ctx.fail("has an absent optional input");
    const int32_t theirs = list->Get(i);
    if (theirs < 0 || static_cast<uint32_t>(theirs) >= count_of(sub.tensors())) return ctx.fail(what + " lists a bad tensor");
    const std::string a = signature(*ctx.tensor(mine));
    const std::string b = signature(*sub.tensors()->Get(static_cast<uint32_t>(theirs)));
    if (a != b) return ctx.fail("value " + std::to_string(i) + " is " + a + ", but " + what + " has " + b);
  }
  return true;
}

bool blob_subgraphs(ImportContext& ctx, std::initializer_list<int32_t> tflite_indices, std::vector<ArgDef>* args) {
  for (const int32_t k : tflite_indices) {
    const int32_t index = ctx.blob_subgraph(k);
    if (index < 0) return ctx.fail("invokes subgraph " + std::to_string(k) + ", which was not imported");
    args->push_back(ArgDef::subgraph(static_cast<uint32_t>(index)));
  }
  return true;
}

void add_tensors(ImportContext& ctx, bool outputs, int first, int count, std::vector<ArgDef>* args) {
  for (int i = first; i < first + count; ++i) args->push_back(outputs ? ArgDef::output(ctx.output(i)) : ArgDef::input(ctx.input(i)));
}

// IF: [then, else, cond, inputs..., outputs...].
bool convert_if(ImportContext& ctx) {
  const auto* o = ctx.options<tflite::IfOptions>();
  if (o == nullptr) return ctx.fail("has no IfOptions");
  if (ctx.input_count() < 1 || !ctx.has_input(0)) return ctx.fail("needs a condition input");
  const tflite::Tensor& cond = *ctx.tensor(ctx.input_index(0));
  uint64_t elements = 1;
  for (uint32_t i = 0; i < count_of(cond.shape()); ++i) elements *= static_cast<uint64_t>(cond.shape()->Get(i) < 0 ? 0 : cond.shape()->Get(i));
  if (cond.type() != tflite::TensorType::BOOL || elements != 1) return ctx.fail("condition must be one bool, it is " + signature(cond));
  const uint32_t n = static_cast<uint32_t>(ctx.input_count() - 1);
  const uint32_t m = static_cast<uint32_t>(ctx.output_count());
  for (const auto& [index, what] : {std::pair{o->then_subgraph_index(), "the then-branch"}, std::pair{o->else_subgraph_index(), "the else-branch"}}) {
    if (!same_signatures(ctx, false, 1, n, index, false, what) || !same_signatures(ctx, true, 0, m, index, true, what)) return false;
  }
  std::vector<ArgDef> args;
  if (!blob_subgraphs(ctx, {o->then_subgraph_index(), o->else_subgraph_index()}, &args)) return false;
  args.push_back(ArgDef::input(ctx.input(0)));
  add_tensors(ctx, false, 1, static_cast<int>(n), &args);
  add_tensors(ctx, true, 0, static_cast<int>(m), &args);
  if (!ctx.error().empty()) return false;
  ctx.add_node("if_else", std::move(args));
  return true;
}

// WHILE: [cond, body, inputs..., outputs...], as many outputs as inputs.
bool convert_while(ImportContext& ctx) {
  const auto* o = ctx.options<tflite::WhileOptions>();
  if (o == nullptr) return ctx.fail("has no WhileOptions");
  const int n = ctx.input_count();
  if (ctx.output_count() != n) return ctx.fail("has " + std::to_string(n) + " inputs and " + std::to_string(ctx.output_count()) + " outputs");
  const uint32_t count = static_cast<uint32_t>(n);
  if (!same_signatures(ctx, false, 0, count, o->cond_subgraph_index(), false, "the condition") ||
      !same_signatures(ctx, false, 0, count, o->body_subgraph_index(), false, "the body") ||
      !same_signatures(ctx, true, 0, count, o->body_subgraph_index(), true, "the body") ||
      !same_signatures(ctx, false, 0, count, o->body_subgraph_index(), true, "the body")) {
    return false;
  }
  const tflite::SubGraph& cond = *ctx.model().subgraphs()->Get(static_cast<uint32_t>(o->cond_subgraph_index()));
  if (count_of(cond.outputs()) != 1) return ctx.fail("its condition has " + std::to_string(count_of(cond.outputs())) + " outputs, not 1");
  const int32_t flag = cond.outputs()->Get(0);
  if (flag < 0 || static_cast<uint32_t>(flag) >= count_of(cond.tensors()) || cond.tensors()->Get(static_cast<uint32_t>(flag))->type() != tflite::TensorType::BOOL) {
    return ctx.fail("its condition's output is not a bool");
  }
  std::vector<ArgDef> args;
  if (!blob_subgraphs(ctx, {o->cond_subgraph_index(), o->body_subgraph_index()}, &args)) return false;
  add_tensors(ctx, false, 0, n, &args);
  add_tensors(ctx, true, 0, n, &args);
  if (!ctx.error().empty()) return false;
  ctx.add_node("while_loop", std::move(args));
  return true;
}

}  // namespace

void register_control_ops(ConverterTable& table) {
  // Values of every dtype are copied in and out of the subgraphs unread.
  table.add(tflite::BuiltinOperator::IF, convert_if, every_dtype());
  table.add(tflite::BuiltinOperator::WHILE, convert_while, every_dtype());
}

}  // namespace grt::tools
