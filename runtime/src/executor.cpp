// The executor: binds a checked blob to memory once (grt_init), then runs its nodes in a
// loop that looks nothing up and checks nothing the loader proved. Kernel arguments are
// either marshalled before each node into scratch sized for the largest node (LEAN, the
// default: small bookkeeping) or once at init for every node (PREPARED: fastest dispatch).
#include <initializer_list>
#include <new>
#include <string.h>

#include "build_features.h"
#include "executor_state.h"
#include "graphrt/dynamic_memory.h"
#include "graphrt/platform.h"
#include "message.h"
#include "model_check.h"
#include "raw_enum.h"
#include "shared_pool_internal.h"

namespace grt {
namespace {

constexpr size_t kBookkeepingAlignment = 8;
constexpr size_t kActivationAlignment = 16;

// What this build has (build_features.h): everything a build leaves out folds to false
// here, so its code is not in the image.
bool is_dynamic(grt_strategy s) { return kDynamicMemory && (s == GRT_STRATEGY_DYNAMIC || s == GRT_STRATEGY_STACK); }
bool is_scheduled(grt_strategy s) { return kDynamicMemory && s == GRT_STRATEGY_DYNAMIC; }
bool is_stack(grt_strategy s) { return kDynamicMemory && s == GRT_STRATEGY_STACK; }
bool is_prepared(grt_arguments a) { return kPreparedArguments && a == GRT_ARGUMENTS_PREPARED; }
grt_strategy strategy_of(const grt_executor* x) { return static_cast<grt_strategy>(x->strategy); }
bool is_prepared(const grt_executor* x) { return is_prepared(static_cast<grt_arguments>(x->arguments)); }

template <typename T>
uint32_t count_of(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

uint32_t node_count(const grt_executor* x) { return count_of(x->model->nodes()); }

// GRT_STRATEGY_DYNAMIC's schedule, laid out one array after another at x->orders.
struct Schedule {
  uint32_t* alloc_order;  // activations ordered by first writer
  uint32_t* alloc_begin;  // [node count + 1]: where each node's range of alloc_order starts
  uint32_t* free_order;   // activations ordered by last reader
  uint32_t* free_begin;
};

Schedule schedule(const grt_executor* x) {
  Schedule s;
  s.alloc_order = x->orders;
  s.alloc_begin = s.alloc_order + x->tensor_count;
  s.free_order = s.alloc_begin + node_count(x) + 1;
  s.free_begin = s.free_order + x->tensor_count;
  return s;
}

const char* kernel_name(const fb::Model* model, uint32_t node) {
  return model->kernels()->Get(model->nodes()->Get(node)->kernel())->c_str();
}

bool is_io(const fb::Model* model, uint32_t t) { return io_position(model, t) >= 0; }

// The DLTensor that holds a model input's or output's data: what grt_input returns and
// grt_bind_input rebinds. NULL for any other tensor.
DLTensor* io_slot(const grt_executor* x, uint32_t t) {
  const int32_t position = io_position(x->model, t);
  if (position < 0) return nullptr;
  return is_prepared(x) ? &x->tensors[t] : &x->io[position];
}

// Where activation t's bytes are when no caller buffer is bound to it.
uint8_t* planned_data(const grt_executor* x, uint32_t t, const fb::Tensor* tensor) {
  if (is_dynamic(strategy_of(x))) return static_cast<uint8_t*>(x->owned[t]);
  return x->pool_base[tensor->pool()] + tensor->offset();
}

uint8_t* planned_data(const grt_executor* x, uint32_t t) { return planned_data(x, t, x->model->tensors()->Get(t)); }

// A tensor's data. Constants are in the blob; activations in memory only once it is bound
// (`bound`): kernel checks at init see shapes, dtypes and constants, no activation data.
void* tensor_data(const grt_executor* x, uint32_t t, bool bound) {
  uint64_t offset = 0;
  const uint32_t root = alias_root(x->model, t, &offset);
  const auto* tensor = x->model->tensors()->Get(root);
  uint8_t* base = nullptr;
  if (tensor->kind() == fb::TensorKind::Constant) {
    const auto* data = x->model->buffers()->Get(tensor->buffer())->data();
    base = data == nullptr ? nullptr : const_cast<uint8_t*>(data->data());
  } else if (bound) {
    const DLTensor* slot = io_slot(x, root);
    base = slot != nullptr ? static_cast<uint8_t*>(slot->data) : planned_data(x, root, tensor);
  }
  return base == nullptr ? nullptr : base + offset;
}

// Shapes point into the blob; nothing is copied.
void describe(const grt_executor* x, uint32_t t, DLTensor* d, bool bound) {
  const auto* tensor = x->model->tensors()->Get(t);
  d->data = tensor_data(x, t, bound);
  d->device.device_type = kDLCPU;
  d->device.device_id = 0;
  const auto* shape = tensor->shape();
  d->ndim = shape == nullptr ? 0 : static_cast<int>(shape->size());
  d->dtype = dtype_to_dl(tensor->dtype());
  d->shape = shape == nullptr ? nullptr : const_cast<int64_t*>(shape->data());
  d->strides = nullptr;
  d->byte_offset = 0;
}

// A node's arguments as packed functions take them; returns how many. PREPARED: tensor
// handles are the executor's DLTensors. LEAN: inputs and outputs are their slots and every
// other tensor is described into `scratch`.
uint32_t marshal(const grt_executor* x, const fb::Node* node, TVMValue* values, int* codes, DLTensor* scratch, bool bound) {
  const auto* args = node->args();
  const uint32_t count = count_of(args);
  for (uint32_t a = 0; a < count; ++a) {
    const auto* arg = args->Get(a);
    switch (arg->kind()) {
      case fb::ArgKind::Input:
      case fb::ArgKind::Output:
      case fb::ArgKind::IntArray: {
        const uint32_t t = static_cast<uint32_t>(arg->value());
        DLTensor* d = is_prepared(x) ? &x->tensors[t] : io_slot(x, t);
        if (d == nullptr) {
          d = scratch++;
          describe(x, t, d, bound);
        }
        values[a].v_handle = d;
        codes[a] = kTVMDLTensorHandle;
        break;
      }
      case fb::ArgKind::Int:
        values[a].v_int64 = arg->value();
        codes[a] = kTVMArgInt;
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
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    if (x->model->tensors()->Get(t)->kind() != fb::TensorKind::Constant && !is_io(x->model, t)) {
      x->tensors[t].data = tensor_data(x, t, true);
    }
  }
}

// After memory is bound (or released): inputs and outputs, and under PREPARED every
// tensor and workspace, point at it. Caller bindings are replaced.
void bind_tensors(grt_executor* x) {
  for (const auto* list : {x->model->inputs(), x->model->outputs()}) {
    for (uint32_t i = 0; i < count_of(list); ++i) io_slot(x, list->Get(i))->data = planned_data(x, list->Get(i));
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

grt_status validate_raw_modes(uint32_t strategy, uint32_t arguments, grt_error* error) {
  if (strategy <= GRT_STRATEGY_STACK && arguments <= GRT_ARGUMENTS_PREPARED) {
    if (!kDynamicMemory && strategy != GRT_STRATEGY_STATIC) {
      return fail(error, GRT_ERR_ARGUMENT, nullptr, "%s is not in this build of graphrt (GRT_DYNAMIC_MEMORY=OFF)",
                  strategy == GRT_STRATEGY_DYNAMIC ? "GRT_STRATEGY_DYNAMIC" : "GRT_STRATEGY_STACK");
    }
    if (!kPreparedArguments && arguments != GRT_ARGUMENTS_LEAN) {
      return fail(error, GRT_ERR_ARGUMENT, nullptr, "GRT_ARGUMENTS_PREPARED is not in this build of graphrt (GRT_PREPARED_ARGUMENTS=OFF)");
    }
    return GRT_OK;
  }
  return fail(error, GRT_ERR_ARGUMENT, nullptr, "unknown memory strategy %u or argument mode %u", strategy, arguments);
}

grt_status validate_modes(grt_strategy strategy, grt_arguments arguments, grt_error* error) {
  return validate_raw_modes(raw_enum(strategy), raw_enum(arguments), error);
}

// The options' modes, checked before either enum is loaded.
grt_status validate_option_modes(const grt_options* options, grt_error* error) {
  return validate_raw_modes(raw_enum(options->memory.strategy), raw_enum(options->arguments), error);
}

grt_status validate_options(const grt_options* options, grt_error* error) {
  if (options == nullptr || options->registry == nullptr) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "options and options->registry are required");
  }
  const grt_status s = validate_option_modes(options, error);
  if (s != GRT_OK) return s;
  const grt_memory& m = options->memory;
  if (is_dynamic(m.strategy) && (m.allocator == nullptr || m.allocator->allocate == nullptr || m.allocator->free == nullptr)) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "this memory strategy needs an allocator with allocate and free");
  }
  return GRT_OK;
}

grt_status bind_static_pools(grt_executor* x, const grt_memory& m, grt_error* error) {
  const auto* pools = x->model->pools();
  const uint32_t count = count_of(pools);
  if (m.pool_count != count || (count != 0 && (m.pool_buffers == nullptr || m.pool_sizes == nullptr))) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "the plan has %u pools, %u buffers given", count, m.pool_count);
  }
  for (uint32_t p = 0; p < count; ++p) {
    const auto* pool = pools->Get(p);
    const uint64_t size = pool->size();
    const uint32_t alignment = pool->alignment();
    if (m.pool_buffers[p] == nullptr && size != 0) {
      return fail(error, GRT_ERR_ARGUMENT, x->model, "%p buffer is NULL", p);
    }
    if (m.pool_sizes[p] < size) {
      return fail(error, GRT_ERR_POOL_TOO_SMALL, x->model, "%p needs %u bytes, %u given", p, size, m.pool_sizes[p]);
    }
    const uintptr_t misalignment = reinterpret_cast<uintptr_t>(m.pool_buffers[p]) % alignment;
    if (misalignment != 0) {
      return fail(error, GRT_ERR_POOL_MISALIGNED, x->model, "%p needs %u-byte alignment, buffer address mod %u is %u",
                  p, alignment, alignment, misalignment);
    }
  }
  for (uint32_t p = 0; p < count; ++p) x->pool_base[p] = static_cast<uint8_t*>(m.pool_buffers[p]);
  return GRT_OK;
}

