// The executor: binds a checked blob to memory once (grt_init), then runs its nodes in a
// tight loop (grt_run) that looks nothing up and checks nothing the loader proved.
#include <new>
#include <string.h>

#include "error_text.h"
#include "executor_state.h"
#include "graphrt/dynamic_memory.h"
#include "graphrt/platform.h"
#include "model_check.h"

namespace grt {
namespace {

constexpr size_t kBookkeepingAlignment = 8;
constexpr size_t kActivationAlignment = 16;

bool is_dynamic(grt_strategy s) { return s == GRT_STRATEGY_DYNAMIC || s == GRT_STRATEGY_STACK; }

const char* kernel_name(const fb::Model* model, uint32_t node) {
  return model->kernels()->Get(model->nodes()->Get(node)->kernel())->c_str();
}

ErrorText& name_node(ErrorText& e, const grt_executor* x, uint32_t node) {
  return e.text("node ").number(node).text(" (").text(kernel_name(x->model, node)).text(")");
}

ErrorText& name_tensor(ErrorText& e, const grt_executor* x, uint32_t t) {
  e.text("tensor ").number(t);
  const auto* name = x->model->tensors()->Get(t)->name();
  if (name != nullptr && name->size() != 0) e.text(" ").quoted(name->c_str(), name->size());
  return e;
}

void refresh_aliases(grt_executor* x) {
  for (uint32_t i = 0; i < x->alias_count; ++i) {
    const AliasLink& link = x->aliases[i];
    uint8_t* root = static_cast<uint8_t*>(x->tensors[link.root].data);
    x->tensors[link.tensor].data = root == nullptr ? nullptr : root + link.offset;
  }
}

bool is_io(const fb::Model* model, uint32_t t) {
  if (model->inputs() != nullptr) {
    for (const uint32_t i : *model->inputs()) if (i == t) return true;
  }
  if (model->outputs() != nullptr) {
    for (const uint32_t o : *model->outputs()) if (o == t) return true;
  }
  return false;
}

grt_status validate_options(const grt_options* options, grt_error* error) {
  if (options == nullptr || options->registry == nullptr) {
    return ErrorText(error).text("options and options->registry are required").status(GRT_ERR_ARGUMENT);
  }
  const grt_memory& m = options->memory;
  if (m.strategy != GRT_STRATEGY_STATIC && !is_dynamic(m.strategy)) {
    return ErrorText(error).text("unknown memory strategy ").number(static_cast<uint32_t>(m.strategy)).status(GRT_ERR_ARGUMENT);
  }
  if (is_dynamic(m.strategy) && (m.allocator == nullptr || m.allocator->allocate == nullptr || m.allocator->free == nullptr)) {
    return ErrorText(error).text("this memory strategy needs an allocator with allocate and free").status(GRT_ERR_ARGUMENT);
  }
  return GRT_OK;
}

grt_status bind_static_pools(grt_executor* x, const grt_memory& m, grt_error* error) {
  const auto* pools = x->model->pools();
  const uint32_t count = pools == nullptr ? 0 : pools->size();
  if (m.pool_count != count || (count != 0 && (m.pool_buffers == nullptr || m.pool_sizes == nullptr))) {
    return ErrorText(error).text("the plan has ").number(count).text(" pools, ").number(m.pool_count).text(" buffers given").status(GRT_ERR_ARGUMENT);
  }
  for (uint32_t p = 0; p < count; ++p) {
    const auto* pool = pools->Get(p);
    ErrorText e(error);
    if (m.pool_buffers[p] == nullptr && pool->size() != 0) {
      return e.text("pool ").quoted(pool->name() ? pool->name()->c_str() : "").text(" buffer is NULL").status(GRT_ERR_ARGUMENT);
    }
    if (m.pool_sizes[p] < pool->size()) {
      return e.text("pool ").quoted(pool->name() ? pool->name()->c_str() : "").text(" needs ").number(pool->size()).text(" bytes, ").number(m.pool_sizes[p]).text(" given").status(GRT_ERR_POOL_TOO_SMALL);
    }
    const uintptr_t misalignment = reinterpret_cast<uintptr_t>(m.pool_buffers[p]) % pool->alignment();
    if (misalignment != 0) {
      return e.text("pool ").quoted(pool->name() ? pool->name()->c_str() : "").text(" needs ").number(pool->alignment()).text("-byte alignment, buffer address mod ").number(pool->alignment()).text(" is ").number(misalignment).status(GRT_ERR_POOL_MISALIGNED);
    }
  }
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    const auto* tensor = x->model->tensors()->Get(t);
    if (tensor->kind() != fb::TensorKind::Activation) continue;
    x->tensors[t].data = static_cast<uint8_t*>(m.pool_buffers[tensor->pool()]) + tensor->offset();
  }
  for (uint32_t n = 0; n < x->node_count; ++n) {
    const auto* node = x->model->nodes()->Get(n);
    if (node->workspace_bytes() == 0) continue;
    x->nodes[n].workspace = static_cast<uint8_t*>(m.pool_buffers[node->workspace_pool()]) + node->workspace_offset();
  }
  return GRT_OK;
}

grt_status fail_out_of_memory(grt_executor* x, grt_error* error, int64_t node, uint32_t tensor, size_t bytes) {
  ErrorText e(error);
  e.text("out of memory: ");
  if (node >= 0) name_node(e, x, static_cast<uint32_t>(node)).text(" needs ");
  if (tensor != UINT32_MAX) {
    name_tensor(e, x, tensor).text(" of ");
  } else {
    e.text("a workspace of ");
  }
  e.number(bytes).text(" bytes");
  grt_allocator_stats stats{};
  if (x->allocator->stats != nullptr) {
    x->allocator->stats(x->allocator->context, &stats);
    e.text("; allocator has ").number(stats.bytes_in_use).text(" in use");
    if (stats.largest_free != SIZE_MAX) e.text(", largest free ").number(stats.largest_free);
  }
  return e.status(GRT_ERR_OUT_OF_MEMORY);
}

// Dynamic strategies: inputs and outputs (DYNAMIC) or every activation (STACK) are taken
// once here and held until grt_release.
grt_status bind_allocator(grt_executor* x, grt_error* error) {
  for (uint32_t t = 0; t < x->tensor_count; ++t) x->owned[t] = nullptr;
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    const auto* tensor = x->model->tensors()->Get(t);
    if (tensor->kind() != fb::TensorKind::Activation) continue;
    if (x->strategy == GRT_STRATEGY_DYNAMIC && !is_io(x->model, t)) continue;
    const size_t bytes = static_cast<size_t>(tensor_bytes(tensor));
    void* p = grt_allocate(x->allocator, bytes, kActivationAlignment);
    if (p == nullptr) {
      const grt_status s = fail_out_of_memory(x, error, -1, t, bytes);
      grt_release(x);
      return s;
    }
    x->owned[t] = p;
    x->tensors[t].data = p;
  }
  if (x->strategy == GRT_STRATEGY_STACK) {
    uint32_t max_workspace = 0;
    for (uint32_t n = 0; n < x->node_count; ++n) {
      if (x->nodes[n].workspace_bytes > max_workspace) max_workspace = x->nodes[n].workspace_bytes;
    }
    if (max_workspace != 0) {
      x->stack_workspace = static_cast<uint8_t*>(grt_allocate(x->allocator, max_workspace, kActivationAlignment));
      if (x->stack_workspace == nullptr) {
        const grt_status s = fail_out_of_memory(x, error, -1, UINT32_MAX, max_workspace);
        grt_release(x);
        return s;
      }
      for (uint32_t n = 0; n < x->node_count; ++n) x->nodes[n].workspace = x->stack_workspace;
    }
  }
  return GRT_OK;
}

