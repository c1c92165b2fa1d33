// grt_init: the blob opened and checked, the executor's tables carved out of the caller's
// storage, every kernel name resolved once and every node's arguments checked by its
// kernel, then memory bound under the chosen strategy.
#include <new>

#include "executor_internal.h"
#include "message.h"
#include "shared_pool_internal.h"

namespace grt {
namespace {

// One body that grt_init inlines: a build without dynamic memory has no allocation replay,
// so grt_init is its only caller.
grt_status init(grt_executor** out, void* storage, size_t storage_size, const void* blob, size_t blob_size,
                const grt_options* options, grt_error* error, const grt_kernel_entry* every_node_kernel) {
  if (out == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "executor output is NULL");
  *out = nullptr;
  grt_status s = grt::validate_options(options, error);
  if (s != GRT_OK) return s;
  const grt_strategy strategy = options->memory.strategy;
  const bool prepared = grt::is_prepared(options->arguments);
  const grt::fb::Model* model = nullptr;
  grt::ModelCounts counts;
  grt::Layout layout;
  s = grt::lay_out<grt::kNativeSizes>(blob, blob_size, strategy, options->arguments, storage, storage_size, &model, &counts,
                                      &layout, error);
  if (s != GRT_OK) return s;
  if (storage == nullptr || storage_size < layout.total) {
    return fail(error, GRT_ERR_STORAGE_TOO_SMALL, nullptr, "executor storage needs %u bytes, %u given",
                layout.total, storage == nullptr ? 0 : storage_size);
  }
  if (reinterpret_cast<uintptr_t>(storage) % grt::kBookkeepingAlignment != 0) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "executor storage must be 8-byte aligned");
  }
  auto* base = static_cast<uint8_t*>(storage);
  grt_executor* x = new (storage) grt_executor();
  x->model = model;
  x->strategy = static_cast<uint8_t>(strategy);
  x->arguments = static_cast<uint8_t>(options->arguments);
  x->allocator = options->memory.allocator;
  x->hooks = options->hooks;
  x->name = options->name;
  x->shared_pool = options->shared_pool;
  x->tensor_count = counts.tensors;
  x->nodes = base + layout.nodes;
  x->tensors = reinterpret_cast<DLTensor*>(base + layout.tensors);
  x->values = reinterpret_cast<TVMValue*>(base + layout.values);
  x->codes = reinterpret_cast<int*>(base + layout.codes);
  if (!prepared) x->io = reinterpret_cast<DLTensor*>(base + layout.io);
  if (grt::is_dynamic(strategy)) {
    x->owned = reinterpret_cast<void**>(base + layout.owned);
  } else {
    x->pool_base = reinterpret_cast<uint8_t**>(base + layout.pool_base);
  }
  if (grt::is_scheduled(strategy)) x->orders = reinterpret_cast<uint32_t*>(base + layout.orders);
  if (counts.max_workspace != 0) {
    x->workspace = reinterpret_cast<grt_stack_allocator*>(base + layout.workspace);
    grt_stack_init(x->workspace, nullptr, 0);
  }

  // lay_out left the live ranges here, after the tables written so far.
  auto* lifetimes = reinterpret_cast<grt::Lifetime*>(base + layout.lifetimes);
  if (grt::is_scheduled(strategy)) grt::build_dynamic_orders(x, lifetimes);
  // From here on the lifetimes' bytes belong to the tables below.

  // PREPARED: every tensor's DLTensor; LEAN: the inputs' and outputs'.
  for (uint32_t t = 0; t < counts.tensors; ++t) {
    DLTensor* d = prepared ? &x->tensors[t] : grt::io_slot(x, t);
    if (d != nullptr) grt::describe(x, t, d, false);
  }