grt_status fail_out_of_memory(grt_executor* x, grt_error* error, int64_t node, uint32_t tensor, size_t bytes) {
  const fb::Model* m = x->model;
  if (node >= 0 && tensor != UINT32_MAX) {
    fail(error, GRT_ERR_OUT_OF_MEMORY, m, "out of memory: %n needs %t of %u bytes", node, tensor, bytes);
  } else if (node >= 0) {
    fail(error, GRT_ERR_OUT_OF_MEMORY, m, "out of memory: %n needs a workspace of %u bytes", node, bytes);
  } else if (tensor != UINT32_MAX) {
    fail(error, GRT_ERR_OUT_OF_MEMORY, m, "out of memory: %t of %u bytes", tensor, bytes);
  } else {
    fail(error, GRT_ERR_OUT_OF_MEMORY, m, "out of memory: a workspace of %u bytes", bytes);
  }
  if (x->allocator->stats != nullptr) {
    grt_allocator_stats stats{};
    x->allocator->stats(x->allocator->context, &stats);
    append(error, m, "; allocator has %u in use", stats.bytes_in_use);
    if (stats.largest_free != SIZE_MAX) append(error, m, ", largest free %u", stats.largest_free);
  }
  return GRT_ERR_OUT_OF_MEMORY;
}