// DYNAMIC: order intermediate activations by first writer and by last reader (counting
// sort over node indices), so run() walks two cursors.
void build_dynamic_orders(grt_executor* x) {
  const uint32_t n_nodes = x->node_count;
  for (uint32_t n = 0; n <= n_nodes; ++n) {
    x->alloc_begin[n] = 0;
    x->free_begin[n] = 0;
  }
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    const auto* tensor = x->model->tensors()->Get(t);
    if (tensor->kind() != fb::TensorKind::Activation || x->lifetimes[t].first == UINT32_MAX || is_io(x->model, t)) continue;
    x->alloc_begin[x->lifetimes[t].first + 1]++;
    x->free_begin[x->lifetimes[t].last + 1]++;
  }
  for (uint32_t n = 0; n < n_nodes; ++n) {
    x->alloc_begin[n + 1] += x->alloc_begin[n];
    x->free_begin[n + 1] += x->free_begin[n];
  }
  // Fill using the starts, then shift back: begin[n] ends up at the start of node n.
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    const auto* tensor = x->model->tensors()->Get(t);
    if (tensor->kind() != fb::TensorKind::Activation || x->lifetimes[t].first == UINT32_MAX || is_io(x->model, t)) continue;
    x->alloc_order[x->alloc_begin[x->lifetimes[t].first]++] = t;
    x->free_order[x->free_begin[x->lifetimes[t].last]++] = t;
  }
  for (uint32_t n = n_nodes; n > 0; --n) {
    x->alloc_begin[n] = x->alloc_begin[n - 1];
    x->free_begin[n] = x->free_begin[n - 1];
  }
  x->alloc_begin[0] = 0;
  x->free_begin[0] = 0;
}

void free_intermediates(grt_executor* x) {
  for (uint32_t i = 0; i < x->alloc_begin[x->node_count]; ++i) {
    const uint32_t t = x->alloc_order[i];
    if (x->owned[t] != nullptr) {
      grt_free(x->allocator, x->owned[t]);
      x->owned[t] = nullptr;
      x->tensors[t].data = nullptr;
    }
  }
}

