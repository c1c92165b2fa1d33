#include "model_check.h"

#include <initializer_list>
#include <string.h>

#include "message.h"

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
    return fail(error, GRT_ERR_BLOB_VERSION, nullptr, "blob schema version %u.%u is not supported: this runtime reads version %u.x",
                model->version_major(), model->version_minor(), GRT_SCHEMA_VERSION_MAJOR);
  }
  return GRT_OK;
}

// Elements of a shape, or UINT64_MAX if it has a negative dimension or exceeds the limit.
uint64_t checked_elements(const flatbuffers::Vector<int64_t>* shape, int64_t* bad_dim) {
  uint64_t elements = 1;
  for (uint32_t i = 0; i < count_of(shape); ++i) {
    const int64_t dim = shape->Get(i);
    if (dim < 0 || static_cast<uint64_t>(dim) > kMaxTensorBytes ||
        (dim != 0 && elements > kMaxTensorBytes / static_cast<uint64_t>(dim))) {
      *bad_dim = dim;
      return UINT64_MAX;
    }
    elements *= static_cast<uint64_t>(dim);
  }
  return elements;
}

grt_status check_tensor(const fb::Model* model, uint32_t index, ModelCounts* counts, grt_error* error) {
  const auto* t = model->tensors()->Get(index);
  const auto dtype = t->dtype();
  const auto* shape = t->shape();
  if (static_cast<uint32_t>(dtype) > static_cast<uint32_t>(fb::DType::MAX)) {
    return fail(error, GRT_ERR_SHAPE, model, "%t has unknown dtype %u", index, dtype);
  }
  // FlatBuffers' verifier checks 4-byte alignment only; 64-bit vectors are read in place
  // (DLTensor.shape points into the blob), and an unaligned 64-bit load faults on some cores.
  const auto* quantization = t->quantization();
  if (misaligned_64(shape) || (quantization != nullptr && misaligned_64(quantization->zero_point()))) {
    return fail(error, GRT_ERR_BLOB_MALFORMED, model, "%t has a 64-bit vector off an 8-byte boundary", index);
  }
  if (count_of(shape) > 8) {
    return fail(error, GRT_ERR_SHAPE, model, "%t has %u dimensions, at most 8 are supported", index, count_of(shape));
  }
  int64_t bad_dim = 0;
  const uint64_t elements = checked_elements(shape, &bad_dim);
  if (elements == UINT64_MAX) {
    return fail(error, GRT_ERR_SHAPE, model, "%t has an invalid or oversized dimension %d", index, bad_dim);
  }
  const uint64_t element_bytes = dtype_size(dtype);
  const uint64_t bytes = elements * element_bytes;
  if (bytes > kMaxTensorBytes || bytes > SIZE_MAX) {
    return fail(error, GRT_ERR_SHAPE, model, "%t needs %u bytes, more than this machine can address", index, bytes);
  }
  const uint64_t offset = t->offset();
  switch (t->kind()) {
    case fb::TensorKind::Constant: {
      const uint32_t buffer = t->buffer();
      const uint32_t buffers = count_of(model->buffers());
      if (buffer >= buffers) {
        return fail(error, GRT_ERR_INDEX_RANGE, model, "%t uses buffer %u, but the blob has %u", index, buffer, buffers);
      }
      const auto* data = model->buffers()->Get(buffer)->data();
      const uint64_t have = count_of(data);
      if (have != bytes) {
        return fail(error, GRT_ERR_BUFFER_BOUNDS, model, "%t needs %u bytes, its buffer %u holds %u", index, bytes, buffer, have);
      }
      // Empty constants have no bytes to align (FlatBuffers may place them anywhere).
      if (have != 0 && (reinterpret_cast<uintptr_t>(data->data()) % 16) != 0) {
        return fail(error, GRT_ERR_CONSTANT_ALIGNMENT, model, "%t has constant bytes off a 16-byte boundary (buffer %u)", index, buffer);
      }
      return GRT_OK;
    }
    case fb::TensorKind::Activation: {
      const uint32_t pool = t->pool();
      const uint32_t pools = count_of(model->pools());
      if (pool >= pools) {
        return fail(error, GRT_ERR_INDEX_RANGE, model, "%t is planned in pool %u, but the blob has %u", index, pool, pools);
      }
      const uint64_t pool_size = model->pools()->Get(pool)->size();
      if (offset > pool_size || bytes > pool_size - offset) {
        return fail(error, GRT_ERR_POOL_BOUNDS, model, "%t at offset %u + %u bytes ends past %p of %u bytes",
                    index, offset, bytes, pool, pool_size);
      }
      if (offset % element_bytes != 0) {
        return fail(error, GRT_ERR_POOL_BOUNDS, model, "%t offset %u is not aligned to its element size", index, offset);
      }
      counts->activations++;
      counts->stack_bytes += GRT_STACK_ALLOCATION_BYTES(bytes, 16u);
      return GRT_OK;
    }
    case fb::TensorKind::Alias: {
      const uint32_t tensors = count_of(model->tensors());
      if (t->alias_of() >= tensors || t->alias_of() == index) {
        return fail(error, GRT_ERR_ALIAS, model, "%t aliases tensor %u, which is not another tensor of the blob", index, t->alias_of());
      }
      counts->aliases++;  // chains are followed once every link is known in range
      return GRT_OK;
    }
  }
  return fail(error, GRT_ERR_GRAPH, model, "%t has unknown kind %u", index, t->kind());
}