// Dynamic strategies: inputs and outputs (DYNAMIC) or every activation (STACK) are taken
// once here and held until grt_release. The caller points tensors at them (bind_tensors).
grt_status bind_allocator(grt_executor* x, grt_error* error) {
  for (uint32_t t = 0; t < x->tensor_count; ++t) x->owned[t] = nullptr;
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    const auto* tensor = x->model->tensors()->Get(t);
    if (tensor->kind() != fb::TensorKind::Activation) continue;
    if (is_scheduled(strategy_of(x)) && !is_io(x->model, t)) continue;
    const size_t bytes = static_cast<size_t>(tensor_bytes(tensor));
    void* p = grt_allocate(x->allocator, bytes, kActivationAlignment);
    if (p == nullptr) {
      const grt_status s = fail_out_of_memory(x, error, -1, t, bytes);
      grt_release(x);
      return s;
    }
    x->owned[t] = p;
  }
  if (is_stack(strategy_of(x))) {
    uint64_t max_workspace = 0;
    for (const auto* node : *x->model->nodes()) {
      if (node->workspace_bytes() > max_workspace) max_workspace = node->workspace_bytes();
    }
    if (max_workspace != 0) {
      x->stack_workspace = static_cast<uint8_t*>(grt_allocate(x->allocator, static_cast<size_t>(max_workspace), kActivationAlignment));
      if (x->stack_workspace == nullptr) {
        const grt_status s = fail_out_of_memory(x, error, -1, UINT32_MAX, static_cast<size_t>(max_workspace));
        grt_release(x);
        return s;
      }
    }
  }
  return GRT_OK;
}