  // Nodes: names resolved to functions once; each node's arguments checked by its kernel.
  uint32_t arg_cursor = 0;
  for (uint32_t n = 0; n < counts.nodes; ++n) {
    const auto* node = model->nodes()->Get(n);
    const auto* name = model->kernels()->Get(node->kernel());
    const grt_kernel_entry* entry =
        every_node_kernel != nullptr ? every_node_kernel : grt_registry_find(options->registry, name->c_str(), name->size());
    if (entry == nullptr || entry->function == nullptr) {
      return fail(error, GRT_ERR_KERNEL_NOT_FOUND, model, "%n: kernel not registered", n);
    }
    TVMValue* values = x->values;
    int* codes = x->codes;
    uint32_t arg_count;
    if (prepared) {
      grt::NodeRecord& record = static_cast<grt::NodeRecord*>(x->nodes)[n];
      values += arg_cursor;
      codes += arg_cursor;
      arg_count = grt::marshal(x, node, values, codes, nullptr, false);
      record.function = entry->function;
      record.workspace = nullptr;
      record.workspace_bytes = static_cast<uint32_t>(node->workspace_bytes());
      record.arg_count = arg_count;
      arg_cursor += arg_count;
    } else {
      static_cast<TVMBackendPackedCFunc*>(x->nodes)[n] = entry->function;
      arg_count = grt::marshal(x, node, values, codes, x->tensors, false);
    }
    if (entry->check != nullptr) {
      TVMValue ret;
      int ret_code = 0;
      x->error.message[0] = '\0';  // where the check's TVMAPISetLastError text lands
      grt::CurrentExecutor current(x);
      if (entry->check(values, codes, static_cast<int>(arg_count), &ret, &ret_code, nullptr) != 0) {
        return fail(error, GRT_ERR_KERNEL_ARGS, model, "%n: bad arguments: %s", n, x->error.message);
      }
    }
    for (uint32_t a = 0; a < 32; ++a) {
      if ((entry->writes & GRT_WRITES_ARG(a)) == 0) continue;
      if (a >= arg_count || node->args()->Get(a)->kind() != grt::fb::ArgKind::Output) {
        return fail(error, GRT_ERR_KERNEL_ARGS, model, "%n: the kernel writes argument %u, which is not an Output argument", n, a);
      }
    }
    // The graph check accepted this node's output over one of its inputs; the kernel must
    // be one that reads each element of that input before writing over it.
    const int32_t shared = grt::in_place_input(model, n);
    if (shared >= 0 && (shared >= 32 || (entry->overwrites & GRT_OVERWRITES_ARG(shared)) == 0)) {
      return fail(error, GRT_ERR_PLAN_OVERLAP, model,
                  "%n: its output shares the bytes of input argument %u, which the kernel does not declare it may overwrite", n,
                  static_cast<uint32_t>(shared));
    }
  }

  if (!grt::is_dynamic(strategy)) {
    grt_memory memory = options->memory;
    void* shared_buffers[GRT_MAX_POOLS];
    size_t shared_sizes[GRT_MAX_POOLS];
    const grt_shared_pool* shared = options->shared_pool;
    if (shared != nullptr && counts.states != 0) {
      // Another executor would overwrite the state between this one's runs (docs/rtos.md).
      s = fail(error, GRT_ERR_ARGUMENT, nullptr, "a shared pool cannot hold state");
    } else if (shared != nullptr && shared->ops == nullptr) {
      s = fail(error, GRT_ERR_ARGUMENT, nullptr, "shared pool is not initialised (grt_shared_pool_init)");
    } else if (shared != nullptr) {
      s = shared->ops->place(shared, model, &memory, shared_buffers, shared_sizes, error);
    }
    if (s == GRT_OK) s = grt::bind_static_pools(x, memory, error);
  } else {
    s = grt::bind_allocator(x, error);
  }
  if (s != GRT_OK) return s;
  grt::bind_tensors(x);
  // The allocation replay's allocator hands out addresses that must never be written.
  if (counts.states != 0 && every_node_kernel == nullptr) grt::reset_state(x);
  grt::clear_error(&x->error);
  x->memory_held = true;
  *out = x;
  return GRT_OK;
}

}  // namespace

grt_status init_executor(grt_executor** out, void* storage, size_t storage_size, const void* blob, size_t blob_size,
                         const grt_options* options, grt_error* error, const grt_kernel_entry* every_node_kernel) {
  return init(out, storage, storage_size, blob, blob_size, options, error, every_node_kernel);
}

}  // namespace grt

extern "C" {

grt_status grt_init(grt_executor** out, void* storage, size_t storage_size, const void* blob,
                    size_t blob_size, const grt_options* options, grt_error* error) {
  return grt::init(out, storage, storage_size, blob, blob_size, options, error, nullptr);
}

}  // extern "C"