// Alias sizes need every tensor's own checks done first (the target's shape).
grt_status check_alias_fits(const fb::Model* model, uint32_t index, grt_error* error) {
  const auto* t = model->tensors()->Get(index);
  uint64_t offset = 0;
  const uint32_t root = alias_root(model, index, &offset);
  if (root == kUnset) return fail(error, GRT_ERR_ALIAS, model, "%t is part of an alias cycle", index);
  const uint64_t root_bytes = tensor_bytes(model->tensors()->Get(root));
  const uint64_t bytes = tensor_bytes(t);
  if (offset > root_bytes || bytes > root_bytes - offset) {
    return fail(error, GRT_ERR_ALIAS, model, "%t needs %u bytes at offset %u of %t, which has %u",
                index, bytes, offset, root, root_bytes);
  }
  if (offset % dtype_size(t->dtype()) != 0) {
    return fail(error, GRT_ERR_ALIAS, model, "%t alias offset %u is not aligned to its element size", index, offset);
  }
  return GRT_OK;
}

grt_status check_arg(const fb::Model* model, uint32_t index, uint32_t a, const fb::Arg* arg, grt_error* error) {
  const auto kind = arg->kind();
  if (kind == fb::ArgKind::Int || kind == fb::ArgKind::Float || kind == fb::ArgKind::None) return GRT_OK;
  if (kind != fb::ArgKind::Input && kind != fb::ArgKind::Output && kind != fb::ArgKind::IntArray) {
    return fail(error, GRT_ERR_GRAPH, model, "%n argument %u has unknown kind %u", index, a, kind);
  }
  const int64_t value = arg->value();
  const uint32_t tensors = count_of(model->tensors());
  if (value < 0 || static_cast<uint64_t>(value) >= tensors) {
    return fail(error, GRT_ERR_INDEX_RANGE, model, "%n argument %u names tensor %d, but the blob has %u", index, a, value, tensors);
  }
  const uint32_t t = static_cast<uint32_t>(value);
  uint64_t offset = 0;
  if (kind == fb::ArgKind::Output && model->tensors()->Get(alias_root(model, t, &offset))->kind() == fb::TensorKind::Constant) {
    return fail(error, GRT_ERR_GRAPH, model, "%n writes constant %t", index, t);
  }
  if (kind == fb::ArgKind::IntArray) {
    const auto* tensor = model->tensors()->Get(t);
    if (tensor->kind() != fb::TensorKind::Constant || tensor->dtype() != fb::DType::Int32 || count_of(tensor->shape()) != 1) {
      return fail(error, GRT_ERR_GRAPH, model, "%n argument %u wants a constant 1-D int32 array, %t is not one", index, a, t);
    }
  }
  return GRT_OK;
}