// DYNAMIC: order intermediate activations by first writer and by last reader (counting
// sort over node indices), so run() walks two cursors.
void build_dynamic_orders(grt_executor* x, const Lifetime* lifetimes) {
  const uint32_t n_nodes = node_count(x);
  const Schedule s = schedule(x);
  for (uint32_t n = 0; n <= n_nodes; ++n) {
    s.alloc_begin[n] = 0;
    s.free_begin[n] = 0;
  }
  auto ordered = [x, lifetimes](uint32_t t) {
    return x->model->tensors()->Get(t)->kind() == fb::TensorKind::Activation && lifetimes[t].first != UINT32_MAX &&
           !is_io(x->model, t);
  };
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    if (!ordered(t)) continue;
    s.alloc_begin[lifetimes[t].first + 1]++;
    s.free_begin[lifetimes[t].last + 1]++;
  }
  for (uint32_t n = 0; n < n_nodes; ++n) {
    s.alloc_begin[n + 1] += s.alloc_begin[n];
    s.free_begin[n + 1] += s.free_begin[n];
  }
  // Fill using the starts, then shift back: begin[n] ends up at the start of node n.
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    if (!ordered(t)) continue;
    s.alloc_order[s.alloc_begin[lifetimes[t].first]++] = t;
    s.free_order[s.free_begin[lifetimes[t].last]++] = t;
  }
  for (uint32_t n = n_nodes; n > 0; --n) {
    s.alloc_begin[n] = s.alloc_begin[n - 1];
    s.free_begin[n] = s.free_begin[n - 1];
  }
  s.alloc_begin[0] = 0;
  s.free_begin[0] = 0;
}

void free_intermediates(grt_executor* x) {
  const Schedule s = schedule(x);
  for (uint32_t i = 0; i < s.alloc_begin[node_count(x)]; ++i) {
    const uint32_t t = s.alloc_order[i];
    if (x->owned[t] != nullptr) {
      grt_free(x->allocator, x->owned[t]);
      x->owned[t] = nullptr;
    }
  }
}

// Kept out of line: its copy of the error record would otherwise sit in run()'s frame, on
// every task's stack, for a path that runs once.
__attribute__((noinline, cold)) grt_status kernel_failed(grt_executor* x, uint32_t node, int code) {
  // What the kernel passed to TVMAPISetLastError is in the message about to be rewritten.
  const grt_error said = x->error;
  if (said.message[0] != '\0') return fail(&x->error, GRT_ERR_KERNEL_FAILED, x->model, "%n failed: %s", node, said.message);
  return fail(&x->error, GRT_ERR_KERNEL_FAILED, x->model, "%n failed with code %d", node, code);
}

grt_status cancelled(grt_executor* x, uint32_t node) {
  return fail(&x->error, GRT_ERR_CANCELLED, nullptr, "cancelled before node %u", node);
}

