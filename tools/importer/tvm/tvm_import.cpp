// Graph entries to tensors, tvm_op nodes to graphrt nodes. TVM's storage ids are only
// reported (graphrt plans memory itself); params are bound to null nodes by name.
#include "graphrt/tools/tvm/tvm_import.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include "graphrt/tools/tvm/graph.h"
#include "graphrt/tools/tvm/params.h"
#include "model_library_format.h"
#include "workspace.h"

namespace grt::tools::tvm {
namespace {

struct DTypeName {
  const char* name;
  DType dtype;
  uint8_t code;
  uint8_t bits;
};

constexpr DTypeName kDTypes[] = {
    {"int8", DType::Int8, kDLInt, 8},       {"uint8", DType::UInt8, kDLUInt, 8},    {"int16", DType::Int16, kDLInt, 16},
    {"int32", DType::Int32, kDLInt, 32},    {"int64", DType::Int64, kDLInt, 64},    {"float32", DType::Float32, kDLFloat, 32},
    {"bool", DType::Bool, kDLUInt, 1},
};

const DTypeName* dtype_by_name(const std::string& name) {
  for (const DTypeName& d : kDTypes) {
    if (name == d.name) return &d;
  }
  return nullptr;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

uint64_t elements_of(const std::vector<int64_t>& shape) {
  uint64_t n = 1;
  for (const int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

// One generated function's arguments, which every node calling it must agree on: its code
// was compiled for exactly these.
struct Signature {
  std::vector<std::pair<DType, std::vector<int64_t>>> args;
  uint32_t num_inputs = 0;
  std::string first_caller;
};

class Builder {
 public:
  Builder(const Graph& graph, std::vector<Param> params, ModelDef* model, std::string* error)
      : g_(graph), params_(std::move(params)), m_(*model), error_(*error) {}

  bool build() {
    entry_tensor_.assign(g_.entry_count(), UINT32_MAX);
    param_nodes_.assign(g_.nodes.size(), false);
    for (uint32_t id = 0; id < g_.nodes.size(); ++id) {
      const bool ok = g_.nodes[id].is_op() ? add_op(id) : add_null(id);
      if (!ok) return false;
    }
    return add_outputs();
  }

  const std::vector<bool>& param_nodes() const { return param_nodes_; }

  std::vector<std::string> functions() const {
    std::vector<std::string> names;
    for (const auto& [name, signature] : signatures_) names.push_back(name);
    return names;
  }

 private:
  std::string node_label(uint32_t id) const { return "node " + std::to_string(id) + " '" + g_.nodes[id].name + "'"; }

  bool fail(const std::string& message) {
    error_ = message;
    return false;
  }

  bool entry_dtype(uint32_t entry, const std::string& who, const DTypeName** out) {
    *out = dtype_by_name(g_.dltype[entry]);
    if (*out == nullptr) return fail(who + ": dtype '" + g_.dltype[entry] + "' is not supported");
    return true;
  }

  bool add_null(uint32_t id) {
    const GraphNode& n = g_.nodes[id];
    const uint32_t entry = g_.node_row_ptr[id];
    const DTypeName* dtype = nullptr;
    if (!entry_dtype(entry, node_label(id), &dtype)) return false;
    const auto param = std::find_if(params_.begin(), params_.end(), [&](const Param& p) { return p.name == n.name; });
    if (param == params_.end()) {
      if (is_param_name(n.name)) return fail("param '" + n.name + "' (" + node_label(id) + ") is missing from the params");
      entry_tensor_[entry] = m_.add_activation(n.name, dtype->dtype, g_.shape[entry]);
      m_.inputs.push_back(entry_tensor_[entry]);
      return true;
    }
    if (param->dtype.code != dtype->code || param->dtype.bits != dtype->bits) {
      return fail("param '" + n.name + "': its dtype (code " + std::to_string(param->dtype.code) + ", " + std::to_string(param->dtype.bits) +
                  " bits) is not the graph's " + g_.dltype[entry]);
    }
    if (param->shape != g_.shape[entry]) {
      return fail("param '" + n.name + "' has shape " + shape_text(param->shape) + ", the graph says " + shape_text(g_.shape[entry]));
    }
    param_nodes_[id] = true;
    // add_constant 16-byte aligns it in the blob; the bytes move, params_ is done with them.
    entry_tensor_[entry] = m_.add_constant(n.name, dtype->dtype, param->shape, std::move(param->bytes));
    return true;
  }

  // TVM's build names params p0, p1, ...: a null node so named with no array is a param the
  // file lacks, not a model input. Other names are inputs.
  bool is_param_name(const std::string& name) const {
    if (params_.empty() || name.size() < 2 || name[0] != 'p') return false;
    return name.find_first_not_of("0123456789", 1) == std::string::npos;
  }

  // The tensor an argument of a flatten_data node sees: the entry as one dimension.
  uint32_t flattened(uint32_t tensor) {
    const TensorDef& t = m_.tensors[tensor];
    return m_.add_alias(t.name + ":flat", tensor, {static_cast<int64_t>(t.elements())});
  }

  bool add_op(uint32_t id) {
    const GraphNode& n = g_.nodes[id];
    std::vector<ArgDef> args;
    Signature signature;
    signature.num_inputs = n.num_inputs;
    signature.first_caller = node_label(id);
    for (const EntryRef& in : n.inputs) {
      const uint32_t tensor = entry_tensor_[g_.entry_id(in)];
      args.push_back(ArgDef::input(n.flatten_data ? flattened(tensor) : tensor));
    }
    for (uint32_t o = 0; o < n.num_outputs; ++o) {
      const uint32_t entry = g_.node_row_ptr[id] + o;
      const DTypeName* dtype = nullptr;
      if (!entry_dtype(entry, node_label(id), &dtype)) return false;
      const std::string name = n.num_outputs == 1 ? n.name : n.name + ":" + std::to_string(o);
      if (n.func_name == "__nop") {
        // A no-op: the output is the input's bytes under the output's shape.
        const uint32_t source = entry_tensor_[g_.entry_id(n.inputs[0])];
        if (elements_of(g_.shape[entry]) * dtype_bytes(dtype->dtype) != m_.tensors[source].bytes()) {
          return fail(node_label(id) + ": __nop output " + shape_text(g_.shape[entry]) + " " + g_.dltype[entry] + " is not the size of its input");
        }
        entry_tensor_[entry] = m_.add_alias(name, source, g_.shape[entry]);
        m_.tensors[entry_tensor_[entry]].dtype = dtype->dtype;
        return true;
      }
      entry_tensor_[entry] = m_.add_activation(name, dtype->dtype, g_.shape[entry]);
      args.push_back(ArgDef::output(n.flatten_data ? flattened(entry_tensor_[entry]) : entry_tensor_[entry]));
    }
    if (args.size() > 32) return fail(node_label(id) + ": " + std::to_string(args.size()) + " arguments (at most 32)");
    for (const ArgDef& a : args) {
      const TensorDef& t = m_.tensors[static_cast<size_t>(a.value)];
      signature.args.emplace_back(t.dtype, t.shape);
    }
    const auto known = signatures_.find(n.func_name);
    if (known == signatures_.end()) {
      signatures_.emplace(n.func_name, signature);
    } else if (known->second.args != signature.args || known->second.num_inputs != signature.num_inputs) {
      return fail(node_label(id) + " calls " + n.func_name + " with other arguments than " + known->second.first_caller +
                  " does: one generated function is compiled for one signature");
    }
    m_.add_node(n.func_name, std::move(args), n.name);
    return true;
  }

  bool add_outputs() {
    std::set<uint32_t> seen;
    for (const EntryRef& h : g_.heads) {
      const uint32_t tensor = entry_tensor_[g_.entry_id(h)];
      const std::string label = node_label(h.node);
      if (!g_.nodes[h.node].is_op()) return fail("graph output " + label + " is a param or an input, not computed by any node");
      if (!seen.insert(tensor).second) return fail("graph output " + label + " is listed twice in heads");
      m_.outputs.push_back(tensor);
    }
    return true;
  }

  const Graph& g_;
  std::vector<Param> params_;
  ModelDef& m_;
  std::string& error_;
  std::vector<uint32_t> entry_tensor_;
  std::vector<bool> param_nodes_;
  std::map<std::string, Signature> signatures_;
};

uint32_t read_u32(const uint8_t* p) { return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24; }

// Storage TVM's graph executor allocates: per storage id, its largest entry.
void tvm_storage(const Graph& g, const std::vector<bool>& param_nodes, ImportReport* report) {
  if (g.storage_id.empty()) return;
  std::map<int64_t, std::pair<uint64_t, bool>> slots;  // storage id -> (bytes, holds a param)
  for (uint32_t id = 0; id < g.nodes.size(); ++id) {
    for (uint32_t o = 0; o < g.nodes[id].num_outputs; ++o) {
      const uint32_t e = g.node_row_ptr[id] + o;
      const DTypeName* d = dtype_by_name(g.dltype[e]);
      auto& slot = slots[g.storage_id[e]];
      slot.first = std::max(slot.first, elements_of(g.shape[e]) * (d != nullptr ? dtype_bytes(d->dtype) : 0));
      slot.second = slot.second || param_nodes[id];
    }
  }
  for (const auto& [id, slot] : slots) (slot.second ? report->tvm_param_bytes : report->tvm_storage_bytes) += slot.first;
}

}  // namespace

Format detect_format(const uint8_t* data, size_t size) {
  size_t first = 0;
  while (first < size && (data[first] == ' ' || data[first] == '\n' || data[first] == '\r' || data[first] == '\t')) ++first;
  if (first < size && data[first] == '{') return Format::kGraphJson;
  // ustar's magic at offset 257 of the first header.
  if (size >= 512 && std::memcmp(data + 257, "ustar", 5) == 0) return Format::kModelLibraryFormat;
  if (size >= 9) {
    const uint64_t json = read_u32(data), params = read_u32(data + 4);
    if (json + params + 8 == size && data[8] == '{') return Format::kGraphData;
  }
  return Format::kUnknown;
}

const char* format_name(Format format) {
  switch (format) {
    case Format::kGraphJson: return "TVM graph JSON";
    case Format::kGraphData: return "Kenning .graph_data";
    case Format::kModelLibraryFormat: return "Model Library Format";
    case Format::kUnknown: break;
  }
  return "unknown";
}

bool read_artifacts(const uint8_t* data, size_t size, const std::vector<uint8_t>& params, Artifacts* out, std::string* error) {
  const Format format = detect_format(data, size);
  switch (format) {
    case Format::kGraphJson:
      out->graph_json.assign(reinterpret_cast<const char*>(data), size);
      out->params = params;
      return true;
    case Format::kGraphData: {
      const uint32_t json = read_u32(data);
      out->graph_json.assign(reinterpret_cast<const char*>(data + 8), json);
      out->params.assign(data + 8 + json, data + size);
      return true;
    }
    case Format::kModelLibraryFormat: return read_model_library_format(data, size, out, error);
    case Format::kUnknown: break;
  }
  *error = "not TVM graph JSON, a .graph_data container or a Model Library Format tar";
  return false;
}

bool import_graph(const Artifacts& artifacts, const ImportOptions& options, ModelDef* out, ImportReport* report, std::string* error) {
  Graph graph;
  if (!parse_graph(artifacts.graph_json, &graph, error)) return false;
  std::vector<Param> params;
  if (!artifacts.params.empty() && !read_params(artifacts.params.data(), artifacts.params.size(), &params, error)) return false;
  ModelDef model;
  model.version_major = 1;
  Builder builder(graph, std::move(params), &model, error);
  if (!builder.build()) return false;
  ImportReport r;
  r.functions = builder.functions();
  tvm_storage(graph, builder.param_nodes(), &r);
  if (!artifacts.metadata_json.empty() && workspaces_from_metadata(artifacts, &model, error)) {
    r.workspace_source = "metadata.json";
  } else if (options.kernels) {
    error->clear();
    if (!measure_workspaces(&model, kernel_entries(model, options.kernels), options.max_workspace_bytes, options.max_probe_bytes, error)) return false;
    r.workspace_source = "measured";
  } else {
    if (error->empty()) *error = "no metadata.json gives the generated functions' workspace sizes: give the operators (--kernels LIB) to measure them";
    return false;
  }
  *out = std::move(model);
  if (report != nullptr) *report = std::move(r);
  return true;
}

namespace {
constexpr const char* kProducerMark = " from TVM ";
}  // namespace

std::string producer_for(Format format, const std::string& tool) { return tool + kProducerMark + format_name(format); }

bool imported_from_tvm(const ModelDef& model) { return model.producer.find(kProducerMark) != std::string::npos; }

std::vector<grt_kernel_entry> kernel_entries(const ModelDef& model, const KernelLookup& lookup) {
  std::vector<grt_kernel_entry> entries;
  for (uint32_t k = 0; k < model.kernels.size(); ++k) {
    const TVMBackendPackedCFunc function = lookup(model.kernels[k]);
    if (function == nullptr) continue;
    uint32_t writes = 0;
    for (const NodeDef& n : model.nodes) {
      if (n.kernel != k) continue;
      for (size_t a = 0; a < n.args.size() && a < 32; ++a) {
        if (n.args[a].kind == ArgKind::Output) writes |= GRT_WRITES_ARG(a);
      }
    }
    entries.push_back({model.kernels[k].c_str(), function, nullptr, writes, 0});  // generated code: never in place
  }
  return entries;
}

}  // namespace grt::tools::tvm
