#include "graphrt/tools/model_def.h"

#include <cstring>

namespace grt::tools {

size_t dtype_bytes(DType dtype) {
  switch (dtype) {
    case DType::Int16: return 2;
    case DType::Int32:
    case DType::Float32: return 4;
    case DType::Int64: return 8;
    default: return 1;
  }
}

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Int8: return "int8";
    case DType::UInt8: return "uint8";
    case DType::Int16: return "int16";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::Float32: return "float32";
    case DType::Bool: return "bool";
  }
  return "unknown";
}

uint64_t TensorDef::elements() const {
  uint64_t n = 1;
  for (const int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

ArgDef ArgDef::real(double v) {
  int64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(bits));
  return {ArgKind::Float, bits};
}

double ArgDef::as_real() const {
  double v = 0;
  std::memcpy(&v, &value, sizeof(v));
  return v;
}

uint32_t ModelDef::kernel_index(std::string_view kernel) {
  for (uint32_t i = 0; i < kernels.size(); ++i) {
    if (kernels[i] == kernel) return i;
  }
  kernels.emplace_back(kernel);
  return static_cast<uint32_t>(kernels.size() - 1);
}

uint32_t ModelDef::add_activation(std::string tensor_name, DType dtype, std::vector<int64_t> shape,
                                  std::optional<QuantDef> quantization) {
  TensorDef t;
  t.name = std::move(tensor_name);
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.quantization = std::move(quantization);
  t.kind = TensorKind::Activation;
  tensors.push_back(std::move(t));
  return static_cast<uint32_t>(tensors.size() - 1);
}

uint32_t ModelDef::add_state(std::string tensor_name, DType dtype, std::vector<int64_t> shape, std::vector<uint8_t> initial,
                             std::optional<QuantDef> quantization) {
  const uint32_t t = add_constant(std::move(tensor_name), dtype, std::move(shape), std::move(initial), std::move(quantization));
  tensors[t].kind = TensorKind::State;
  return t;
}

uint32_t ModelDef::add_constant(std::string tensor_name, DType dtype, std::vector<int64_t> shape,
                                std::vector<uint8_t> bytes, std::optional<QuantDef> quantization) {
  TensorDef t;
  t.name = std::move(tensor_name);
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.quantization = std::move(quantization);
  t.kind = TensorKind::Constant;
  t.buffer = static_cast<uint32_t>(buffers.size());
  buffers.push_back(std::move(bytes));
  tensors.push_back(std::move(t));
  return static_cast<uint32_t>(tensors.size() - 1);
}

uint32_t ModelDef::add_int_array(std::string tensor_name, const std::vector<int32_t>& values) {
  return add_constant_values(std::move(tensor_name), DType::Int32, {static_cast<int64_t>(values.size())}, values);
}

uint32_t ModelDef::add_alias(std::string tensor_name, uint32_t target, std::vector<int64_t> shape, uint64_t offset) {
  TensorDef t;
  t.name = std::move(tensor_name);
  t.dtype = tensors.at(target).dtype;
  t.quantization = tensors.at(target).quantization;
  t.shape = std::move(shape);
  t.kind = TensorKind::Alias;
  t.alias_of = target;
  t.offset = offset;
  tensors.push_back(std::move(t));
  return static_cast<uint32_t>(tensors.size() - 1);
}

uint32_t ModelDef::add_node(std::string_view kernel, std::vector<ArgDef> args, std::string node_name) {
  NodeDef n;
  n.kernel = kernel_index(kernel);
  n.args = std::move(args);
  n.name = std::move(node_name);
  nodes.push_back(std::move(n));
  return static_cast<uint32_t>(nodes.size() - 1);
}

uint32_t ModelDef::root_of(uint32_t tensor, uint64_t* offset) const {
  uint64_t total = 0;
  for (size_t steps = 0; steps <= tensors.size() && tensors.at(tensor).kind == TensorKind::Alias; ++steps) {
    total += tensors[tensor].offset;
    tensor = tensors[tensor].alias_of;
  }
  if (offset != nullptr) *offset = total;
  return tensor;
}

std::vector<uint8_t> serialize(const ModelDef& m, const SerializeOptions& options) {
  flatbuffers::FlatBufferBuilder fbb(1024 + [&] {
    size_t n = 0;
    for (const auto& b : m.buffers) n += b.size() + 32;
    return n;
  }());
  // Constant bytes first: the builder writes back to front, and big aligned vectors are
  // easiest to keep aligned when nothing is interleaved.
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers;
  buffers.reserve(m.buffers.size());
  for (const auto& b : m.buffers) {
    if (options.align_constants) fbb.ForceVectorAlignment(b.size(), sizeof(uint8_t), 16);
    const auto data = fbb.CreateVector(b);
    buffers.push_back(fb::CreateBuffer(fbb, data));
  }
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors;
  for (const auto& t : m.tensors) {
    flatbuffers::Offset<fb::Quantization> q = 0;
    if (t.quantization) {
      q = fb::CreateQuantization(fbb, fbb.CreateVector(t.quantization->scale), fbb.CreateVector(t.quantization->zero_point),
                                 t.quantization->axis);
    }
    tensors.push_back(fb::CreateTensor(fbb, fbb.CreateString(t.name), t.dtype, fbb.CreateVector(t.shape), q, t.kind, t.buffer,
                                       t.pool, t.offset, t.alias_of));
  }
  std::vector<flatbuffers::Offset<fb::Node>> nodes;
  for (const auto& n : m.nodes) {
    std::vector<fb::Arg> args;
    args.reserve(n.args.size());
    for (const auto& a : n.args) args.emplace_back(a.kind, a.value);
    nodes.push_back(fb::CreateNode(fbb, n.kernel, fbb.CreateVectorOfStructs(args), n.workspace_bytes, n.workspace_pool,
                                   n.workspace_offset, n.name.empty() ? 0 : fbb.CreateString(n.name)));
  }
  std::vector<flatbuffers::Offset<fb::Pool>> pools;
  for (const auto& p : m.pools) {
    pools.push_back(fb::CreatePool(fbb, fbb.CreateString(p.name), p.size, p.alignment,
                                   p.placement.empty() ? 0 : fbb.CreateString(p.placement)));
  }
  std::vector<flatbuffers::Offset<fb::Subgraph>> subgraphs;
  for (const auto& g : m.subgraphs) {
    subgraphs.push_back(fb::CreateSubgraph(fbb, fbb.CreateString(g.name), g.first_node, g.node_count, g.first_tensor,
                                           g.tensor_count, fbb.CreateVector(g.inputs), fbb.CreateVector(g.outputs)));
  }
  const auto model = fb::CreateModel(fbb, m.version_major, m.version_minor, fbb.CreateString(m.name), fbb.CreateString(m.producer),
                                     fbb.CreateVectorOfStrings(m.kernels), fbb.CreateVector(tensors), fbb.CreateVector(nodes),
                                     fbb.CreateVector(m.inputs), fbb.CreateVector(m.outputs), fbb.CreateVector(buffers),
                                     fbb.CreateVector(pools), subgraphs.empty() ? 0 : fbb.CreateVector(subgraphs));
  fb::FinishModelBuffer(fbb, model);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

bool verify_blob(const uint8_t* data, size_t size, std::string* error) {
  if (data == nullptr || size < 8) {
    *error = "file is too small to be a graphrt model (" + std::to_string(size) + " bytes)";
    return false;
  }
  if (!fb::ModelBufferHasIdentifier(data)) {
    *error = "not a graphrt model (file identifier is not 'GRT1')";
    return false;
  }
  flatbuffers::Verifier verifier(data, size);
  if (!fb::VerifyModelBuffer(verifier)) {
    *error = "malformed graphrt model: FlatBuffers' verifier refused it";
    return false;
  }
  return true;
}

bool parse(const uint8_t* data, size_t size, ModelDef* out, std::string* error) {
  if (!verify_blob(data, size, error)) return false;
  const fb::Model* model = fb::GetModel(data);
  ModelDef m;
  m.version_major = model->version_major();
  m.version_minor = model->version_minor();
  if (model->name()) m.name = model->name()->str();
  if (model->producer()) m.producer = model->producer()->str();
  if (model->kernels()) {
    for (const auto* k : *model->kernels()) m.kernels.push_back(k->str());
  }
  if (model->buffers()) {
    for (const auto* b : *model->buffers()) {
      m.buffers.emplace_back();
      if (b->data()) m.buffers.back().assign(b->data()->begin(), b->data()->end());
    }
  }
  if (model->tensors()) {
    for (const auto* t : *model->tensors()) {
      TensorDef d;
      if (t->name()) d.name = t->name()->str();
      d.dtype = t->dtype();
      if (t->shape()) d.shape.assign(t->shape()->begin(), t->shape()->end());
      if (t->quantization()) {
        QuantDef q;
        if (t->quantization()->scale()) q.scale.assign(t->quantization()->scale()->begin(), t->quantization()->scale()->end());
        if (t->quantization()->zero_point()) {
          q.zero_point.assign(t->quantization()->zero_point()->begin(), t->quantization()->zero_point()->end());
        }
        q.axis = t->quantization()->axis();
        d.quantization = std::move(q);
      }
      d.kind = t->kind();
      d.buffer = t->buffer();
      d.pool = t->pool();
      d.offset = t->offset();
      d.alias_of = t->alias_of();
      m.tensors.push_back(std::move(d));
    }
  }
  if (model->nodes()) {
    for (const auto* n : *model->nodes()) {
      NodeDef d;
      d.kernel = n->kernel();
      if (n->args()) {
        for (const auto* a : *n->args()) d.args.push_back({a->kind(), a->value()});
      }
      d.workspace_bytes = n->workspace_bytes();
      d.workspace_pool = n->workspace_pool();
      d.workspace_offset = n->workspace_offset();
      if (n->name()) d.name = n->name()->str();
      m.nodes.push_back(std::move(d));
    }
  }
  if (model->inputs()) m.inputs.assign(model->inputs()->begin(), model->inputs()->end());
  if (model->outputs()) m.outputs.assign(model->outputs()->begin(), model->outputs()->end());
  if (model->pools()) {
    for (const auto* p : *model->pools()) {
      PoolDef d;
      if (p->name()) d.name = p->name()->str();
      d.size = p->size();
      d.alignment = p->alignment();
      if (p->placement()) d.placement = p->placement()->str();
      m.pools.push_back(std::move(d));
    }
  }
  if (model->subgraphs()) {
    for (const auto* g : *model->subgraphs()) {
      SubgraphDef d;
      if (g->name()) d.name = g->name()->str();
      d.first_node = g->first_node();
      d.node_count = g->node_count();
      d.first_tensor = g->first_tensor();
      d.tensor_count = g->tensor_count();
      if (g->inputs()) d.inputs.assign(g->inputs()->begin(), g->inputs()->end());
      if (g->outputs()) d.outputs.assign(g->outputs()->begin(), g->outputs()->end());
      m.subgraphs.push_back(std::move(d));
    }
  }
  *out = std::move(m);
  return true;
}

uint32_t ModelDef::begin_subgraph(std::string subgraph_name) {
  end_subgraph();
  SubgraphDef g;
  g.name = std::move(subgraph_name);
  g.first_node = static_cast<uint32_t>(nodes.size());
  g.first_tensor = static_cast<uint32_t>(tensors.size());
  subgraphs.push_back(std::move(g));
  return static_cast<uint32_t>(subgraphs.size() - 1);
}

void ModelDef::end_subgraph() {
  if (subgraphs.empty()) return;
  SubgraphDef& g = subgraphs.back();
  g.node_count = static_cast<uint32_t>(nodes.size()) - g.first_node;
  g.tensor_count = static_cast<uint32_t>(tensors.size()) - g.first_tensor;
}

}  // namespace grt::tools
