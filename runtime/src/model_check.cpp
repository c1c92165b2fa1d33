// The local checks: every pool, tensor, node and input/output list of a blob on its own
// (indices in range, sizes without overflow, offsets inside their pools and buffers), and
// the facts about tensors that the executor reads once they pass.
#include "model_check.h"

#include <initializer_list>

#include "message.h"

namespace grt {
namespace {

constexpr uint32_t kUnset = UINT32_MAX;
constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 40;  // far beyond any device, no overflow
constexpr uint32_t kMaxPoolAlignment = 4096;

bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// A non-empty vector of 64-bit elements off an 8-byte boundary (empty ones hold no loads).
template <typename T>
bool misaligned_64(const flatbuffers::Vector<T>* v) {
  return v != nullptr && v->size() != 0 && reinterpret_cast<uintptr_t>(v->data()) % 8 != 0;
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
    case fb::TensorKind::Constant:
    case fb::TensorKind::State: {
      // Constant: its bytes. State: its initial bytes, or an empty buffer for zeros.
      const bool state = t->kind() == fb::TensorKind::State;
      const uint32_t buffer = t->buffer();
      const uint32_t buffers = count_of(model->buffers());
      if (buffer >= buffers) {
        return fail(error, GRT_ERR_INDEX_RANGE, model, "%t uses buffer %u, but the blob has %u", index, buffer, buffers);
      }
      const auto* data = model->buffers()->Get(buffer)->data();
      const uint64_t have = count_of(data);
      if (have != bytes && !(state && have == 0)) {
        return fail(error, GRT_ERR_BUFFER_BOUNDS, model, "%t needs %u bytes, its buffer %u holds %u", index, bytes, buffer, have);
      }
      if (state) {
        counts->states++;
      } else {
        // Empty constants have no bytes to align (FlatBuffers may place them anywhere).
        if (have != 0 && (reinterpret_cast<uintptr_t>(data->data()) % 16) != 0) {
          return fail(error, GRT_ERR_CONSTANT_ALIGNMENT, model, "%t has constant bytes off a 16-byte boundary (buffer %u)", index, buffer);
        }
        return GRT_OK;
      }
    }
      [[fallthrough]];  // State is planned like an activation
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
      counts->last_activation = bytes;
      return GRT_OK;
    }
    case fb::TensorKind::Alias: {
      // An earlier tensor (model_check.h): no cycles, and each alias is checked after its target.
      if (t->alias_of() >= index) {
        return fail(error, GRT_ERR_ALIAS, model, "%t aliases tensor %u, which is not an earlier tensor of the blob", index, t->alias_of());
      }
      counts->aliases++;  // chains are followed once every link is known in range
      return GRT_OK;
    }
  }
  return fail(error, GRT_ERR_GRAPH, model, "%t has unknown kind %u", index, t->kind());
}

// Alias sizes need every tensor's own checks done first (the target's shape), and run in
// index order: an alias's target, if an alias itself, has passed these checks already.
grt_status check_alias_fits(const fb::Model* model, uint32_t index, grt_error* error) {
  const auto* t = model->tensors()->Get(index);
  const uint32_t target = t->alias_of();
  const uint64_t target_bytes = tensor_bytes(model->tensors()->Get(target));
  const uint64_t bytes = tensor_bytes(t);
  const uint64_t link = t->offset();
  // Inside its target: so every chain's offsets add up to at most its root's bytes (< 2^40)
  // and no sum of them can wrap.
  if (link > target_bytes || bytes > target_bytes - link) {
    return fail(error, GRT_ERR_ALIAS, model, "%t needs %u bytes at offset %u of %t, which has %u",
                index, bytes, link, target, target_bytes);
  }
  uint64_t offset = 0;
  if (alias_root(model, index, &offset) == kUnset) {
    return fail(error, GRT_ERR_ALIAS, model, "%t ends a chain of more than %u aliases", index, kMaxAliasDepth);
  }
  if (offset % dtype_size(t->dtype()) != 0) {
    return fail(error, GRT_ERR_ALIAS, model, "%t alias offset %u is not aligned to its element size", index, offset);
  }
  return GRT_OK;
}

grt_status check_arg(const fb::Model* model, uint32_t index, uint32_t a, const fb::Arg* arg, grt_error* error) {
  const auto kind = arg->kind();
  // A Subgraph index is read only by control kernels, which link its checks (check_subgraphs).
  if (kind == fb::ArgKind::Int || kind == fb::ArgKind::Float || kind == fb::ArgKind::None || kind == fb::ArgKind::Subgraph) return GRT_OK;
  const int64_t value = arg->value();
  if (kind != fb::ArgKind::Input && kind != fb::ArgKind::Output && kind != fb::ArgKind::IntArray) {
    return fail(error, GRT_ERR_GRAPH, model, "%n argument %u has unknown kind %u", index, a, kind);
  }
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
  *offset = 0;
  for (uint32_t links = 0; links <= kMaxAliasDepth; ++links) {
    const auto* t = tensors->Get(tensor);
    if (t->kind() != fb::TensorKind::Alias) return tensor;
    *offset += t->offset();
    tensor = t->alias_of();
  }
  return kUnset;
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
  grt_status s = check_io_list(model, model->inputs(), "input", error);
  if (s == GRT_OK) s = check_io_list(model, model->outputs(), "output", error);
  // Last: it relies on every index above being in range.
  if (s == GRT_OK) s = check_subgraphs(model, error);
  return s;
}

}  // namespace grt