grt_status check_node(const fb::Model* model, uint32_t index, ModelCounts* counts, grt_error* error) {
  const auto* node = model->nodes()->Get(index);
  const uint32_t kernels = count_of(model->kernels());
  if (node->kernel() >= kernels) {
    return fail(error, GRT_ERR_INDEX_RANGE, nullptr, "node %u uses kernel %u, but the blob names %u", index, node->kernel(), kernels);
  }
  const auto* args = node->args();
  const uint32_t nargs = count_of(args);
  if (misaligned_64(args)) {
    return fail(error, GRT_ERR_BLOB_MALFORMED, nullptr, "node %u has its arguments off an 8-byte boundary", index);
  }
  if (nargs > 255) {
    return fail(error, GRT_ERR_GRAPH, model, "%n has %u arguments, at most 255 are supported", index, nargs);
  }
  uint32_t scratch = 0;  // tensor arguments the lean mode describes into scratch
  for (uint32_t a = 0; a < nargs; ++a) {
    const auto* arg = args->Get(a);
    const grt_status s = check_arg(model, index, a, arg, error);
    if (s != GRT_OK) return s;
    const auto kind = arg->kind();
    const bool tensor = kind == fb::ArgKind::Input || kind == fb::ArgKind::Output || kind == fb::ArgKind::IntArray;
    if (tensor && io_position(model, static_cast<uint32_t>(arg->value())) < 0) ++scratch;
  }
  counts->args += nargs;
  if (nargs > counts->max_args) counts->max_args = nargs;
  if (scratch > counts->max_scratch) counts->max_scratch = scratch;
  const uint64_t workspace = node->workspace_bytes();
  if (workspace != 0) {
    const uint32_t pool = node->workspace_pool();
    const uint64_t offset = node->workspace_offset();
    const uint32_t pools = count_of(model->pools());
    if (pool >= pools) {
      return fail(error, GRT_ERR_INDEX_RANGE, model, "%n workspace is in pool %u, but the blob has %u", index, pool, pools);
    }
    const uint64_t pool_size = model->pools()->Get(pool)->size();
    if (workspace > kMaxTensorBytes || offset > pool_size || workspace > pool_size - offset || offset % 16 != 0) {
      return fail(error, GRT_ERR_POOL_BOUNDS, model, "%n workspace of %u bytes at offset %u does not fit 16-byte aligned in %p of %u bytes",
                  index, workspace, offset, pool, pool_size);
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
      return fail(error, GRT_ERR_INDEX_RANGE, nullptr, "%s %u names tensor %u, but the blob has %u", what, i, t, tensors);
    }
    if (model->tensors()->Get(t)->kind() != fb::TensorKind::Activation) {
      return fail(error, GRT_ERR_GRAPH, model, "%s %u is %t, which is not a planned activation", what, i, t);
    }
  }
  return GRT_OK;
}

}  // namespace

namespace {

// Indexed by fb::DType (the loader refuses values past fb::DType::MAX). Bool is one byte
// per element, as in TVM.
constexpr uint8_t kDTypeBytes[] = {1, 1, 2, 4, 8, 4, 1};
constexpr DLDataType kDTypeDL[] = {
    {kDLInt, 8, 1}, {kDLUInt, 8, 1}, {kDLInt, 16, 1}, {kDLInt, 32, 1}, {kDLInt, 64, 1}, {kDLFloat, 32, 1}, {kDLUInt, 1, 1},
};
static_assert(sizeof kDTypeBytes == static_cast<size_t>(fb::DType::MAX) + 1, "one entry per DType");
static_assert(sizeof kDTypeDL / sizeof kDTypeDL[0] == static_cast<size_t>(fb::DType::MAX) + 1, "one entry per DType");

size_t dtype_index(fb::DType dtype) {
  const auto index = static_cast<size_t>(dtype);
  return index <= static_cast<size_t>(fb::DType::MAX) ? index : 0;
}

}  // namespace

size_t dtype_size(fb::DType dtype) { return kDTypeBytes[dtype_index(dtype)]; }

DLDataType dtype_to_dl(fb::DType dtype) { return kDTypeDL[dtype_index(dtype)]; }

uint64_t tensor_bytes(const fb::Tensor* tensor) {
  uint64_t elements = 1;
  if (tensor->shape() != nullptr) {
    for (const int64_t dim : *tensor->shape()) elements *= static_cast<uint64_t>(dim);
  }
  return elements * dtype_size(tensor->dtype());
}

int32_t io_position(const fb::Model* model, uint32_t t) {
  int32_t position = 0;
  for (const auto* list : {model->inputs(), model->outputs()}) {
    for (uint32_t i = 0; i < count_of(list); ++i, ++position) {
      if (list->Get(i) == t) return position;
    }
  }
  return -1;
}