grt_status kernel_failed(grt_executor* x, uint32_t node, int code) {
  ErrorText e(&x->error);
  name_node(e, x, node).text(" failed");
  if (x->kernel_message[0] != '\0') {
    e.text(": ").text(x->kernel_message);
  } else {
    e.text(" with code ").signed_number(code);
  }
  return e.status(GRT_ERR_KERNEL_FAILED);
}

grt_status cancelled(grt_executor* x, uint32_t node) {
  ErrorText e(&x->error);
  return e.text("cancelled before node ").number(node).status(GRT_ERR_CANCELLED);
}

// The common case: planned memory, no hooks. Nothing but the calls and a flag.
grt_status run_static(grt_executor* x) {
  const NodeRecord* node = x->nodes;
  TVMValue* values = x->values;
  int* codes = x->codes;
  TVMValue ret;
  int ret_code = 0;
  for (uint32_t n = 0; n < x->node_count; ++n, ++node) {
    if (node->workspace_bytes != 0) grt_stack_init(&x->workspace, node->workspace, node->workspace_bytes);
    const int rc = node->function(values, codes, static_cast<int>(node->arg_count), &ret, &ret_code, nullptr);
    if (rc != 0) return kernel_failed(x, n, rc);
    if (x->cancel_requested.load(std::memory_order_relaxed) != 0) return cancelled(x, n + 1);
    values += node->arg_count;
    codes += node->arg_count;
  }
  return GRT_OK;
}

// Hooks and dynamic memory.
grt_status run_general(grt_executor* x) {
  const bool dynamic = x->strategy == GRT_STRATEGY_DYNAMIC;
  const grt_hooks* hooks = x->hooks;
  TVMValue* values = x->values;
  int* codes = x->codes;
  TVMValue ret;
  int ret_code = 0;
  for (uint32_t n = 0; n < x->node_count; ++n) {
    NodeRecord* node = &x->nodes[n];
    if (hooks != nullptr && hooks->before_node != nullptr && hooks->before_node(hooks->user, n) != 0) {
      if (dynamic) free_intermediates(x);
      return cancelled(x, n);
    }
    if (dynamic) {
      for (uint32_t i = x->alloc_begin[n]; i < x->alloc_begin[n + 1]; ++i) {
        const uint32_t t = x->alloc_order[i];
        const size_t bytes = grt_tensor_bytes(&x->tensors[t]);
        void* p = grt_allocate(x->allocator, bytes, kActivationAlignment);
        if (p == nullptr) {
          const grt_status s = fail_out_of_memory(x, &x->error, n, t, bytes);
          free_intermediates(x);
          return s;
        }
        x->owned[t] = p;
        x->tensors[t].data = p;
      }
      if (x->alias_count != 0 && x->alloc_begin[n] != x->alloc_begin[n + 1]) refresh_aliases(x);
      if (node->workspace_bytes != 0) {
        node->workspace = static_cast<uint8_t*>(grt_allocate(x->allocator, node->workspace_bytes, kActivationAlignment));
        if (node->workspace == nullptr) {
          const grt_status s = fail_out_of_memory(x, &x->error, n, UINT32_MAX, node->workspace_bytes);
          free_intermediates(x);
          return s;
        }
      }
    }
    if (node->workspace_bytes != 0) grt_stack_init(&x->workspace, node->workspace, node->workspace_bytes);
    const uint64_t start = (hooks != nullptr && hooks->node_done != nullptr) ? grt_platform_ticks() : 0;
    const int rc = node->function(values, codes, static_cast<int>(node->arg_count), &ret, &ret_code, nullptr);
    if (hooks != nullptr && hooks->node_done != nullptr) {
      hooks->node_done(hooks->user, n, kernel_name(x->model, n), grt_platform_ticks() - start);
    }
    if (dynamic && node->workspace_bytes != 0) {
      grt_free(x->allocator, node->workspace);
      node->workspace = nullptr;
    }
    if (rc != 0) {
      if (dynamic) free_intermediates(x);
      return kernel_failed(x, n, rc);
    }
    if (dynamic) {
      for (uint32_t i = x->free_begin[n]; i < x->free_begin[n + 1]; ++i) {
        const uint32_t t = x->free_order[i];
        grt_free(x->allocator, x->owned[t]);
        x->owned[t] = nullptr;
        x->tensors[t].data = nullptr;
      }
    }
    if (x->cancel_requested.load(std::memory_order_relaxed) != 0) {
      if (dynamic) free_intermediates(x);
      return cancelled(x, n + 1);
    }
    values += node->arg_count;
    codes += node->arg_count;
  }
  return GRT_OK;
}