// PREPARED with planned memory and no hooks, the dispatch benchmark's case: nothing but
// the calls and a flag.
grt_status run_static(grt_executor* x) {
  const NodeRecord* node = static_cast<const NodeRecord*>(x->nodes);
  TVMValue* values = x->values;
  int* codes = x->codes;
  TVMValue ret;
  int ret_code = 0;
  const uint32_t nodes = node_count(x);
  for (uint32_t n = 0; n < nodes; ++n, ++node) {
    if (node->workspace_bytes != 0) grt_stack_init(x->workspace, node->workspace, node->workspace_bytes);
    const int rc = node->function(values, codes, static_cast<int>(node->arg_count), &ret, &ret_code, nullptr);
    if (rc != 0) return kernel_failed(x, n, rc);
    if (x->cancel_requested.load(std::memory_order_relaxed) != 0) return cancelled(x, n + 1);
    values += node->arg_count;
    codes += node->arg_count;
  }
  return GRT_OK;
}

// LEAN, hooks, and dynamic memory.
grt_status run_general(grt_executor* x) {
  const grt_strategy strategy = strategy_of(x);
  const bool dynamic = is_scheduled(strategy);
  const bool prepared = is_prepared(x);
  const grt_hooks* hooks = x->hooks;
  TVMValue* values = x->values;
  int* codes = x->codes;
  const Schedule schedule_of_dynamic = dynamic ? schedule(x) : Schedule{};
  const uint32_t* alloc_begin = schedule_of_dynamic.alloc_begin;
  const uint32_t* alloc_order = schedule_of_dynamic.alloc_order;
  const uint32_t* free_begin = schedule_of_dynamic.free_begin;
  const uint32_t* free_order = schedule_of_dynamic.free_order;
  TVMValue ret;
  int ret_code = 0;
  const uint32_t nodes = node_count(x);
  for (uint32_t n = 0; n < nodes; ++n) {
    const auto* node = x->model->nodes()->Get(n);
    if (hooks != nullptr && hooks->before_node != nullptr && hooks->before_node(hooks->user, n) != 0) {
      if (dynamic) free_intermediates(x);
      return cancelled(x, n);
    }
    if (dynamic) {
      for (uint32_t i = alloc_begin[n]; i < alloc_begin[n + 1]; ++i) {
        const uint32_t t = alloc_order[i];
        const size_t bytes = static_cast<size_t>(tensor_bytes(x->model->tensors()->Get(t)));
        void* p = grt_allocate(x->allocator, bytes, kActivationAlignment);
        if (p == nullptr) {
          const grt_status s = fail_out_of_memory(x, &x->error, n, t, bytes);
          free_intermediates(x);
          return s;
        }
        x->owned[t] = p;
      }
      if (alloc_begin[n] != alloc_begin[n + 1]) sync_prepared(x);
    }
    const size_t workspace_bytes = static_cast<size_t>(node->workspace_bytes());
    uint8_t* workspace = nullptr;
    if (workspace_bytes != 0) {
      if (dynamic) {
        workspace = static_cast<uint8_t*>(grt_allocate(x->allocator, workspace_bytes, kActivationAlignment));
        if (workspace == nullptr) {
          const grt_status s = fail_out_of_memory(x, &x->error, n, UINT32_MAX, workspace_bytes);
          free_intermediates(x);
          return s;
        }
      } else {
        workspace = is_stack(strategy) ? x->stack_workspace
                                                   : x->pool_base[node->workspace_pool()] + node->workspace_offset();
      }
      grt_stack_init(x->workspace, workspace, workspace_bytes);
    }
    TVMBackendPackedCFunc function;
    uint32_t arg_count;
    if (prepared) {
      const NodeRecord& record = static_cast<const NodeRecord*>(x->nodes)[n];
      function = record.function;
      arg_count = record.arg_count;
    } else {
      function = static_cast<const TVMBackendPackedCFunc*>(x->nodes)[n];
      arg_count = marshal(x, node, values, codes, x->tensors, true);
    }
    const uint64_t start = (hooks != nullptr && hooks->node_done != nullptr) ? grt_platform_ticks() : 0;
    const int rc = function(values, codes, static_cast<int>(arg_count), &ret, &ret_code, nullptr);
    if (hooks != nullptr && hooks->node_done != nullptr) {
      hooks->node_done(hooks->user, n, kernel_name(x->model, n), grt_platform_ticks() - start);
    }
    if (dynamic && workspace != nullptr) grt_free(x->allocator, workspace);
    if (rc != 0) {
      if (dynamic) free_intermediates(x);
      return kernel_failed(x, n, rc);
    }
    if (dynamic) {
      for (uint32_t i = free_begin[n]; i < free_begin[n + 1]; ++i) {
        const uint32_t t = free_order[i];
        grt_free(x->allocator, x->owned[t]);
        x->owned[t] = nullptr;
      }
    }
    if (x->cancel_requested.load(std::memory_order_relaxed) != 0) {
      if (dynamic) free_intermediates(x);
      return cancelled(x, n + 1);
    }
    if (prepared) {
      values += arg_count;
      codes += arg_count;
    }
  }
  return GRT_OK;
}

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

