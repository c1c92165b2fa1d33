// Kernel arguments as packed functions take them. LEAN (the default) builds each node's
// arguments from the blob just before it runs, into scratch sized for the largest node;
// PREPARED builds every node's once at init and only repoints activations afterwards.
#include <initializer_list>
#include <string.h>

#include "executor_internal.h"

namespace grt {

DLTensor* io_slot(const grt_executor* x, uint32_t t) {
  const int32_t position = io_position(x->model, t);
  if (position < 0) return nullptr;
  return is_prepared(x) ? &x->tensors[t] : &x->io[position];
}

namespace {

// The blob's lists that describing an argument reads, looked up once per node: lean
// arguments are described before every node runs, and each flatbuffers field lookup walks
// the table's vtable (about 20 instructions on the M4).
struct BlobLists {
  const flatbuffers::Vector<flatbuffers::Offset<fb::Tensor>>* tensors;
  const flatbuffers::Vector<flatbuffers::Offset<fb::Buffer>>* buffers;
  const flatbuffers::Vector<uint32_t>* inputs;
  const flatbuffers::Vector<uint32_t>* outputs;
  explicit BlobLists(const fb::Model* model)
      : tensors(model->tensors()), buffers(model->buffers()), inputs(model->inputs()), outputs(model->outputs()) {}
};

// io_slot with the lists at hand.
DLTensor* slot_in(const grt_executor* x, const BlobLists& lists, uint32_t t) {
  int32_t position = 0;
  for (const auto* list : {lists.inputs, lists.outputs}) {
    for (uint32_t i = 0; i < count_of(list); ++i, ++position) {
      if (list->Get(i) == t) return is_prepared(x) ? &x->tensors[t] : &x->io[position];
    }
  }
  return nullptr;
}

// Where activation t's bytes are when no caller buffer is bound to it.
uint8_t* planned_data(const grt_executor* x, uint32_t t, const fb::Tensor* tensor) {
  if (is_dynamic(strategy_of(x))) return static_cast<uint8_t*>(x->owned[t]);
  return x->pool_base[tensor->pool()] + tensor->offset();
}

// A tensor's data (`tensor` is t's entry). Constants are in the blob; activations in memory
// only once it is bound (`bound`): kernel checks at init see shapes, dtypes and constants,
// no activation data.
void* tensor_data(const grt_executor* x, const BlobLists& lists, uint32_t t, const fb::Tensor* tensor, bool bound) {
  uint64_t offset = 0;
  uint32_t root = t;
  fb::TensorKind kind = tensor->kind();
  if (kind == fb::TensorKind::Alias) {
    root = alias_root(x->model, t, &offset);
    tensor = lists.tensors->Get(root);
    kind = tensor->kind();
  }
  uint8_t* base = nullptr;
  if (kind == fb::TensorKind::Constant) {
    const auto* data = lists.buffers->Get(tensor->buffer())->data();
    base = data == nullptr ? nullptr : const_cast<uint8_t*>(data->data());
  } else if (bound) {
    const DLTensor* slot = slot_in(x, lists, root);
    base = slot != nullptr ? static_cast<uint8_t*>(slot->data) : planned_data(x, root, tensor);
  }
  return base == nullptr ? nullptr : base + offset;
}

// Shapes point into the blob; nothing is copied.
void describe_in(const grt_executor* x, const BlobLists& lists, uint32_t t, const fb::Tensor* tensor, DLTensor* d, bool bound) {
  d->data = tensor_data(x, lists, t, tensor, bound);
  d->device.device_type = kDLCPU;
  d->device.device_id = 0;
  const auto* shape = tensor->shape();
  d->ndim = shape == nullptr ? 0 : static_cast<int>(shape->size());
  d->dtype = dtype_to_dl(tensor->dtype());
  d->shape = shape == nullptr ? nullptr : const_cast<int64_t*>(shape->data());
  d->strides = nullptr;
  d->byte_offset = 0;
}

}  // namespace

void describe(const grt_executor* x, uint32_t t, DLTensor* d, bool bound) {
  const BlobLists lists(x->model);
  describe_in(x, lists, t, lists.tensors->Get(t), d, bound);
}

// A node's arguments as packed functions take them; returns how many. PREPARED: tensor
// handles are the executor's DLTensors. LEAN: inputs and outputs are their slots and every
// other tensor is described into `scratch`.
uint32_t marshal(const grt_executor* x, const fb::Node* node, TVMValue* values, int* codes, DLTensor* scratch, bool bound) {
  const auto* args = node->args();
  const uint32_t count = count_of(args);
  const BlobLists lists(x->model);
  for (uint32_t a = 0; a < count; ++a) {
    const auto* arg = args->Get(a);
    switch (arg->kind()) {
      case fb::ArgKind::Input:
      case fb::ArgKind::Output:
      case fb::ArgKind::IntArray: {
        const uint32_t t = static_cast<uint32_t>(arg->value());
        if (is_prepared(x)) {
          values[a].v_handle = &x->tensors[t];
        } else {
          // A constant is no model input or output: only activations look for their slot.
          const fb::Tensor* tensor = lists.tensors->Get(t);
          DLTensor* d = tensor->kind() == fb::TensorKind::Constant ? nullptr : slot_in(x, lists, t);
          if (d == nullptr) {
            d = scratch++;
            describe_in(x, lists, t, tensor, d, bound);
          }
          values[a].v_handle = d;
        }
        codes[a] = kTVMDLTensorHandle;
        break;
      }
      case fb::ArgKind::Int:
      case fb::ArgKind::Subgraph:  // its index, with a code no other argument has (graphrt/subgraph.h)
        values[a].v_int64 = arg->value();
        codes[a] = arg->kind() == fb::ArgKind::Int ? kTVMArgInt : kTVMOpaqueHandle;
        break;
      case fb::ArgKind::Float: {
        const int64_t bits = arg->value();
        memcpy(&values[a].v_float64, &bits, sizeof(double));
        codes[a] = kTVMArgFloat;
        break;
      }
      default:
        values[a].v_handle = nullptr;
        codes[a] = kTVMNullptr;
        break;
    }
  }
  return count;
}

// PREPARED: every tensor but the constants and the inputs/outputs (which hold their own
// bindings) points where its bytes are now: after memory is bound or a dynamic allocation.
// A freed activation keeps a stale pointer until its next allocation; no kernel sees it.
void sync_prepared(grt_executor* x) {
  if (!is_prepared(x)) return;
  const BlobLists lists(x->model);
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    const fb::Tensor* tensor = lists.tensors->Get(t);
    if (tensor->kind() != fb::TensorKind::Constant && !is_io(x->model, t)) x->tensors[t].data = tensor_data(x, lists, t, tensor, true);
  }
}

// After memory is bound (or released): inputs and outputs, and under PREPARED every
// tensor and workspace, point at it. Caller bindings are replaced.
void bind_tensors(grt_executor* x) {
  for (const auto* list : {x->model->inputs(), x->model->outputs()}) {
    for (uint32_t i = 0; i < count_of(list); ++i) {
      const uint32_t t = list->Get(i);
      io_slot(x, t)->data = planned_data(x, t, x->model->tensors()->Get(t));
    }
  }
  sync_prepared(x);
  if (!is_prepared(x)) return;
  auto* records = static_cast<NodeRecord*>(x->nodes);
  for (uint32_t n = 0; n < node_count(x); ++n) {
    const auto* node = x->model->nodes()->Get(n);
    if (node->workspace_bytes() == 0) continue;
    // DYNAMIC takes each workspace inside run().
    if (strategy_of(x) == GRT_STRATEGY_STATIC) records[n].workspace = x->pool_base[node->workspace_pool()] + node->workspace_offset();
    if (is_stack(strategy_of(x))) records[n].workspace = x->stack_workspace;
  }
}

}  // namespace grt
