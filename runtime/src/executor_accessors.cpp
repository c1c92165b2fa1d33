// The C API's accessors: errors, inputs and outputs (found, rebound to caller buffers),
// nodes, tensor sizes.
#include <string.h>

#include "executor_internal.h"
#include "message.h"

namespace grt {

const char* kernel_name(const fb::Model* model, uint32_t node) {
  return model->kernels()->Get(model->nodes()->Get(node)->kernel())->c_str();
}

namespace {

grt_status bind_io(grt_executor* x, const flatbuffers::Vector<uint32_t>* list, uint32_t index, void* data, size_t size) {
  if (x == nullptr) return GRT_ERR_ARGUMENT;
  if (list == nullptr || index >= list->size()) {
    return fail(&x->error, GRT_ERR_ARGUMENT, nullptr, "no model input/output %u", index);
  }
  const uint32_t t = list->Get(index);
  DLTensor* slot = io_slot(x, t);
  const size_t bytes = grt_tensor_bytes(slot);
  if (data == nullptr || size < bytes) {
    return fail(&x->error, GRT_ERR_ARGUMENT, x->model, "%t needs %u bytes, %u given", t, bytes, data == nullptr ? 0 : size);
  }
  if (reinterpret_cast<uintptr_t>(data) % kActivationAlignment != 0) {
    return fail(&x->error, GRT_ERR_ARGUMENT, x->model, "%t needs a 16-byte aligned buffer", t);
  }
  slot->data = data;
  sync_prepared(x);  // aliases of this input or output
  clear_error(&x->error);
  return GRT_OK;
}

int32_t io_index(const grt_executor* x, const flatbuffers::Vector<uint32_t>* list, const char* name) {
  if (x == nullptr || name == nullptr || list == nullptr) return -1;
  for (uint32_t i = 0; i < list->size(); ++i) {
    const auto* tensor_name = x->model->tensors()->Get(list->Get(i))->name();
    if (tensor_name != nullptr && strcmp(tensor_name->c_str(), name) == 0) return static_cast<int32_t>(i);
  }
  return -1;
}

}  // namespace
}  // namespace grt

extern "C" {

const grt_error* grt_last_error(const grt_executor* x) { return x == nullptr ? nullptr : &x->error; }

uint32_t grt_input_count(const grt_executor* x) { return x == nullptr ? 0 : grt::count_of(x->model->inputs()); }

uint32_t grt_output_count(const grt_executor* x) { return x == nullptr ? 0 : grt::count_of(x->model->outputs()); }

DLTensor* grt_input(grt_executor* x, uint32_t index) {
  if (index >= grt_input_count(x)) return nullptr;
  return grt::io_slot(x, x->model->inputs()->Get(index));
}

DLTensor* grt_output(grt_executor* x, uint32_t index) {
  if (index >= grt_output_count(x)) return nullptr;
  return grt::io_slot(x, x->model->outputs()->Get(index));
}

int32_t grt_input_index(const grt_executor* x, const char* name) {
  return x == nullptr ? -1 : grt::io_index(x, x->model->inputs(), name);
}

int32_t grt_output_index(const grt_executor* x, const char* name) {
  return x == nullptr ? -1 : grt::io_index(x, x->model->outputs(), name);
}

grt_status grt_bind_input(grt_executor* x, uint32_t index, void* data, size_t size) {
  return grt::bind_io(x, x == nullptr ? nullptr : x->model->inputs(), index, data, size);
}

grt_status grt_bind_output(grt_executor* x, uint32_t index, void* data, size_t size) {
  return grt::bind_io(x, x == nullptr ? nullptr : x->model->outputs(), index, data, size);
}

uint32_t grt_node_count(const grt_executor* x) { return x == nullptr ? 0 : grt::node_count(x); }

const char* grt_node_kernel(const grt_executor* x, uint32_t node) {
  if (x == nullptr || node >= grt::node_count(x)) return nullptr;
  return grt::kernel_name(x->model, node);
}

size_t grt_tensor_bytes(const DLTensor* t) {
  if (t == nullptr) return 0;
  size_t elements = 1;
  for (int i = 0; i < t->ndim; ++i) elements *= static_cast<size_t>(t->shape[i]);
  const size_t element_bytes = (static_cast<size_t>(t->dtype.bits) * t->dtype.lanes + 7) / 8;
  return elements * element_bytes;
}

}  // extern "C"