#if defined(__arm__)
constexpr bool same_sizes(const LayoutSizes& a, const LayoutSizes& b) {
  return a.executor == b.executor && a.dl_tensor == b.dl_tensor && a.dl_tensor_align == b.dl_tensor_align &&
         a.tvm_value == b.tvm_value && a.tvm_value_align == b.tvm_value_align && a.node_record == b.node_record &&
         a.node_record_align == b.node_record_align && a.pointer == b.pointer && a.stack_allocator == b.stack_allocator &&
         a.stack_allocator_align == b.stack_allocator_align;
}
static_assert(same_sizes(kNativeSizes, kArm32Sizes), "kArm32Sizes must describe this 32-bit Arm build: update it");
#endif

template <const LayoutSizes& z>
Layout compute_layout(const ModelCounts& c, grt_strategy strategy, grt_arguments arguments) {
  Layout l;
  // Below these counts no figure overflows a 32-bit size_t; no device holds a larger model.
  constexpr uint32_t kMaxCount = 1u << 20;
  l.fits = c.tensors <= kMaxCount && c.nodes <= kMaxCount && c.args <= kMaxCount && c.io <= kMaxCount;
  if (!l.fits) return l;
  const bool prepared = is_prepared(arguments);
  const size_t tensors = c.tensors, nodes = c.nodes, args = prepared ? c.args : c.max_args;
  size_t offset = 0;
  auto take = [&offset](size_t bytes, size_t align) {
    offset = (offset + align - 1) & ~(align - 1);
    const size_t at = offset;
    offset += bytes;
    return at;
  };
  take(z.executor, kBookkeepingAlignment);
  if (is_scheduled(strategy)) l.orders = take(4 * (2 * tensors + 2 * (nodes + 1)), 4);
  if (c.max_workspace != 0) l.workspace = take(z.stack_allocator, z.stack_allocator_align);
  // The lifetimes overlap every table after this point: they are dead before any is written.
  l.lifetimes = take(0, z.node_record_align);
  l.nodes = take(nodes * (prepared ? z.node_record : z.pointer), z.node_record_align);
  l.tensors = take((prepared ? tensors : c.max_scratch) * z.dl_tensor, z.dl_tensor_align);
  l.io = take(prepared ? 0 : c.io * z.dl_tensor, z.dl_tensor_align);
  l.values = take(args * z.tvm_value, z.tvm_value_align);
  l.codes = take(args * sizeof(int), alignof(int));
  if (is_dynamic(strategy)) {
    l.owned = take(tensors * z.pointer, z.pointer);
  } else {
    l.pool_base = take(c.pools * z.pointer, z.pointer);
  }
  const size_t lifetimes_end = l.lifetimes + tensors * sizeof(Lifetime);
  if (offset < lifetimes_end) offset = lifetimes_end;
  l.total = take(0, kBookkeepingAlignment);
  return l;
}

