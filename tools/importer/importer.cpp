// import_tflite: check the file, list what cannot be converted, then run one converter per
// operator. Every index the file holds is checked before anything follows it.
#include "graphrt/tools/importer.h"

#include <utility>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/tflite_operator_codes.h"

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
std::string list_unsupported(const tflite::Model& model, const tflite::SubGraph& subgraph, const ConverterTable& converters,
                             std::map<std::string, int>* counts) {
  std::vector<std::string> order;
  for (uint32_t i = 0; i < count_of(subgraph.operators()); ++i) {
    const tflite::OperatorCode& code = *model.operator_codes()->Get(subgraph.operators()->Get(i)->opcode_index());
    if (converters.find(code) != nullptr) continue;
    const std::string name = operator_code_name(code);
    if ((*counts)[name]++ == 0) order.push_back(name);
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

}  // namespace

ImportResult import_tflite(const uint8_t* data, size_t size, ModelDef* out) {
  return import_tflite(data, size, out, builtin_converters());
}

ImportResult import_tflite(const uint8_t* data, size_t size, ModelDef* out, const ConverterTable& converters) {
  if (std::string e = check_container(data, size); !e.empty()) return failure(std::move(e));
  const tflite::Model& model = *tflite::GetModel(data);
  const tflite::SubGraph& subgraph = *model.subgraphs()->Get(0);
  if (std::string e = check_indices(model, subgraph); !e.empty()) return failure(std::move(e));

  ImportResult result;
  if (std::string text = list_unsupported(model, subgraph, converters, &result.unsupported); !text.empty()) {
    result.error = "unsupported operators: " + text;
    return result;
  }

  ModelDef graph;
  graph.name = model.description() != nullptr ? model.description()->str() : std::string();
  graph.producer = "graphrt import";
  ImportContext ctx(&model, &subgraph, &graph);
  // Model inputs and outputs first, in order, so they are activations of their own.
  for (uint32_t i = 0; i < count_of(subgraph.inputs()); ++i) {
    const int32_t t = subgraph.inputs()->Get(i);
    if (ctx.is_model_output(t)) return failure("model input " + std::to_string(i) + " is also a model output; no operator computes it");
    graph.inputs.push_back(ctx.graph_tensor(t));
    if (!ctx.error().empty()) return failure("model input " + std::to_string(i) + ": " + ctx.error());
  }
  for (uint32_t i = 0; i < count_of(subgraph.outputs()); ++i) {
    const int32_t t = subgraph.outputs()->Get(i);
    if (ctx.is_constant(t)) return failure("model output " + std::to_string(i) + " is a constant; no operator computes it");
    graph.outputs.push_back(ctx.graph_tensor(t));
    if (!ctx.error().empty()) return failure("model output " + std::to_string(i) + ": " + ctx.error());
  }
  for (uint32_t i = 0; i < count_of(subgraph.operators()); ++i) {
    const tflite::Operator* op = subgraph.operators()->Get(i);
    ctx.set_operator(op, i);
    const OpConverter convert = converters.find(*model.operator_codes()->Get(op->opcode_index()));
    const bool converted = convert(ctx);
    if (!converted || !ctx.error().empty()) {
      return failure(ctx.op_name() + ": " + (ctx.error().empty() ? std::string("conversion failed") : ctx.error()));
    }
  }
  if (std::string e = check_outputs_written(graph); !e.empty()) return failure(std::move(e));
  if (std::string e = check_total_activations(graph); !e.empty()) return failure(std::move(e));
  result.ok = true;
  *out = std::move(graph);
  return result;
}

}  // namespace grt::tools