grt_status bind_io(grt_executor* x, const flatbuffers::Vector<uint32_t>* list, uint32_t index, void* data, size_t size) {
  if (x == nullptr) return GRT_ERR_ARGUMENT;
  ErrorText e(&x->error);
  if (list == nullptr || index >= list->size()) {
    return e.text("no model input/output ").number(index).status(GRT_ERR_ARGUMENT);
  }
  const uint32_t t = list->Get(index);
  const size_t bytes = grt_tensor_bytes(&x->tensors[t]);
  if (data == nullptr || size < bytes) {
    name_tensor(e, x, t).text(" needs ").number(bytes).text(" bytes, ").number(data == nullptr ? 0 : size).text(" given");
    return e.status(GRT_ERR_ARGUMENT);
  }
  if (reinterpret_cast<uintptr_t>(data) % kActivationAlignment != 0) {
    return name_tensor(e, x, t).text(" needs a 16-byte aligned buffer").status(GRT_ERR_ARGUMENT);
  }
  x->tensors[t].data = data;
  refresh_aliases(x);
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

class CurrentExecutor {
 public:
  explicit CurrentExecutor(grt_executor* x) : slot_(grt_platform_current_slot()), previous_(*slot_) { *slot_ = x; }
  ~CurrentExecutor() { *slot_ = previous_; }
  CurrentExecutor(const CurrentExecutor&) = delete;
  CurrentExecutor& operator=(const CurrentExecutor&) = delete;

 private:
  void** slot_;
  void* previous_;
};

}  // namespace

Layout compute_layout(const ModelCounts& c, grt_strategy strategy) {
  Layout l;
  uint64_t offset = 0;
  auto take = [&offset](uint64_t bytes, uint64_t align) {
    offset = (offset + align - 1) & ~(align - 1);
    const uint64_t at = offset;
    offset += bytes;
    return static_cast<size_t>(at);
  };
  take(sizeof(grt_executor), kBookkeepingAlignment);
  l.tensors = take(uint64_t{sizeof(DLTensor)} * c.tensors, alignof(DLTensor));
  l.nodes = take(uint64_t{sizeof(NodeRecord)} * c.nodes, alignof(NodeRecord));
  l.values = take(uint64_t{sizeof(TVMValue)} * c.args, alignof(TVMValue));
  l.codes = take(uint64_t{sizeof(int)} * c.args, alignof(int));
  l.aliases = take(uint64_t{sizeof(AliasLink)} * c.aliases, alignof(AliasLink));
  l.lifetimes = take(uint64_t{sizeof(Lifetime)} * c.tensors, alignof(Lifetime));
  if (is_dynamic(strategy)) l.owned = take(uint64_t{sizeof(void*)} * c.tensors, alignof(void*));
  if (strategy == GRT_STRATEGY_DYNAMIC) {
    l.alloc_order = take(uint64_t{4} * c.tensors, 4);
    l.alloc_begin = take(uint64_t{4} * (uint64_t{c.nodes} + 1), 4);
    l.free_order = take(uint64_t{4} * c.tensors, 4);
    l.free_begin = take(uint64_t{4} * (uint64_t{c.nodes} + 1), 4);
  }
  offset = (offset + kBookkeepingAlignment - 1) & ~uint64_t{kBookkeepingAlignment - 1};
  l.fits = offset <= SIZE_MAX;
  l.total = static_cast<size_t>(offset);
  return l;
}

}  // namespace grt

using grt::ErrorText;