// What sizing and init share: the modes known, the blob opened and checked, the layout.
template <const LayoutSizes& kSizes>
grt_status lay_out(const void* blob, size_t blob_size, grt_strategy strategy, grt_arguments arguments, const fb::Model** model,
                   ModelCounts* counts, Layout* layout, grt_error* error) {
  grt_status s = validate_modes(strategy, arguments, error);
  if (s == GRT_OK) s = open_model(blob, blob_size, model, error);
  if (s == GRT_OK) s = check_model_local(*model, counts, error);
  if (s != GRT_OK) return s;
  *layout = compute_layout<kSizes>(*counts, strategy, arguments);
  if (!layout->fits) return fail(error, GRT_ERR_STORAGE_TOO_SMALL, nullptr, "model needs more bookkeeping than this machine can address");
  return GRT_OK;
}

template <const LayoutSizes& kSizes>
grt_status requirements_for(const void* blob, size_t blob_size, const grt_options* options, grt_requirements* out,
                            grt_error* error) {
  if (out == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "requirements output is NULL");
  memset(out, 0, sizeof(*out));
  if (options == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "options are required");
  const grt_status modes = grt::validate_option_modes(options, error);
  if (modes != GRT_OK) return modes;
  const grt_strategy strategy = options->memory.strategy;
  const grt::fb::Model* model = nullptr;
  grt::ModelCounts counts;
  grt::Layout layout;
  const grt_status s = lay_out<kSizes>(blob, blob_size, strategy, options->arguments, &model, &counts, &layout, error);
  if (s != GRT_OK) return s;
  out->bookkeeping_bytes = layout.total;
  out->bookkeeping_alignment = grt::kBookkeepingAlignment;
  const auto* pools = model->pools();
  out->pool_count = grt::count_of(pools);
  for (uint32_t p = 0; p < out->pool_count; ++p) {
    out->pool_bytes[p] = static_cast<size_t>(pools->Get(p)->size());
    out->pool_alignment[p] = pools->Get(p)->alignment();
  }
  if (grt::is_stack(strategy)) {
    out->allocator_bytes = static_cast<size_t>(counts.stack_bytes);
    if (counts.max_workspace != 0) out->allocator_bytes += GRT_STACK_ALLOCATION_BYTES(counts.max_workspace, 16u);
  } else if (grt::is_scheduled(strategy)) {
    // Without scratch memory for lifetimes, the bound here is every activation at once.
    out->allocator_bytes = static_cast<size_t>(counts.stack_bytes + counts.max_workspace);
  }
  return GRT_OK;
}

template grt_status requirements_for<kNativeSizes>(const void*, size_t, const grt_options*, grt_requirements*, grt_error*);
template grt_status requirements_for<kArm32Sizes>(const void*, size_t, const grt_options*, grt_requirements*, grt_error*);

}  // namespace grt

using grt::fail;

