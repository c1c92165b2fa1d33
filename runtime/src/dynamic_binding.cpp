// GRT_STRATEGY_DYNAMIC and GRT_STRATEGY_STACK: memory from the caller's allocator. What
// init takes and holds (inputs and outputs, or every activation), the dynamic strategy's
// schedule of the rest (taken and given back inside run()), and changing allocators.
#include "executor_internal.h"
#include "graphrt/dynamic_memory.h"
#include "message.h"

namespace grt {

// Figures first: "out of memory: 16 bytes (allocator has 32 in use, largest free 8) for
// tensor 1 't1' at node 0 (copy)". The names come last and give way (message.h).
grt_status fail_out_of_memory(grt_executor* x, grt_error* error, int64_t node, uint32_t tensor, size_t bytes) {
  const fb::Model* m = x->model;
  if (tensor != UINT32_MAX) {
    fail(error, GRT_ERR_OUT_OF_MEMORY, m, "out of memory: %u bytes", bytes);
  } else {
    fail(error, GRT_ERR_OUT_OF_MEMORY, m, "out of memory: a workspace of %u bytes", bytes);
  }
  if (x->allocator->stats != nullptr) {
    grt_allocator_stats stats{};
    x->allocator->stats(x->allocator->context, &stats);
    append(error, m, " (allocator has %u in use", stats.bytes_in_use);
    if (stats.largest_free != SIZE_MAX) append(error, m, ", largest free %u", stats.largest_free);
    append(error, m, ")");
  }
  if (tensor != UINT32_MAX) append(error, m, " for %t", tensor);
  if (node >= 0 && tensor != UINT32_MAX) append(error, m, " at %n", node);
  if (node >= 0 && tensor == UINT32_MAX) append(error, m, " for %n", node);
  return GRT_ERR_OUT_OF_MEMORY;
}

// Dynamic strategies: inputs, outputs and state (DYNAMIC) or every activation and state
// (STACK) are taken once here and held until grt_release. The caller points tensors at them (bind_tensors).
grt_status bind_allocator(grt_executor* x, grt_error* error) {
  for (uint32_t t = 0; t < x->tensor_count; ++t) x->owned[t] = nullptr;
  for (uint32_t t = 0; t < x->tensor_count; ++t) {
    const auto* tensor = x->model->tensors()->Get(t);
    const bool state = tensor->kind() == fb::TensorKind::State;
    if (tensor->kind() != fb::TensorKind::Activation && !state) continue;
    if (is_scheduled(strategy_of(x)) && !is_io(x->model, t) && !state) continue;
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
    for (uint32_t n = 0; n < node_count(x); ++n) {  // a blob may have no nodes vector
      const uint64_t bytes = x->model->nodes()->Get(n)->workspace_bytes();
      if (bytes > max_workspace) max_workspace = bytes;
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

}  // namespace grt

using grt::fail;

extern "C" {

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
  grt::reset_state(x);
  grt::clear_error(&x->error);
  x->memory_held = true;
  return GRT_OK;
}

}  // extern "C"