uint32_t alias_root(const fb::Model* model, uint32_t tensor, uint64_t* offset) {
  const auto* tensors = model->tensors();
  const uint32_t count = tensors->size();
  *offset = 0;
  for (uint32_t steps = 0; steps <= count; ++steps) {
    const auto* t = tensors->Get(tensor);
    if (t->kind() != fb::TensorKind::Alias) return tensor;
    *offset += t->offset();
    tensor = t->alias_of();
    if (tensor >= count) return kUnset;
  }
  return kUnset;
}

grt_status open_model(const void* blob, size_t blob_size, const fb::Model** model, grt_error* error) {
  clear_error(error);
  if (blob == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "blob is NULL");
  const auto* bytes = static_cast<const uint8_t*>(blob);
  if (blob_size < 8) {
    return fail(error, GRT_ERR_BLOB_TOO_SMALL, nullptr, "blob has %u bytes, fewer than any model can have", blob_size);
  }
  const uintptr_t misalignment = reinterpret_cast<uintptr_t>(blob) % GRT_BLOB_ALIGNMENT;
  if (misalignment != 0) {
    return fail(error, GRT_ERR_BLOB_ALIGNMENT, nullptr, "blob must start on a 16-byte boundary (address mod 16 is %u)", misalignment);
  }
  if (blob_size >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    return fail(error, GRT_ERR_BLOB_MALFORMED, nullptr, "blob of %u bytes is larger than a model can be", blob_size);
  }
  if (memcmp(bytes, kEnvelopeMagic, 4) == 0) {
    return fail(error, GRT_ERR_INTEGRITY, nullptr, "blob is a signed envelope; open it with the integrity API");
  }
  if (!fb::ModelBufferHasIdentifier(bytes)) {
    char id[5] = {};
    for (int i = 0; i < 4; ++i) id[i] = (bytes[4 + i] >= 0x20 && bytes[4 + i] < 0x7f) ? static_cast<char>(bytes[4 + i]) : '?';
    return fail(error, GRT_ERR_BLOB_IDENTIFIER, nullptr, "not a graphrt model: file identifier is %q, expected %q",
                static_cast<const char*>(id), fb::ModelIdentifier());
  }
  const grt_status version = check_version_only(bytes, blob_size, error);
  if (version != GRT_OK) return version;
  flatbuffers::Verifier verifier(bytes, blob_size);
  if (!fb::VerifyModelBuffer(verifier)) {
    return fail(error, GRT_ERR_BLOB_MALFORMED, nullptr, "blob of %u bytes is malformed: FlatBuffers' verifier refused it", blob_size);
  }
  *model = fb::GetModel(bytes);
  return GRT_OK;
}

grt_status check_model_local(const fb::Model* model, ModelCounts* counts, grt_error* error) {
  clear_error(error);
  *counts = ModelCounts{};
  const uint32_t pools = count_of(model->pools());
  if (pools > GRT_MAX_POOLS) {
    return fail(error, GRT_ERR_GRAPH, nullptr, "blob plans %u pools, at most %u are supported", pools, GRT_MAX_POOLS);
  }
  for (uint32_t p = 0; p < pools; ++p) {
    const auto* pool = model->pools()->Get(p);
    const uint64_t alignment = pool->alignment();
    const uint64_t size = pool->size();
    if (!is_power_of_two(alignment) || alignment > kMaxPoolAlignment) {
      return fail(error, GRT_ERR_GRAPH, model, "%p alignment %u is not a power of two up to 4096", p, alignment);
    }
    if (size > SIZE_MAX || size > kMaxTensorBytes) {
      return fail(error, GRT_ERR_POOL_BOUNDS, model, "%p of %u bytes is more than this machine can address", p, size);
    }
  }
  counts->tensors = count_of(model->tensors());
  counts->nodes = count_of(model->nodes());
  counts->pools = pools;
  counts->io = count_of(model->inputs()) + count_of(model->outputs());
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
  const grt_status s = check_io_list(model, model->inputs(), "input", error);
  if (s != GRT_OK) return s;
  return check_io_list(model, model->outputs(), "output", error);
}

// Records when node `n` touches tensor `value` (an Input or Output argument) in its root's
// lifetime. Reading a tensor no node wrote before is an error; constants have no lifetime.
grt_status note_use(const fb::Model* model, Lifetime* lifetimes, uint32_t n, uint32_t value, bool writes, grt_error* error) {
  uint64_t offset = 0;
  const uint32_t root = alias_root(model, value, &offset);
  Lifetime& life = lifetimes[root];
  if (writes) {
    if (life.first == kUnset) life.first = n;
    if (life.last == kUnset || life.last < n) life.last = n;
    return GRT_OK;
  }
  if (model->tensors()->Get(root)->kind() == fb::TensorKind::Constant) return GRT_OK;
  if (life.first == kUnset) {
    return fail(error, GRT_ERR_GRAPH_ORDER, model, "%n reads %t before any node writes it", n, value);
  }
  life.last = n;
  return GRT_OK;
}