extern "C" {

grt_status grt_model_requirements_for(const void* blob, size_t blob_size, const grt_options* options,
                                      grt_requirements* out, grt_error* error) {
  return grt::requirements_for<grt::kNativeSizes>(blob, blob_size, options, out, error);
}

grt_status grt_model_requirements(const void* blob, size_t blob_size, grt_strategy strategy,
                                  grt_requirements* out, grt_error* error) {
  grt_options options{};
  options.memory.strategy = strategy;
  return grt_model_requirements_for(blob, blob_size, &options, out, error);
}

// grt_init, and the allocation replay, which binds every node to `every_node_kernel`
// instead of resolving names (NULL: resolve through options->registry).
static grt_status init_executor(grt_executor** out, void* storage, size_t storage_size, const void* blob,
                                size_t blob_size, const grt_options* options, grt_error* error,
                                const grt_kernel_entry* every_node_kernel) {
  if (out == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "executor output is NULL");
  *out = nullptr;
  grt_status s = grt::validate_options(options, error);
  if (s != GRT_OK) return s;
  const grt_strategy strategy = options->memory.strategy;
  const bool prepared = grt::is_prepared(options->arguments);
  const grt::fb::Model* model = nullptr;
  grt::ModelCounts counts;
  grt::Layout layout;
  s = grt::lay_out<grt::kNativeSizes>(blob, blob_size, strategy, options->arguments, &model, &counts, &layout, error);
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

  auto* lifetimes = reinterpret_cast<grt::Lifetime*>(base + layout.lifetimes);
  s = grt::check_model_graph(model, lifetimes, error);
  if (s != GRT_OK) return s;
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
  }

  if (!grt::is_dynamic(strategy)) {
    grt_memory memory = options->memory;
    void* shared_buffers[GRT_MAX_POOLS];
    size_t shared_sizes[GRT_MAX_POOLS];
    const grt_shared_pool* shared = options->shared_pool;
    if (shared != nullptr && shared->ops == nullptr) {
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
    return fail(&x->error, GRT_ERR_ARGUMENT, nullptr, "executor holds no memory: it was released; bind an allocator again first");
  }
  grt::SharedPoolHold shared_pool_hold(x, x->shared_pool);
  if (shared_pool_hold.status() != GRT_OK) return shared_pool_hold.status();
  x->cancel_requested.store(0, std::memory_order_relaxed);
  grt::CurrentExecutor current(x);
  if (grt::is_prepared(x) && !grt::is_scheduled(grt::strategy_of(x)) && x->hooks == nullptr) return grt::run_static(x);
  return grt::run_general(x);
}

void grt_cancel(grt_executor* x) {
  if (x != nullptr) x->cancel_requested.store(1, std::memory_order_relaxed);
}

void grt_release(grt_executor* x) {
  if (x == nullptr || !grt::is_dynamic(grt::strategy_of(x))) return;
  x->memory_held = false;
  // Reverse order keeps a stack allocator's frees LIFO.
  if (grt::is_stack(grt::strategy_of(x)) && x->stack_workspace != nullptr) {
    grt_free(x->allocator, x->stack_workspace);
    x->stack_workspace = nullptr;
  }
  for (uint32_t t = x->tensor_count; t > 0; --t) {
    if (x->owned[t - 1] == nullptr) continue;
    grt_free(x->allocator, x->owned[t - 1]);
    x->owned[t - 1] = nullptr;
  }
  grt::bind_tensors(x);
}

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
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "only GRT_STRATEGY_DYNAMIC and GRT_STRATEGY_STACK make allocator calls");
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
  if (out == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "page budget output is NULL");
  memset(out, 0, sizeof(*out));
  if (!grt::is_dynamic(strategy)) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "a page budget needs GRT_STRATEGY_DYNAMIC or GRT_STRATEGY_STACK");
  }
  if (!grt::valid_page_size(page_size) || (policy != GRT_PAGE_FIRST_FIT && policy != GRT_PAGE_BEST_FIT)) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "page size %u is not a power of two >= 16, or the policy is unknown", page_size);
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
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "model needs up to %u pages of %u bytes; choose larger pages", most_pages, page_size);
  }
  const size_t bookkeeping = requirements.bookkeeping_bytes;  // a multiple of 8
  out->scratch_bytes = bookkeeping + static_cast<size_t>(most_pages) * GRT_PAGE_METADATA_BYTES_PER_PAGE;
  if (scratch == nullptr || scratch_size < out->scratch_bytes || reinterpret_cast<uintptr_t>(scratch) % 8 != 0) {
    return fail(error, GRT_ERR_STORAGE_TOO_SMALL, nullptr, "page budget needs %u bytes of 8-byte aligned scratch, %u given",
                out->scratch_bytes, scratch == nullptr ? 0 : scratch_size);
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
  if (!grt::is_dynamic(grt::strategy_of(x))) {
    return fail(&x->error, GRT_ERR_ARGUMENT, nullptr, "only GRT_STRATEGY_DYNAMIC and GRT_STRATEGY_STACK executors use an allocator");
  }
  if (allocator == nullptr || allocator->allocate == nullptr || allocator->free == nullptr) {
    return fail(&x->error, GRT_ERR_ARGUMENT, nullptr, "the new allocator needs allocate and free");
  }
  grt_release(x);
  x->allocator = allocator;
  const grt_status s = grt::bind_allocator(x, &x->error);
  if (s != GRT_OK) return s;
  grt::bind_tensors(x);
  grt::clear_error(&x->error);
  x->memory_held = true;
  return GRT_OK;
}

}  // extern "C"
