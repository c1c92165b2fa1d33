#include "model_check.h"

#include <string.h>

#include "error_text.h"

namespace grt {
namespace {

constexpr uint32_t kUnset = UINT32_MAX;
constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 40;  // far beyond any device, no overflow
constexpr uint32_t kMaxPoolAlignment = 4096;
constexpr char kEnvelopeMagic[4] = {'G', 'R', 'T', 'E'};

bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// A non-empty vector of 64-bit elements off an 8-byte boundary (empty ones hold no loads).
template <typename T>
bool misaligned_64(const flatbuffers::Vector<T>* v) {
  return v != nullptr && v->size() != 0 && reinterpret_cast<uintptr_t>(v->data()) % 8 != 0;
}

const char* str(const flatbuffers::String* s) { return s == nullptr ? "" : s->c_str(); }
size_t len(const flatbuffers::String* s) { return s == nullptr ? 0 : s->size(); }

// "tensor 7 'conv1/out'"
ErrorText& name_tensor(ErrorText& e, const fb::Model* model, uint32_t index) {
  e.text("tensor ").number(index);
  const auto* t = model->tensors()->Get(index);
  if (t->name() != nullptr && t->name()->size() != 0) e.text(" ").quoted(t->name()->c_str(), t->name()->size());
  return e;
}

// "node 12 (conv2d_s8)"
ErrorText& name_node(ErrorText& e, const fb::Model* model, uint32_t index) {
  e.text("node ").number(index);
  const auto* node = model->nodes()->Get(index);
  const auto* kernels = model->kernels();
  if (kernels != nullptr && node->kernel() < kernels->size()) {
    const auto* k = kernels->Get(node->kernel());
    e.text(" (").text(str(k)).text(")");
  }
  return e;
}

ErrorText& name_pool(ErrorText& e, const fb::Model* model, uint32_t index) {
  const auto* p = model->pools()->Get(index);
  return e.text("pool ").quoted(str(p->name()), len(p->name()));
}

template <typename T>
uint32_t count_of(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

bool ranges_overlap(uint64_t a_begin, uint64_t a_size, uint64_t b_begin, uint64_t b_size) {
  return a_size != 0 && b_size != 0 && a_begin < b_begin + b_size && b_begin < a_begin + a_size;
}

bool lifetimes_overlap(const Lifetime& a, const Lifetime& b) { return a.first <= b.last && b.first <= a.last; }

grt_status check_version_only(const uint8_t* bytes, size_t size, grt_error* error) {
  // A newer major version may not verify against this schema: read just the version so
  // the user is told the real reason.
  flatbuffers::Verifier verifier(bytes, size);
  if (verifier.VerifyOffset(0) == 0) return GRT_OK;
  const auto* model = flatbuffers::GetRoot<fb::Model>(bytes);
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(model);
  if (!table->VerifyTableStart(verifier) ||
      !table->VerifyField<uint16_t>(verifier, fb::Model::VT_VERSION_MAJOR, 2) ||
      !table->VerifyField<uint16_t>(verifier, fb::Model::VT_VERSION_MINOR, 2)) {
    return GRT_OK;
  }
  if (model->version_major() != GRT_SCHEMA_VERSION_MAJOR) {
    return ErrorText(error)
        .text("blob schema version ")
        .number(model->version_major())
        .text(".")
        .number(model->version_minor())
        .text(" is not supported: this runtime reads version ")
        .number(GRT_SCHEMA_VERSION_MAJOR)
        .text(".x")
        .status(GRT_ERR_BLOB_VERSION);
  }
  return GRT_OK;
}

grt_status check_tensor(const fb::Model* model, uint32_t index, ModelCounts* counts, grt_error* error) {
  const auto* t = model->tensors()->Get(index);
  if (static_cast<uint32_t>(t->dtype()) > static_cast<uint32_t>(fb::DType::MAX)) {
    ErrorText e(error);
    return name_tensor(e, model, index).text(" has unknown dtype ").number(static_cast<uint32_t>(t->dtype())).status(GRT_ERR_SHAPE);
  }
  // FlatBuffers' verifier checks 4-byte alignment only; 64-bit vectors are read in place
  // (DLTensor.shape points into the blob), and an unaligned 64-bit load faults on some cores.
  if (misaligned_64(t->shape()) || (t->quantization() != nullptr && misaligned_64(t->quantization()->zero_point()))) {
    ErrorText e(error);
    return name_tensor(e, model, index).text(" has a 64-bit vector off an 8-byte boundary").status(GRT_ERR_BLOB_MALFORMED);
  }
  uint64_t elements = 1;
  if (t->shape() != nullptr) {
    if (t->shape()->size() > 8) {
      ErrorText e(error);
      return name_tensor(e, model, index).text(" has ").number(t->shape()->size()).text(" dimensions, at most 8 are supported").status(GRT_ERR_SHAPE);
    }
    for (const int64_t dim : *t->shape()) {
      if (dim < 0 || static_cast<uint64_t>(dim) > kMaxTensorBytes ||
          (dim != 0 && elements > kMaxTensorBytes / static_cast<uint64_t>(dim))) {
        ErrorText e(error);
        return name_tensor(e, model, index).text(" has an invalid or oversized dimension ").signed_number(dim).status(GRT_ERR_SHAPE);
      }
      elements *= static_cast<uint64_t>(dim);
    }
  }
  const uint64_t bytes = elements * dtype_size(t->dtype());
  if (bytes > kMaxTensorBytes || bytes > SIZE_MAX) {
    ErrorText e(error);
    return name_tensor(e, model, index).text(" needs ").number(bytes).text(" bytes, more than this machine can address").status(GRT_ERR_SHAPE);
  }
  switch (t->kind()) {
    case fb::TensorKind::Constant: {
      const uint32_t buffers = count_of(model->buffers());
      if (t->buffer() >= buffers) {
        ErrorText e(error);
        return name_tensor(e, model, index).text(" uses buffer ").number(t->buffer()).text(", but the blob has ").number(buffers).status(GRT_ERR_INDEX_RANGE);
      }
      const auto* data = model->buffers()->Get(t->buffer())->data();
      const uint64_t have = data == nullptr ? 0 : data->size();
      if (have != bytes) {
        ErrorText e(error);
        return name_tensor(e, model, index).text(" needs ").number(bytes).text(" bytes, its buffer ").number(t->buffer()).text(" holds ").number(have).status(GRT_ERR_BUFFER_BOUNDS);
      }
      // Empty constants have no bytes to align (FlatBuffers may place them anywhere).
      if (have != 0 && (reinterpret_cast<uintptr_t>(data->data()) % 16) != 0) {
        ErrorText e(error);
        return name_tensor(e, model, index).text(" has constant bytes off a 16-byte boundary (buffer ").number(t->buffer()).text(")").status(GRT_ERR_CONSTANT_ALIGNMENT);
      }
      return GRT_OK;
    }
    case fb::TensorKind::Activation: {
      const uint32_t pools = count_of(model->pools());
      if (t->pool() >= pools) {
        ErrorText e(error);
        return name_tensor(e, model, index).text(" is planned in pool ").number(t->pool()).text(", but the blob has ").number(pools).status(GRT_ERR_INDEX_RANGE);
      }
      const uint64_t pool_size = model->pools()->Get(t->pool())->size();
      if (t->offset() > pool_size || bytes > pool_size - t->offset()) {
        ErrorText e(error);
        name_tensor(e, model, index).text(" at offset ").number(t->offset()).text(" + ").number(bytes).text(" bytes ends past ");
        return name_pool(e, model, t->pool()).text(" of ").number(pool_size).text(" bytes").status(GRT_ERR_POOL_BOUNDS);
      }
      if (t->offset() % dtype_size(t->dtype()) != 0) {
        ErrorText e(error);
        return name_tensor(e, model, index).text(" offset ").number(t->offset()).text(" is not aligned to its element size").status(GRT_ERR_POOL_BOUNDS);
      }
      counts->activations++;
      counts->stack_bytes += GRT_STACK_ALLOCATION_BYTES(bytes, 16u);
      return GRT_OK;
    }
    case fb::TensorKind::Alias: {
      const uint32_t tensors = count_of(model->tensors());
      if (t->alias_of() >= tensors || t->alias_of() == index) {
        ErrorText e(error);
        return name_tensor(e, model, index).text(" aliases tensor ").number(t->alias_of()).text(", which is not another tensor of the blob").status(GRT_ERR_ALIAS);
      }
      // Follow the chain with a step bound: a chain longer than the tensor count is a cycle.
      uint32_t cursor = index;
      uint64_t offset = 0;
      for (uint32_t steps = 0; model->tensors()->Get(cursor)->kind() == fb::TensorKind::Alias; ++steps) {
        if (steps > tensors) {
          ErrorText e(error);
          return name_tensor(e, model, index).text(" is part of an alias cycle").status(GRT_ERR_ALIAS);
        }
        const auto* link = model->tensors()->Get(cursor);
        if (link->alias_of() >= tensors) break;  // reported when that tensor is checked
        offset += link->offset();
        if (offset > kMaxTensorBytes) break;
        cursor = link->alias_of();
      }
      counts->aliases++;
      return GRT_OK;
    }
  }
  ErrorText e(error);
  return name_tensor(e, model, index).text(" has unknown kind ").number(static_cast<uint32_t>(t->kind())).status(GRT_ERR_GRAPH);
}

// Alias sizes need every tensor's own checks done first (the target's shape).
grt_status check_alias_fits(const fb::Model* model, uint32_t index, grt_error* error) {
  const auto* t = model->tensors()->Get(index);
  uint64_t offset = 0;
  const uint32_t root = alias_root(model, index, &offset);
  if (root == kUnset) {
    ErrorText e(error);
    return name_tensor(e, model, index).text(" aliases a tensor index out of range").status(GRT_ERR_ALIAS);
  }
  const uint64_t root_bytes = tensor_bytes(model->tensors()->Get(root));
  const uint64_t bytes = tensor_bytes(t);
  if (offset > root_bytes || bytes > root_bytes - offset) {
    ErrorText e(error);
    name_tensor(e, model, index).text(" needs ").number(bytes).text(" bytes at offset ").number(offset).text(" of ");
    return name_tensor(e, model, root).text(", which has ").number(root_bytes).status(GRT_ERR_ALIAS);
  }
  if (offset % dtype_size(t->dtype()) != 0) {
    ErrorText e(error);
    return name_tensor(e, model, index).text(" alias offset ").number(offset).text(" is not aligned to its element size").status(GRT_ERR_ALIAS);
  }
  return GRT_OK;
}

grt_status check_node(const fb::Model* model, uint32_t index, ModelCounts* counts, grt_error* error) {
  const auto* node = model->nodes()->Get(index);
  const uint32_t kernels = count_of(model->kernels());
  if (node->kernel() >= kernels) {
    ErrorText e(error);
    return e.text("node ").number(index).text(" uses kernel ").number(node->kernel()).text(", but the blob names ").number(kernels).status(GRT_ERR_INDEX_RANGE);
  }
  const uint32_t tensors = count_of(model->tensors());
  const uint32_t nargs = count_of(node->args());
  if (misaligned_64(node->args())) {
    ErrorText e(error);
    return e.text("node ").number(index).text(" has its arguments off an 8-byte boundary").status(GRT_ERR_BLOB_MALFORMED);
  }
  if (nargs > 255) {
    ErrorText e(error);
    return name_node(e, model, index).text(" has ").number(nargs).text(" arguments, at most 255 are supported").status(GRT_ERR_GRAPH);
  }
  for (uint32_t a = 0; a < nargs; ++a) {
    const auto* arg = node->args()->Get(a);
    switch (arg->kind()) {
      case fb::ArgKind::Input:
      case fb::ArgKind::Output:
      case fb::ArgKind::IntArray: {
        if (arg->value() < 0 || static_cast<uint64_t>(arg->value()) >= tensors) {
          ErrorText e(error);
          return name_node(e, model, index).text(" argument ").number(a).text(" names tensor ").signed_number(arg->value()).text(", but the blob has ").number(tensors).status(GRT_ERR_INDEX_RANGE);
        }
        const uint32_t t = static_cast<uint32_t>(arg->value());
        uint64_t offset = 0;
        const auto kind = model->tensors()->Get(alias_root(model, t, &offset))->kind();
        if (arg->kind() == fb::ArgKind::Output && kind == fb::TensorKind::Constant) {
          ErrorText e(error);
          name_node(e, model, index).text(" writes constant ");
          return name_tensor(e, model, t).status(GRT_ERR_GRAPH);
        }
        if (arg->kind() == fb::ArgKind::IntArray) {
          const auto* tensor = model->tensors()->Get(t);
          if (tensor->kind() != fb::TensorKind::Constant || tensor->dtype() != fb::DType::Int32 ||
              tensor->shape() == nullptr || tensor->shape()->size() != 1) {
            ErrorText e(error);
            name_node(e, model, index).text(" argument ").number(a).text(" wants a constant 1-D int32 array, ");
            return name_tensor(e, model, t).text(" is not one").status(GRT_ERR_GRAPH);
          }
        }
        break;
      }
      case fb::ArgKind::Int:
      case fb::ArgKind::Float:
      case fb::ArgKind::None:
        break;
      default: {
        ErrorText e(error);
        return name_node(e, model, index).text(" argument ").number(a).text(" has unknown kind ").number(static_cast<uint32_t>(arg->kind())).status(GRT_ERR_GRAPH);
      }
    }
  }
  counts->args += nargs;
  const uint64_t workspace = node->workspace_bytes();
  if (workspace != 0) {
    const uint32_t pools = count_of(model->pools());
    if (node->workspace_pool() >= pools) {
      ErrorText e(error);
      return name_node(e, model, index).text(" workspace is in pool ").number(node->workspace_pool()).text(", but the blob has ").number(pools).status(GRT_ERR_INDEX_RANGE);
    }
    const uint64_t pool_size = model->pools()->Get(node->workspace_pool())->size();
    if (workspace > kMaxTensorBytes || node->workspace_offset() > pool_size || workspace > pool_size - node->workspace_offset() ||
        node->workspace_offset() % 16 != 0) {
      ErrorText e(error);
      name_node(e, model, index).text(" workspace of ").number(workspace).text(" bytes at offset ").number(node->workspace_offset()).text(" does not fit 16-byte aligned in ");
      return name_pool(e, model, node->workspace_pool()).text(" of ").number(pool_size).text(" bytes").status(GRT_ERR_POOL_BOUNDS);
    }
    if (workspace > counts->max_workspace) counts->max_workspace = workspace;
  }
  return GRT_OK;
}

grt_status check_io_list(const fb::Model* model, const flatbuffers::Vector<uint32_t>* list, const char* what, grt_error* error) {
  const uint32_t tensors = count_of(model->tensors());
  for (uint32_t i = 0; i < count_of(list); ++i) {
    const uint32_t t = list->Get(i);
    if (t >= tensors) {
      return ErrorText(error).text(what).text(" ").number(i).text(" names tensor ").number(t).text(", but the blob has ").number(tensors).status(GRT_ERR_INDEX_RANGE);
    }
    if (model->tensors()->Get(t)->kind() != fb::TensorKind::Activation) {
      ErrorText e(error);
      e.text(what).text(" ").number(i).text(" is ");
      return name_tensor(e, model, t).text(", which is not a planned activation").status(GRT_ERR_GRAPH);
    }
  }
  return GRT_OK;
}

}  // namespace

size_t dtype_size(fb::DType dtype) {
  switch (dtype) {
    case fb::DType::Int16:
      return 2;
    case fb::DType::Int32:
    case fb::DType::Float32:
      return 4;
    case fb::DType::Int64:
      return 8;
    default:
      return 1;
  }
}

DLDataType dtype_to_dl(fb::DType dtype) {
  DLDataType t;
  t.lanes = 1;
  switch (dtype) {
    case fb::DType::Int8: t.code = kDLInt; t.bits = 8; break;
    case fb::DType::UInt8: t.code = kDLUInt; t.bits = 8; break;
    case fb::DType::Int16: t.code = kDLInt; t.bits = 16; break;
    case fb::DType::Int32: t.code = kDLInt; t.bits = 32; break;
    case fb::DType::Int64: t.code = kDLInt; t.bits = 64; break;
    case fb::DType::Float32: t.code = kDLFloat; t.bits = 32; break;
    case fb::DType::Bool: t.code = kDLUInt; t.bits = 1; break;  // one byte per element, as TVM
    default: t.code = kDLInt; t.bits = 8; break;
  }
  return t;
}

uint64_t tensor_bytes(const fb::Tensor* tensor) {
  uint64_t elements = 1;
  if (tensor->shape() != nullptr) {
    for (const int64_t dim : *tensor->shape()) elements *= static_cast<uint64_t>(dim);
  }
  return elements * dtype_size(tensor->dtype());
}

uint32_t alias_root(const fb::Model* model, uint32_t tensor, uint64_t* offset) {
  const uint32_t count = model->tensors()->size();
  *offset = 0;
  for (uint32_t steps = 0; steps <= count; ++steps) {
    const auto* t = model->tensors()->Get(tensor);
    if (t->kind() != fb::TensorKind::Alias) return tensor;
    *offset += t->offset();
    tensor = t->alias_of();
    if (tensor >= count) return kUnset;
  }
  return kUnset;
}

grt_status open_model(const void* blob, size_t blob_size, const fb::Model** model, grt_error* error) {
  clear_error(error);
  if (blob == nullptr) return ErrorText(error).text("blob is NULL").status(GRT_ERR_ARGUMENT);
  const auto* bytes = static_cast<const uint8_t*>(blob);
  if (blob_size < 8) {
    return ErrorText(error).text("blob has ").number(blob_size).text(" bytes, fewer than any model can have").status(GRT_ERR_BLOB_TOO_SMALL);
  }
  if (reinterpret_cast<uintptr_t>(blob) % GRT_BLOB_ALIGNMENT != 0) {
    return ErrorText(error).text("blob must start on a 16-byte boundary (address mod 16 is ").number(reinterpret_cast<uintptr_t>(blob) % GRT_BLOB_ALIGNMENT).text(")").status(GRT_ERR_BLOB_ALIGNMENT);
  }
  if (blob_size >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    return ErrorText(error).text("blob of ").number(blob_size).text(" bytes is larger than a model can be").status(GRT_ERR_BLOB_MALFORMED);
  }
  if (memcmp(bytes, kEnvelopeMagic, 4) == 0) {
    return ErrorText(error).text("blob is a signed envelope; open it with the integrity API").status(GRT_ERR_INTEGRITY);
  }
  if (!fb::ModelBufferHasIdentifier(bytes)) {
    ErrorText e(error);
    e.text("not a graphrt model: file identifier is ");
    char id[4];
    for (int i = 0; i < 4; ++i) id[i] = (bytes[4 + i] >= 0x20 && bytes[4 + i] < 0x7f) ? static_cast<char>(bytes[4 + i]) : '?';
    return e.quoted(id, 4).text(", expected ").quoted(fb::ModelIdentifier()).status(GRT_ERR_BLOB_IDENTIFIER);
  }
  const grt_status version = check_version_only(bytes, blob_size, error);
  if (version != GRT_OK) return version;
  flatbuffers::Verifier verifier(bytes, blob_size);
  if (!fb::VerifyModelBuffer(verifier)) {
    return ErrorText(error).text("blob of ").number(blob_size).text(" bytes is malformed: FlatBuffers' verifier refused it").status(GRT_ERR_BLOB_MALFORMED);
  }
  *model = fb::GetModel(bytes);
  return GRT_OK;
}

grt_status check_model_local(const fb::Model* model, ModelCounts* counts, grt_error* error) {
  clear_error(error);
  *counts = ModelCounts{};
  const uint32_t pools = count_of(model->pools());
  if (pools > GRT_MAX_POOLS) {
    return ErrorText(error).text("blob plans ").number(pools).text(" pools, at most ").number(GRT_MAX_POOLS).text(" are supported").status(GRT_ERR_GRAPH);
  }
  for (uint32_t p = 0; p < pools; ++p) {
    const auto* pool = model->pools()->Get(p);
    if (!is_power_of_two(pool->alignment()) || pool->alignment() > kMaxPoolAlignment) {
      ErrorText e(error);
      return name_pool(e, model, p).text(" alignment ").number(pool->alignment()).text(" is not a power of two up to 4096").status(GRT_ERR_GRAPH);
    }
    if (pool->size() > SIZE_MAX || pool->size() > kMaxTensorBytes) {
      ErrorText e(error);
      return name_pool(e, model, p).text(" of ").number(pool->size()).text(" bytes is more than this machine can address").status(GRT_ERR_POOL_BOUNDS);
    }
  }
  counts->tensors = count_of(model->tensors());
  counts->nodes = count_of(model->nodes());
  for (uint32_t t = 0; t < counts->tensors; ++t) {
    const grt_status s = check_tensor(model, t, counts, error);
    if (s != GRT_OK) return s;
  }
  for (uint32_t t = 0; t < counts->tensors; ++t) {
    if (model->tensors()->Get(t)->kind() != fb::TensorKind::Alias) continue;
    const grt_status s = check_alias_fits(model, t, error);
    if (s != GRT_OK) return s;
  }
  for (uint32_t n = 0; n < counts->nodes; ++n) {
    const grt_status s = check_node(model, n, counts, error);
    if (s != GRT_OK) return s;
  }
  grt_status s = check_io_list(model, model->inputs(), "input", error);
  if (s != GRT_OK) return s;
  s = check_io_list(model, model->outputs(), "output", error);
  if (s != GRT_OK) return s;
  return GRT_OK;
}

grt_status check_model_graph(const fb::Model* model, Lifetime* lifetimes, grt_error* error) {
  clear_error(error);
  const uint32_t tensors = count_of(model->tensors());
  const uint32_t nodes = count_of(model->nodes());
  const uint32_t end = nodes == 0 ? 0 : nodes - 1;
  for (uint32_t t = 0; t < tensors; ++t) lifetimes[t] = Lifetime{kUnset, kUnset};
  for (uint32_t i = 0; i < count_of(model->inputs()); ++i) {
    const uint32_t t = model->inputs()->Get(i);
    lifetimes[t] = Lifetime{0, 0};
  }
  for (uint32_t n = 0; n < nodes; ++n) {
    const auto* args = model->nodes()->Get(n)->args();
    for (uint32_t a = 0; a < count_of(args); ++a) {
      const auto* arg = args->Get(a);
      if (arg->kind() != fb::ArgKind::Input) continue;
      uint64_t offset = 0;
      const uint32_t root = alias_root(model, static_cast<uint32_t>(arg->value()), &offset);
      if (model->tensors()->Get(root)->kind() == fb::TensorKind::Constant) continue;
      if (lifetimes[root].first == kUnset) {
        ErrorText e(error);
        name_node(e, model, n).text(" reads ");
        return name_tensor(e, model, static_cast<uint32_t>(arg->value())).text(" before any node writes it").status(GRT_ERR_GRAPH_ORDER);
      }
      lifetimes[root].last = n;
    }
    for (uint32_t a = 0; a < count_of(args); ++a) {
      const auto* arg = args->Get(a);
      if (arg->kind() != fb::ArgKind::Output) continue;
      uint64_t offset = 0;
      const uint32_t root = alias_root(model, static_cast<uint32_t>(arg->value()), &offset);
      if (lifetimes[root].first == kUnset) lifetimes[root].first = n;
      if (lifetimes[root].last == kUnset || lifetimes[root].last < n) lifetimes[root].last = n;
    }
  }
  for (uint32_t i = 0; i < count_of(model->outputs()); ++i) {
    const uint32_t t = model->outputs()->Get(i);
    if (lifetimes[t].first == kUnset) {
      ErrorText e(error);
      e.text("output ").number(i).text(" is ");
      return name_tensor(e, model, t).text(", which no node writes").status(GRT_ERR_GRAPH_ORDER);
    }
    lifetimes[t].last = end;
  }
  // Aliases carry their root's range, so callers can look up any tensor.
  for (uint32_t t = 0; t < tensors; ++t) {
    if (model->tensors()->Get(t)->kind() != fb::TensorKind::Alias) continue;
    uint64_t offset = 0;
    lifetimes[t] = lifetimes[alias_root(model, t, &offset)];
  }
  // The plan: no two activations that are live together share a byte of a pool, and no
  // workspace shares bytes with an activation live at its node.
  for (uint32_t i = 0; i < tensors; ++i) {
    const auto* a = model->tensors()->Get(i);
    if (a->kind() != fb::TensorKind::Activation || lifetimes[i].first == kUnset) continue;
    const uint64_t a_bytes = tensor_bytes(a);
    for (uint32_t j = i + 1; j < tensors; ++j) {
      const auto* b = model->tensors()->Get(j);
      if (b->kind() != fb::TensorKind::Activation || lifetimes[j].first == kUnset || b->pool() != a->pool()) continue;
      if (!lifetimes_overlap(lifetimes[i], lifetimes[j])) continue;
      if (!ranges_overlap(a->offset(), a_bytes, b->offset(), tensor_bytes(b))) continue;
      ErrorText e(error);
      e.text("plan overlap: ");
      name_tensor(e, model, i).text(" and ");
      name_tensor(e, model, j).text(" share bytes of ");
      const uint32_t both = lifetimes[i].first > lifetimes[j].first ? lifetimes[i].first : lifetimes[j].first;
      return name_pool(e, model, a->pool()).text(" while both are live at node ").number(both).status(GRT_ERR_PLAN_OVERLAP);
    }
  }
  for (uint32_t n = 0; n < nodes; ++n) {
    const auto* node = model->nodes()->Get(n);
    if (node->workspace_bytes() == 0) continue;
    for (uint32_t t = 0; t < tensors; ++t) {
      const auto* a = model->tensors()->Get(t);
      if (a->kind() != fb::TensorKind::Activation || lifetimes[t].first == kUnset || a->pool() != node->workspace_pool()) continue;
      if (lifetimes[t].first > n || lifetimes[t].last < n) continue;
      if (!ranges_overlap(a->offset(), tensor_bytes(a), node->workspace_offset(), node->workspace_bytes())) continue;
      ErrorText e(error);
      e.text("plan overlap: ");
      name_node(e, model, n).text(" workspace shares bytes of ");
      name_pool(e, model, a->pool()).text(" with live ");
      return name_tensor(e, model, t).status(GRT_ERR_PLAN_OVERLAP);
    }
  }
  return GRT_OK;
}

}  // namespace grt
