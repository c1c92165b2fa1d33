// import_tflite: check the file, list what cannot be converted, then run one converter per
// operator. Every index the file holds is checked before anything follows it.
#include "graphrt/tools/importer.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/tflite_operator_codes.h"
#include "ops/variable_common.h"

namespace grt::tools {
namespace {

template <typename T>
uint32_t count_of(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

ImportResult failure(std::string message) {
  ImportResult r;
  r.error = std::move(message);
  return r;
}

// The first of: the identifier, FlatBuffers' verifier, the presence of a subgraph.
std::string check_container(const uint8_t* data, size_t size) {
  if (data == nullptr || size < 8) return "not a TFLite model: " + std::to_string(size) + " bytes";
  if (!tflite::ModelBufferHasIdentifier(data)) return "not a TFLite model: file identifier is not \"TFL3\"";
  flatbuffers::Verifier verifier(data, size);
  if (!tflite::VerifyModelBuffer(verifier)) return "malformed TFLite model: FlatBuffers verification failed";
  const tflite::Model* model = tflite::GetModel(data);
  if (count_of(model->subgraphs()) == 0) return "TFLite model has no subgraph";
  return {};
}

std::string check_tensor_list(const flatbuffers::Vector<int32_t>* list, uint32_t tensors, bool optional_allowed,
                              const std::string& what) {
  for (uint32_t i = 0; i < count_of(list); ++i) {
    const int32_t t = list->Get(i);
    if ((t == -1 && optional_allowed)) continue;
    if (t < 0 || static_cast<uint32_t>(t) >= tensors) {
      return what + " " + std::to_string(i) + " is tensor " + std::to_string(t) + ", but the subgraph has " +
             std::to_string(tensors) + " tensors";
    }
  }
  return {};
}

// Indices that converters and the context follow without further checks.
std::string check_indices(const tflite::Model& model, const tflite::SubGraph& subgraph) {
  const uint32_t tensors = count_of(subgraph.tensors());
  const uint32_t buffers = count_of(model.buffers());
  const uint32_t codes = count_of(model.operator_codes());
  for (uint32_t t = 0; t < tensors; ++t) {
    const tflite::Tensor* tensor = subgraph.tensors()->Get(t);
    if (tensor->buffer() >= buffers && tensor->buffer() != 0) {
      return "tensor " + std::to_string(t) + " uses buffer " + std::to_string(tensor->buffer()) + ", but the model has " +
             std::to_string(buffers) + " buffers";
    }
    // The verifier checks 4-byte alignment only; a 64-bit vector off an 8-byte boundary
    // cannot come from a FlatBuffers builder, and reading it in place is undefined.
    if (const auto* q = tensor->quantization();
        q != nullptr && q->zero_point() != nullptr && q->zero_point()->size() != 0 && reinterpret_cast<uintptr_t>(q->zero_point()->data()) % 8 != 0) {
      return "tensor " + std::to_string(t) + " has its zero points off an 8-byte boundary (malformed file)";
    }
    // Shapes bounded up front, so converters multiply dimensions without overflow.
    if (const auto* shape = tensor->shape(); shape != nullptr) {
      uint64_t elements = 1;
      for (const int32_t d : *shape) {
        const uint64_t extent = d < 0 ? 1 : static_cast<uint64_t>(d);
        if (extent != 0 && elements > (uint64_t{1} << 40) / extent) {
          return "tensor " + std::to_string(t) + " has more elements than graphrt supports (2^40)";
        }
        elements *= extent == 0 ? 1 : extent;
      }
    }
    // Real zero points fit the quantized type (at most 16 bits); refusing the rest here lets
    // converters negate and narrow them without overflow.
    if (const auto* q = tensor->quantization(); q != nullptr && q->zero_point() != nullptr) {
      for (const int64_t zero_point : *q->zero_point()) {
        if (zero_point < -65536 || zero_point > 65535) {
          return "tensor " + std::to_string(t) + " has zero point " + std::to_string(zero_point) + ", outside any quantized type";
        }
      }
    }
    if (tensor->buffer() != 0 && tensor->buffer() < buffers && model.buffers()->Get(tensor->buffer())->offset() > 1) {
      return "tensor " + std::to_string(t) + " keeps its data outside the flatbuffer (a model over 2 GB), which is not supported";
    }
  }
  if (std::string e = check_tensor_list(subgraph.inputs(), tensors, false, "model input"); !e.empty()) return e;
  if (std::string e = check_tensor_list(subgraph.outputs(), tensors, false, "model output"); !e.empty()) return e;
  for (uint32_t i = 0; i < count_of(subgraph.operators()); ++i) {
    const tflite::Operator* op = subgraph.operators()->Get(i);
    const std::string where = "operator #" + std::to_string(i);
    if (op->opcode_index() >= codes) {
      return where + " uses operator code " + std::to_string(op->opcode_index()) + ", but the model has " +
             std::to_string(codes);
    }
    if (std::string e = check_tensor_list(op->inputs(), tensors, true, where + " input"); !e.empty()) return e;
    if (std::string e = check_tensor_list(op->outputs(), tensors, false, where + " output"); !e.empty()) return e;
  }
  return {};
}

// Every activation at once bounds any plan; past the runtime's 2^40-byte pool limit no plan
// can load, so such a model is refused here, by name, rather than by the loader later.
std::string check_total_activations(const ModelDef& graph) {
  constexpr uint64_t kMaxPoolBytes = uint64_t{1} << 40;
  uint64_t total = 0;
  for (const TensorDef& t : graph.tensors) {
    if (t.kind != TensorKind::Activation && t.kind != TensorKind::State) continue;
    total += t.bytes();
    if (total > kMaxPoolBytes) return "the model's activations need more than 2^40 bytes, more than graphrt supports";
  }
  return {};
}

// "SVDF x7, CUSTOM:SignalWindow x1", in order of first appearance.
// Over every graph the import converts.
std::string list_unsupported(const tflite::Model& model, const std::vector<uint32_t>& graphs, const ConverterTable& converters,
                             std::map<std::string, int>* counts) {
  std::vector<std::string> order;
  for (const uint32_t k : graphs) {
    const tflite::SubGraph& subgraph = *model.subgraphs()->Get(k);
    for (uint32_t i = 0; i < count_of(subgraph.operators()); ++i) {
      const tflite::OperatorCode& code = *model.operator_codes()->Get(subgraph.operators()->Get(i)->opcode_index());
      if (converters.find(code) != nullptr) continue;
      const std::string name = operator_code_name(code);
      if ((*counts)[name]++ == 0) order.push_back(name);
    }
  }
  std::string text;
  for (const std::string& name : order) {
    if (!text.empty()) text += ", ";
    text += name + " x" + std::to_string((*counts)[name]);
  }
  return text;
}

// The loader refuses outputs no node writes (say, an output no operator produces).
std::string check_outputs_written(const ModelDef& graph) {
  std::vector<bool> written(graph.tensors.size(), false);
  for (const NodeDef& node : graph.nodes) {
    for (const ArgDef& arg : node.args) {
      if (arg.kind == ArgKind::Output) written[static_cast<size_t>(arg.value)] = true;
    }
  }
  for (size_t i = 0; i < graph.outputs.size(); ++i) {
    if (!written[graph.outputs[i]]) {
      return "model output " + std::to_string(i) + " ('" + graph.tensors[graph.outputs[i]].name + "') is computed by no operator";
    }
  }
  return {};
}

// "subgraph 2: " before a message about a subgraph other than the main one.
std::string where(uint32_t subgraph) { return subgraph == 0 ? std::string() : "subgraph " + std::to_string(subgraph) + ": "; }

// The TFLite subgraphs an operator invokes and runs as part of the graph (IF's branches,
// WHILE's condition and body, CALL_ONCE's initialiser when it computes: one of constants
// only is folded at import, not invoked).
std::vector<int32_t> invoked_subgraphs(const tflite::Model& model, const tflite::Operator& op) {
  if (op.opcode_index() >= count_of(model.operator_codes())) return {};
  if (const int32_t init = computing_initialiser(model, op); init > 0) return {init};
  const tflite::BuiltinOperator builtin = builtin_code(*model.operator_codes()->Get(op.opcode_index()));
  if (builtin == tflite::BuiltinOperator::IF) {
    if (const auto* o = op.builtin_options_as<tflite::IfOptions>(); o != nullptr) return {o->then_subgraph_index(), o->else_subgraph_index()};
  }
  if (builtin == tflite::BuiltinOperator::WHILE) {
    if (const auto* o = op.builtin_options_as<tflite::WhileOptions>(); o != nullptr) return {o->cond_subgraph_index(), o->body_subgraph_index()};
  }
  return {};
}

// The main graph (TFLite subgraph 0) and every subgraph it invokes, directly or not, with
// callers before callees: the blob's rule that a node invokes only later graphs, which
// makes recursion impossible. A TFLite model that recurses is refused here by name.
std::string subgraph_order(const tflite::Model& model, std::vector<uint32_t>* order, std::vector<int32_t>* blob_index) {
  const uint32_t count = count_of(model.subgraphs());
  enum class Mark : uint8_t { kNew, kOpen, kDone };
  std::vector<Mark> mark(count, Mark::kNew);
  std::vector<uint32_t> finished;
  std::string error;
  // Depth-first, finishing order reversed; TFLite files nest a handful of levels at most,
  // and the depth is bounded by the subgraph count. Operators and callees are visited last
  // first, so that a file whose subgraphs already follow their callers keeps its order.
  std::function<void(uint32_t)> visit = [&](uint32_t k) {
    mark[k] = Mark::kOpen;
    const tflite::SubGraph& subgraph = *model.subgraphs()->Get(k);
    for (uint32_t i = count_of(subgraph.operators()); i-- > 0 && error.empty();) {
      std::vector<int32_t> callees = invoked_subgraphs(model, *subgraph.operators()->Get(i));
      std::reverse(callees.begin(), callees.end());
      for (const int32_t callee : callees) {
        if (!error.empty()) break;
        if (callee < 0 || static_cast<uint32_t>(callee) >= count) {
          error = where(k) + "operator #" + std::to_string(i) + " invokes subgraph " + std::to_string(callee) + ", but the model has " +
                  std::to_string(count);
        } else if (mark[static_cast<uint32_t>(callee)] == Mark::kOpen) {
          error = where(k) + "operator #" + std::to_string(i) + " invokes subgraph " + std::to_string(callee) +
                  ", which is running already: recursion is not supported";
        } else if (mark[static_cast<uint32_t>(callee)] == Mark::kNew) {
          visit(static_cast<uint32_t>(callee));
        }
      }
    }
    mark[k] = Mark::kDone;
    finished.push_back(k);
  };
  visit(0);
  if (!error.empty()) return error;
  order->assign(finished.rbegin(), finished.rend());
  constexpr size_t kMaxSubgraphs = 32;  // the runtime's limit (runtime/src/model_check.h)
  if (order->size() - 1 > kMaxSubgraphs) {
    return "the model invokes " + std::to_string(order->size() - 1) + " subgraphs, at most " + std::to_string(kMaxSubgraphs) + " are supported";
  }
  blob_index->assign(count, -1);
  for (size_t i = 1; i < order->size(); ++i) (*blob_index)[(*order)[i]] = static_cast<int32_t>(i - 1);
  return {};
}

// Model inputs and outputs first, in order, so they are activations of their own.
std::string model_inputs_outputs(ImportContext& ctx, ModelDef* graph) {
  const tflite::SubGraph& subgraph = ctx.subgraph();
  for (uint32_t i = 0; i < count_of(subgraph.inputs()); ++i) {
    const int32_t t = subgraph.inputs()->Get(i);
    if (ctx.is_model_output(t)) return "model input " + std::to_string(i) + " is also a model output; no operator computes it";
    graph->inputs.push_back(ctx.graph_tensor(t));
    if (!ctx.error().empty()) return "model input " + std::to_string(i) + ": " + ctx.error();
  }
  for (uint32_t i = 0; i < count_of(subgraph.outputs()); ++i) {
    const int32_t t = subgraph.outputs()->Get(i);
    if (ctx.is_constant(t)) return "model output " + std::to_string(i) + " is a constant; no operator computes it";
    graph->outputs.push_back(ctx.graph_tensor(t));
    if (!ctx.error().empty()) return "model output " + std::to_string(i) + ": " + ctx.error();
  }
  return {};
}

// A subgraph's inputs and outputs: activations of its own range (an output may be an input
// passed through, as a WHILE body does with a loop bound).
std::string subgraph_inputs_outputs(ImportContext& ctx, SubgraphDef* def) {
  const tflite::SubGraph& subgraph = ctx.subgraph();
  for (uint32_t i = 0; i < count_of(subgraph.inputs()); ++i) {
    def->inputs.push_back(ctx.graph_tensor(subgraph.inputs()->Get(i)));
    if (!ctx.error().empty()) return "input " + std::to_string(i) + ": " + ctx.error();
  }
  for (uint32_t i = 0; i < count_of(subgraph.outputs()); ++i) {
    const int32_t t = subgraph.outputs()->Get(i);
    if (ctx.is_constant(t)) return "output " + std::to_string(i) + " is a constant, which graphrt does not pass out of a subgraph";
    def->outputs.push_back(ctx.graph_tensor(t));
    if (!ctx.error().empty()) return "output " + std::to_string(i) + ": " + ctx.error();
  }
  return {};
}

}  // namespace

ImportResult import_tflite(const uint8_t* data, size_t size, ModelDef* out) {
  return import_tflite(data, size, out, builtin_converters());
}

ImportResult import_tflite(const uint8_t* data, size_t size, ModelDef* out, const ConverterTable& converters) {
  if (std::string e = check_container(data, size); !e.empty()) return failure(std::move(e));
  const tflite::Model& model = *tflite::GetModel(data);
  // The main graph, then the subgraphs IF and WHILE invoke, callers before callees.
  std::vector<uint32_t> order;
  std::vector<int32_t> blob_index;
  if (std::string e = subgraph_order(model, &order, &blob_index); !e.empty()) return failure(std::move(e));
  for (const uint32_t k : order) {
    if (std::string e = check_indices(model, *model.subgraphs()->Get(k)); !e.empty()) return failure(where(k) + e);
  }

  ImportResult result;
  if (std::string unsupported = list_unsupported(model, order, converters, &result.unsupported); !unsupported.empty()) {
    result.error = "unsupported operators: " + unsupported;
    return result;
  }

  ModelDef graph;
  graph.name = model.description() != nullptr ? model.description()->str() : std::string();
  graph.producer = "graphrt import";
  // What converters write themselves (index tables, FFT twiddles, initial values) is
  // bounded over the whole model, whatever the file declares.
  WrittenBytes written;
  written.limit = size + kMaxWrittenBytes;
  for (const uint32_t k : order) {
    const tflite::SubGraph& subgraph = *model.subgraphs()->Get(k);
    const bool nested = k != order.front();
    if (nested) graph.begin_subgraph(subgraph.name() != nullptr ? subgraph.name()->str() : "subgraph " + std::to_string(k));
    ImportContext ctx(&model, &subgraph, &graph, &written);
    ctx.set_subgraphs(&blob_index, nested);
    if (std::string e = nested ? subgraph_inputs_outputs(ctx, &graph.subgraphs.back()) : model_inputs_outputs(ctx, &graph); !e.empty()) {
      return failure(where(k) + e);
    }
    for (uint32_t i = 0; i < count_of(subgraph.operators()); ++i) {
      const tflite::Operator* op = subgraph.operators()->Get(i);
      ctx.set_operator(op, i);
      const OpConverter convert = converters.find(*model.operator_codes()->Get(op->opcode_index()));
      const bool converted = convert(ctx);
      if (!converted || !ctx.error().empty()) {
        return failure(where(k) + ctx.op_name() + ": " + (ctx.error().empty() ? std::string("conversion failed") : ctx.error()));
      }
    }
  }
  graph.end_subgraph();
  fold_pads_into_convolutions(&graph);
  if (std::string e = check_outputs_written(graph); !e.empty()) return failure(std::move(e));
  if (std::string e = check_total_activations(graph); !e.empty()) return failure(std::move(e));
  result.ok = true;
  *out = std::move(graph);
  return result;
}

}  // namespace grt::tools