extern "C" {

grt_status grt_model_requirements(const void* blob, size_t blob_size, grt_strategy strategy,
                                  grt_requirements* out, grt_error* error) {
  if (out == nullptr) return ErrorText(error).text("requirements output is NULL").status(GRT_ERR_ARGUMENT);
  memset(out, 0, sizeof(*out));
  const grt::fb::Model* model = nullptr;
  grt_status s = grt::open_model(blob, blob_size, &model, error);
  if (s != GRT_OK) return s;
  grt::ModelCounts counts;
  s = grt::check_model_local(model, &counts, error);
  if (s != GRT_OK) return s;
  const grt::Layout layout = grt::compute_layout(counts, strategy);
  if (!layout.fits) return ErrorText(error).text("model needs more bookkeeping than this machine can address").status(GRT_ERR_STORAGE_TOO_SMALL);
  out->bookkeeping_bytes = layout.total;
  out->bookkeeping_alignment = grt::kBookkeepingAlignment;
  const auto* pools = model->pools();
  out->pool_count = pools == nullptr ? 0 : pools->size();
  for (uint32_t p = 0; p < out->pool_count; ++p) {
    out->pool_bytes[p] = static_cast<size_t>(pools->Get(p)->size());
    out->pool_alignment[p] = pools->Get(p)->alignment();
  }
  if (strategy == GRT_STRATEGY_STACK) {
    out->allocator_bytes = static_cast<size_t>(counts.stack_bytes);
    if (counts.max_workspace != 0) out->allocator_bytes += GRT_STACK_ALLOCATION_BYTES(counts.max_workspace, 16u);
  } else if (strategy == GRT_STRATEGY_DYNAMIC) {
    // Without scratch memory for lifetimes, the bound here is every activation at once.
    out->allocator_bytes = static_cast<size_t>(counts.stack_bytes + counts.max_workspace);
  }
  return GRT_OK;
}

// grt_init, and the allocation replay, which binds every node to `every_node_kernel`
// instead of resolving names (NULL: resolve through options->registry).
static grt_status init_executor(grt_executor** out, void* storage, size_t storage_size, const void* blob,
                                size_t blob_size, const grt_options* options, grt_error* error,
                                const grt_kernel_entry* every_node_kernel) {
  if (out == nullptr) return ErrorText(error).text("executor output is NULL").status(GRT_ERR_ARGUMENT);
  *out = nullptr;
  grt_status s = grt::validate_options(options, error);
  if (s != GRT_OK) return s;
  const grt::fb::Model* model = nullptr;
  s = grt::open_model(blob, blob_size, &model, error);
  if (s != GRT_OK) return s;
  grt::ModelCounts counts;
  s = grt::check_model_local(model, &counts, error);
  if (s != GRT_OK) return s;
  const grt_strategy strategy = options->memory.strategy;
  const grt::Layout layout = grt::compute_layout(counts, strategy);
  if (storage == nullptr || !layout.fits || storage_size < layout.total) {
    return ErrorText(error).text("executor storage needs ").number(layout.total).text(" bytes, ").number(storage == nullptr ? 0 : storage_size).text(" given").status(GRT_ERR_STORAGE_TOO_SMALL);
  }
  if (reinterpret_cast<uintptr_t>(storage) % grt::kBookkeepingAlignment != 0) {
    return ErrorText(error).text("executor storage must be 8-byte aligned").status(GRT_ERR_ARGUMENT);
  }
  auto* base = static_cast<uint8_t*>(storage);
  grt_executor* x = new (storage) grt_executor();
  x->model = model;
  x->strategy = strategy;
  x->allocator = options->memory.allocator;
  x->hooks = options->hooks;
  x->tensor_count = counts.tensors;
  x->node_count = counts.nodes;
  x->alias_count = counts.aliases;
  x->arg_count = counts.args;
  x->tensors = reinterpret_cast<DLTensor*>(base + layout.tensors);
  x->nodes = reinterpret_cast<grt::NodeRecord*>(base + layout.nodes);
  x->values = reinterpret_cast<TVMValue*>(base + layout.values);
  x->codes = reinterpret_cast<int*>(base + layout.codes);
  x->aliases = reinterpret_cast<grt::AliasLink*>(base + layout.aliases);
  x->lifetimes = reinterpret_cast<grt::Lifetime*>(base + layout.lifetimes);
  if (grt::is_dynamic(strategy)) x->owned = reinterpret_cast<void**>(base + layout.owned);
  if (strategy == GRT_STRATEGY_DYNAMIC) {
    x->alloc_order = reinterpret_cast<uint32_t*>(base + layout.alloc_order);
    x->alloc_begin = reinterpret_cast<uint32_t*>(base + layout.alloc_begin);
    x->free_order = reinterpret_cast<uint32_t*>(base + layout.free_order);
    x->free_begin = reinterpret_cast<uint32_t*>(base + layout.free_begin);
  }
  grt_stack_init(&x->workspace, nullptr, 0);

  s = grt::check_model_graph(model, x->lifetimes, error);
  if (s != GRT_OK) return s;

  // Tensors: shapes point into the blob; constants are used in place.
  uint32_t alias_cursor = 0;
  for (uint32_t t = 0; t < counts.tensors; ++t) {
    const auto* tensor = model->tensors()->Get(t);
    DLTensor& d = x->tensors[t];
    d.data = nullptr;
    d.device.device_type = kDLCPU;
    d.device.device_id = 0;
    d.ndim = tensor->shape() == nullptr ? 0 : static_cast<int>(tensor->shape()->size());
    d.dtype = grt::dtype_to_dl(tensor->dtype());
    d.shape = tensor->shape() == nullptr ? nullptr : const_cast<int64_t*>(tensor->shape()->data());
    d.strides = nullptr;
    d.byte_offset = 0;
    if (tensor->kind() == grt::fb::TensorKind::Constant) {
      const auto* data = model->buffers()->Get(tensor->buffer())->data();
      d.data = data == nullptr ? nullptr : const_cast<uint8_t*>(data->data());
    } else if (tensor->kind() == grt::fb::TensorKind::Alias) {
      grt::AliasLink& link = x->aliases[alias_cursor++];
      link.tensor = t;
      link.root = grt::alias_root(model, t, &link.offset);
    }
  }

  // Nodes: names resolved to functions once; arguments marshalled once.
  uint32_t arg_cursor = 0;
  for (uint32_t n = 0; n < counts.nodes; ++n) {
    const auto* node = model->nodes()->Get(n);
    const auto* name = model->kernels()->Get(node->kernel());
    grt::NodeRecord& record = x->nodes[n];
    const grt_kernel_entry* entry =
        every_node_kernel != nullptr ? every_node_kernel : grt_registry_find(options->registry, name->c_str(), name->size());
    if (entry == nullptr || entry->function == nullptr) {
      ErrorText e(error);
      e.text("node ").number(n).text(" (").text(name->c_str()).text("): kernel not registered");
      return e.status(GRT_ERR_KERNEL_NOT_FOUND);
    }
    record.function = entry->function;
    record.workspace = nullptr;
    record.workspace_bytes = static_cast<uint32_t>(node->workspace_bytes());
    record.arg_count = node->args() == nullptr ? 0 : node->args()->size();
    for (uint32_t a = 0; a < record.arg_count; ++a, ++arg_cursor) {
      const auto* arg = node->args()->Get(a);
      TVMValue& v = x->values[arg_cursor];
      int& code = x->codes[arg_cursor];
      switch (arg->kind()) {
        case grt::fb::ArgKind::Input:
        case grt::fb::ArgKind::Output:
        case grt::fb::ArgKind::IntArray:
          v.v_handle = &x->tensors[arg->value()];
          code = kTVMDLTensorHandle;
          break;
        case grt::fb::ArgKind::Int:
          v.v_int64 = arg->value();
          code = kTVMArgInt;
          break;
        case grt::fb::ArgKind::Float: {
          const int64_t bits = arg->value();
          memcpy(&v.v_float64, &bits, sizeof(double));
          code = kTVMArgFloat;
          break;
        }
        default:
          v.v_handle = nullptr;
          code = kTVMNullptr;
          break;
      }
    }
    if (entry->check != nullptr) {
      TVMValue* values = x->values + (arg_cursor - record.arg_count);
      int* codes = x->codes + (arg_cursor - record.arg_count);
      TVMValue ret;
      int ret_code = 0;
      x->kernel_message[0] = '\0';
      grt::CurrentExecutor current(x);
      if (entry->check(values, codes, static_cast<int>(record.arg_count), &ret, &ret_code, nullptr) != 0) {
        ErrorText e(error);
        e.text("node ").number(n).text(" (").text(name->c_str()).text("): bad arguments: ").text(x->kernel_message);
        return e.status(GRT_ERR_KERNEL_ARGS);
      }
    }
    for (uint32_t a = 0; a < 32; ++a) {
      if ((entry->writes & GRT_WRITES_ARG(a)) == 0) continue;
      if (a >= record.arg_count || node->args()->Get(a)->kind() != grt::fb::ArgKind::Output) {
        ErrorText e(error);
        e.text("node ").number(n).text(" (").text(name->c_str()).text("): the kernel writes argument ").number(a)
            .text(", which is not an Output argument");
        return e.status(GRT_ERR_KERNEL_ARGS);
      }
    }
  }

  if (strategy == GRT_STRATEGY_STATIC) {
    s = grt::bind_static_pools(x, options->memory, error);
  } else {
    if (strategy == GRT_STRATEGY_DYNAMIC) grt::build_dynamic_orders(x);
    s = grt::bind_allocator(x, error);
  }
  if (s != GRT_OK) return s;
  grt::refresh_aliases(x);
  grt::clear_error(&x->error);
  x->memory_held = true;
  *out = x;
  return GRT_OK;
}

grt_status grt_init(grt_executor** out, void* storage, size_t storage_size, const void* blob,
                    size_t blob_size, const grt_options* options, grt_error* error) {
  return init_executor(out, storage, storage_size, blob, blob_size, options, error, nullptr);
}

grt_status grt_run(grt_executor* x) {
  if (x == nullptr) return GRT_ERR_ARGUMENT;
  grt::clear_error(&x->error);
  if (!x->memory_held) {
    return ErrorText(&x->error).text("executor holds no memory: it was released; bind an allocator again first").status(GRT_ERR_ARGUMENT);
  }
  x->kernel_message[0] = '\0';
  x->cancel_requested.store(0, std::memory_order_relaxed);
  grt::CurrentExecutor current(x);
  if (x->strategy != GRT_STRATEGY_DYNAMIC && x->hooks == nullptr) return grt::run_static(x);
  return grt::run_general(x);
}

void grt_cancel(grt_executor* x) {
  if (x != nullptr) x->cancel_requested.store(1, std::memory_order_relaxed);
}

void grt_release(grt_executor* x) {
  if (x == nullptr || x->owned == nullptr) return;
  x->memory_held = false;
  // Reverse order keeps a stack allocator's frees LIFO.
  if (x->stack_workspace != nullptr) {
    grt_free(x->allocator, x->stack_workspace);
    x->stack_workspace = nullptr;
  }
  for (uint32_t t = x->tensor_count; t > 0; --t) {
    if (x->owned[t - 1] == nullptr) continue;
    grt_free(x->allocator, x->owned[t - 1]);
    x->owned[t - 1] = nullptr;
    x->tensors[t - 1].data = nullptr;
  }
  grt::refresh_aliases(x);
}

const grt_error* grt_last_error(const grt_executor* x) { return x == nullptr ? nullptr : &x->error; }

uint32_t grt_input_count(const grt_executor* x) {
  return (x == nullptr || x->model->inputs() == nullptr) ? 0 : x->model->inputs()->size();
}

uint32_t grt_output_count(const grt_executor* x) {
  return (x == nullptr || x->model->outputs() == nullptr) ? 0 : x->model->outputs()->size();
}

DLTensor* grt_input(grt_executor* x, uint32_t index) {
  if (index >= grt_input_count(x)) return nullptr;
  return &x->tensors[x->model->inputs()->Get(index)];
}

DLTensor* grt_output(grt_executor* x, uint32_t index) {
  if (index >= grt_output_count(x)) return nullptr;
  return &x->tensors[x->model->outputs()->Get(index)];
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

uint32_t grt_node_count(const grt_executor* x) { return x == nullptr ? 0 : x->node_count; }

const char* grt_node_kernel(const grt_executor* x, uint32_t node) {
  if (x == nullptr || node >= x->node_count) return nullptr;
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

// ---- Dynamic memory (graphrt/dynamic_memory.h): replay, page budgets, new allocators. ---

namespace grt {
namespace {

// Stands in for every kernel during a replay: which allocator calls init and run() make
// does not depend on what the kernels compute.
int replay_kernel(TVMValue*, int*, int, TVMValue*, int*, void*) { return 0; }
constexpr grt_kernel_entry kReplayKernel = {"replay", replay_kernel, nullptr, 0};

uint64_t pages_for(uint64_t bytes, size_t page_size) { return bytes == 0 ? 1 : (bytes - 1) / page_size + 1; }

// Pages that every request of init and one run together take if nothing is reused: each
// activation once, and each workspace (DYNAMIC: every node's; STACK: the largest). With this
// many pages neither policy can fail: the highest used page only grows when a request
// lands above it, by that request's pages.
uint64_t pages_if_nothing_reused(const fb::Model* model, grt_strategy strategy, size_t page_size) {
  uint64_t pages = 0;
  for (const auto* tensor : *model->tensors()) {
    if (tensor->kind() == fb::TensorKind::Activation) pages += pages_for(tensor_bytes(tensor), page_size);
  }
  uint64_t largest_workspace = 0;
  for (const auto* node : *model->nodes()) {
    if (node->workspace_bytes() == 0) continue;
    const uint64_t workspace = pages_for(node->workspace_bytes(), page_size);
    if (strategy == GRT_STRATEGY_DYNAMIC) pages += workspace;
    if (workspace > largest_workspace) largest_workspace = workspace;
  }
  if (strategy == GRT_STRATEGY_STACK) pages += largest_workspace;
  return pages;
}

bool valid_page_size(size_t page_size) {
  return page_size >= GRT_PAGE_MIN_SIZE && (page_size & (page_size - 1)) == 0;
}

}  // namespace
}  // namespace grt

extern "C" {

grt_status grt_replay_allocations(const void* blob, size_t blob_size, grt_strategy strategy,
                                  const grt_allocator* allocator, void* storage, size_t storage_size,
                                  grt_error* error) {
  if (!grt::is_dynamic(strategy)) {
    return ErrorText(error).text("only GRT_STRATEGY_DYNAMIC and GRT_STRATEGY_STACK make allocator calls").status(GRT_ERR_ARGUMENT);
  }
  grt_registry unused_registry;
  grt_registry_init(&unused_registry, nullptr, 0, nullptr);
  grt_options options{};
  options.registry = &unused_registry;
  options.memory.strategy = strategy;
  options.memory.allocator = allocator;
  grt_executor* x = nullptr;
  grt_status s = init_executor(&x, storage, storage_size, blob, blob_size, &options, error, &grt::kReplayKernel);
  if (s != GRT_OK) return s;
  s = grt_run(x);
  if (s != GRT_OK && error != nullptr) *error = x->error;
  grt_release(x);
  if (s == GRT_OK) grt::clear_error(error);
  return s;
}

grt_status grt_page_required_bytes(const void* blob, size_t blob_size, grt_strategy strategy,
                                   size_t page_size, grt_page_policy policy, void* scratch,
                                   size_t scratch_size, grt_page_budget* out, grt_error* error) {
  if (out == nullptr) return ErrorText(error).text("page budget output is NULL").status(GRT_ERR_ARGUMENT);
  memset(out, 0, sizeof(*out));
  if (!grt::is_dynamic(strategy)) {
    return ErrorText(error).text("a page budget needs GRT_STRATEGY_DYNAMIC or GRT_STRATEGY_STACK").status(GRT_ERR_ARGUMENT);
  }
  if (!grt::valid_page_size(page_size) || (policy != GRT_PAGE_FIRST_FIT && policy != GRT_PAGE_BEST_FIT)) {
    return ErrorText(error).text("page size ").number(page_size).text(" is not a power of two >= 16, or the policy is unknown").status(GRT_ERR_ARGUMENT);
  }
  grt_requirements requirements;
  grt_status s = grt_model_requirements(blob, blob_size, strategy, &requirements, error);
  if (s != GRT_OK) return s;
  const grt::fb::Model* model = nullptr;
  s = grt::open_model(blob, blob_size, &model, error);
  if (s != GRT_OK) return s;
  const uint64_t most_pages = grt::pages_if_nothing_reused(model, strategy, page_size);
  if (most_pages > GRT_PAGE_MAX_COUNT || most_pages > (SIZE_MAX - page_size) / page_size ||
      most_pages > (SIZE_MAX - requirements.bookkeeping_bytes) / GRT_PAGE_METADATA_BYTES_PER_PAGE) {
    return ErrorText(error).text("model needs up to ").number(most_pages).text(" pages of ").number(page_size).text(" bytes; choose larger pages").status(GRT_ERR_ARGUMENT);
  }
  const size_t bookkeeping = requirements.bookkeeping_bytes;  // a multiple of 8
  out->scratch_bytes = bookkeeping + static_cast<size_t>(most_pages) * GRT_PAGE_METADATA_BYTES_PER_PAGE;
  if (scratch == nullptr || scratch_size < out->scratch_bytes || reinterpret_cast<uintptr_t>(scratch) % 8 != 0) {
    return ErrorText(error).text("page budget needs ").number(out->scratch_bytes).text(" bytes of 8-byte aligned scratch, ").number(scratch == nullptr ? 0 : scratch_size).text(" given").status(GRT_ERR_STORAGE_TOO_SMALL);
  }
  void* metadata = static_cast<uint8_t*>(scratch) + bookkeeping;
  // A replay never touches the pages, so they get a made-up page-aligned address and
  // only the metadata needs real memory. Placement depends on page indices alone (the
  // executor asks for 16-byte alignment, never more than a page).
  void* pages = reinterpret_cast<void*>(static_cast<uintptr_t>(page_size));
  size_t peak_pages = 0;
  grt_error replay_error;
  auto replay_with = [&](size_t page_count) {
    grt_page_allocator allocator;
    grt_page_init(&allocator, pages, page_count * page_size, metadata, page_count * GRT_PAGE_METADATA_BYTES_PER_PAGE,
                  page_size, policy);
    const grt_allocator view = grt_page_as_allocator(&allocator);
    const grt_status status = grt_replay_allocations(blob, blob_size, strategy, &view, scratch, bookkeeping, &replay_error);
    peak_pages = allocator.peak_pages;
    return status;
  };
  s = replay_with(static_cast<size_t>(most_pages));
  if (s != GRT_OK) {
    if (error != nullptr) *error = replay_error;
    return s;
  }
  // No buffer holds fewer pages than are live at once; the fewest that work lie between.
  size_t low = peak_pages;
  size_t high = static_cast<size_t>(most_pages);
  out->peak_pages = peak_pages;
  if (policy == GRT_PAGE_FIRST_FIT) {
    // First fit places every request alike in any larger buffer, so success is monotonic.
    while (low < high) {
      const size_t middle = low + (high - low) / 2;
      s = replay_with(middle);
      if (s == GRT_OK) {
        high = middle;
      } else if (s == GRT_ERR_OUT_OF_MEMORY) {
        low = middle + 1;
      } else {
        if (error != nullptr) *error = replay_error;
        return s;
      }
    }
  } else {
    for (; low < high; ++low) {
      s = replay_with(low);
      if (s == GRT_OK) break;
      if (s != GRT_ERR_OUT_OF_MEMORY) {
        if (error != nullptr) *error = replay_error;
        return s;
      }
    }
  }
  out->page_count = low;
  out->buffer_bytes = grt_page_buffer_bytes(low, page_size);
  out->metadata_bytes = low * GRT_PAGE_METADATA_BYTES_PER_PAGE;
  grt::clear_error(error);
  return GRT_OK;
}

grt_status grt_set_allocator(grt_executor* x, const grt_allocator* allocator) {
  if (x == nullptr) return GRT_ERR_ARGUMENT;
  if (!grt::is_dynamic(x->strategy)) {
    return ErrorText(&x->error).text("only GRT_STRATEGY_DYNAMIC and GRT_STRATEGY_STACK executors use an allocator").status(GRT_ERR_ARGUMENT);
  }
  if (allocator == nullptr || allocator->allocate == nullptr || allocator->free == nullptr) {
    return ErrorText(&x->error).text("the new allocator needs allocate and free").status(GRT_ERR_ARGUMENT);
  }
  grt_release(x);
  x->allocator = allocator;
  const grt_status s = grt::bind_allocator(x, &x->error);
  if (s != GRT_OK) return s;
  grt::refresh_aliases(x);
  grt::clear_error(&x->error);
  x->memory_held = true;
  return GRT_OK;
}

}  // extern "C"