grt_status check_model_graph(const fb::Model* model, Lifetime* lifetimes, grt_error* error) {
  clear_error(error);
  const auto* tensors = model->tensors();
  const uint32_t tensor_count = count_of(tensors);
  const uint32_t nodes = count_of(model->nodes());
  const uint32_t end = nodes == 0 ? 0 : nodes - 1;
  for (uint32_t t = 0; t < tensor_count; ++t) lifetimes[t] = Lifetime{kUnset, kUnset};
  for (uint32_t i = 0; i < count_of(model->inputs()); ++i) lifetimes[model->inputs()->Get(i)] = Lifetime{0, 0};
  for (uint32_t n = 0; n < nodes; ++n) {
    const auto* args = model->nodes()->Get(n)->args();
    // Reads first: a node that reads and writes one tensor reads what an earlier node wrote.
    for (const fb::ArgKind pass : {fb::ArgKind::Input, fb::ArgKind::Output}) {
      for (uint32_t a = 0; a < count_of(args); ++a) {
        const auto* arg = args->Get(a);
        if (arg->kind() != pass) continue;
        const grt_status s = note_use(model, lifetimes, n, static_cast<uint32_t>(arg->value()), pass == fb::ArgKind::Output, error);
        if (s != GRT_OK) return s;
      }
    }
  }
  for (uint32_t i = 0; i < count_of(model->outputs()); ++i) {
    const uint32_t t = model->outputs()->Get(i);
    if (lifetimes[t].first == kUnset) {
      return fail(error, GRT_ERR_GRAPH_ORDER, model, "output %u is %t, which no node writes", i, t);
    }
    lifetimes[t].last = end;
  }
  // Aliases carry their root's range, so callers can look up any tensor.
  for (uint32_t t = 0; t < tensor_count; ++t) {
    if (tensors->Get(t)->kind() != fb::TensorKind::Alias) continue;
    uint64_t offset = 0;
    lifetimes[t] = lifetimes[alias_root(model, t, &offset)];
  }
  // The plan: no two activations that are live together share a byte of a pool, and no
  // workspace shares bytes with an activation live at its node.
  auto planned = [&](uint32_t t) {
    return tensors->Get(t)->kind() == fb::TensorKind::Activation && lifetimes[t].first != kUnset;
  };
  for (uint32_t i = 0; i < tensor_count; ++i) {
    if (!planned(i)) continue;
    const auto* a = tensors->Get(i);
    const uint64_t a_bytes = tensor_bytes(a);
    for (uint32_t j = i + 1; j < tensor_count; ++j) {
      const auto* b = tensors->Get(j);
      if (!planned(j) || b->pool() != a->pool() || !lifetimes_overlap(lifetimes[i], lifetimes[j])) continue;
      if (!ranges_overlap(a->offset(), a_bytes, b->offset(), tensor_bytes(b))) continue;
      const uint32_t both = lifetimes[i].first > lifetimes[j].first ? lifetimes[i].first : lifetimes[j].first;
      return fail(error, GRT_ERR_PLAN_OVERLAP, model, "plan overlap: %t and %t share bytes of %p while both are live at node %u",
                  i, j, a->pool(), both);
    }
  }
  for (uint32_t n = 0; n < nodes; ++n) {
    const auto* node = model->nodes()->Get(n);
    if (node->workspace_bytes() == 0) continue;
    for (uint32_t t = 0; t < tensor_count; ++t) {
      const auto* a = tensors->Get(t);
      if (!planned(t) || a->pool() != node->workspace_pool() || lifetimes[t].first > n || lifetimes[t].last < n) continue;
      if (!ranges_overlap(a->offset(), tensor_bytes(a), node->workspace_offset(), node->workspace_bytes())) continue;
      return fail(error, GRT_ERR_PLAN_OVERLAP, model, "plan overlap: %n workspace shares bytes of %p with live %t", n, a->pool(), t);
    }
  }
  return GRT_OK;
}

}  // namespace grt
