// Shared activation pools: one atomic owner pointer, taken by compare-and-swap. The GCC
// atomic builtins act on the plain pointer in the C struct (C99 callers cannot see a
// std::atomic); on Cortex-M3/M4/M7 they compile to LDREX/STREX, lock-free and ISR-safe.
#include "graphrt/shared_pool.h"

#include "message.h"
#include "executor_state.h"
#include "shared_pool_internal.h"

static_assert(__atomic_always_lock_free(sizeof(grt_executor*), 0), "the shared pool owner must be lock-free");

namespace grt {
namespace {

grt_executor* load_owner(const grt_shared_pool* pool) { return __atomic_load_n(&pool->owner, __ATOMIC_ACQUIRE); }

// Replaces `expected` with `desired`; on failure `*expected` is the actual owner.
bool swap_owner(grt_shared_pool* pool, grt_executor** expected, grt_executor* desired) {
  return __atomic_compare_exchange_n(&pool->owner, expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

const char* pool_name(const grt_shared_pool* pool) { return pool->name != nullptr ? pool->name : "shared"; }

grt_status report_busy(grt_executor* x, const grt_shared_pool* pool, const grt_executor* holder, const char* what) {
  return fail(&x->error, GRT_ERR_BUSY, nullptr, "shared pool %q is held by executor %q: %s of executor %q refused",
              pool_name(pool), grt_executor_name(holder), what, grt_executor_name(x));
}

grt_status check_bound(grt_shared_pool* pool, grt_executor* x) {
  if (pool == nullptr || x == nullptr) return GRT_ERR_ARGUMENT;
  if (x->shared_pool != pool) {
    return fail(&x->error, GRT_ERR_ARGUMENT, nullptr, "executor %q is not bound to shared pool %q", grt_executor_name(x), pool_name(pool));
  }
  return GRT_OK;
}

grt_status place_pools_in_shared_pool(const grt_shared_pool* pool, const fb::Model* model, grt_memory* memory,
                                      void** buffers, size_t* sizes, grt_error* error) {
  if (memory->strategy != GRT_STRATEGY_STATIC || memory->pool_buffers != nullptr) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "a shared pool needs GRT_STRATEGY_STATIC and no pool_buffers of its own");
  }
  if (pool->buffer == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "shared pool is not initialised");
  const auto* pools = model->pools();
  const uint32_t count = pools == nullptr ? 0 : pools->size();
  if (count > GRT_MAX_POOLS) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "the plan has %u pools, at most %u fit a shared pool", count, GRT_MAX_POOLS);
  }
  const uintptr_t start = reinterpret_cast<uintptr_t>(pool->buffer);
  uint64_t end = 0;  // bytes of the shared buffer used so far
  for (uint32_t p = 0; p < count; ++p) {
    const uint64_t alignment = pools->Get(p)->alignment() == 0 ? 1 : pools->Get(p)->alignment();
    const uint64_t address = start + end;
    const uint64_t aligned = (address + alignment - 1) / alignment * alignment;
    end = aligned - start + pools->Get(p)->size();
    buffers[p] = pool->buffer + (aligned - start);
    sizes[p] = static_cast<size_t>(pools->Get(p)->size());
  }
  if (end > pool->size) {
    const char* name = model->name() != nullptr ? model->name()->c_str() : "";
    return fail(error, GRT_ERR_POOL_TOO_SMALL, nullptr, "shared pool %q needs %u bytes for model %q, %u given",
                pool_name(pool), end, name, pool->size);
  }
  memory->pool_buffers = buffers;
  memory->pool_sizes = sizes;
  memory->pool_count = count;
  return GRT_OK;
}

grt_status take_for_run(grt_executor* x, bool* taken_here) {
  grt_executor* holder = nullptr;
  *taken_here = swap_owner(x->shared_pool, &holder, x);
  if (*taken_here || holder == x) return GRT_OK;
  return report_busy(x, x->shared_pool, holder, "run");
}

void give_back(grt_executor* x) {
  grt_executor* expected = x;
  swap_owner(x->shared_pool, &expected, nullptr);
}

constexpr grt_shared_pool_ops kSharedPoolOps = {place_pools_in_shared_pool, take_for_run, give_back};

}  // namespace

}  // namespace grt

extern "C" {

grt_status grt_shared_pool_init(grt_shared_pool* pool, const char* name, void* buffer, size_t size) {
  if (pool == nullptr || buffer == nullptr) return GRT_ERR_ARGUMENT;
  pool->buffer = static_cast<uint8_t*>(buffer);
  pool->size = size;
  pool->name = name;
  pool->ops = &grt::kSharedPoolOps;
  __atomic_store_n(&pool->owner, nullptr, __ATOMIC_RELEASE);
  return GRT_OK;
}

size_t grt_shared_pool_bytes(const grt_requirements* r) {
  if (r == nullptr) return 0;
  size_t end = 0;
  for (uint32_t p = 0; p < r->pool_count && p < GRT_MAX_POOLS; ++p) {
    const size_t alignment = r->pool_alignment[p] == 0 ? 1 : r->pool_alignment[p];
    end = (end + alignment - 1) / alignment * alignment + r->pool_bytes[p];
  }
  return end;
}

grt_status grt_shared_pool_acquire(grt_shared_pool* pool, grt_executor* x) {
  const grt_status s = grt::check_bound(pool, x);
  if (s != GRT_OK) return s;
  grt_executor* holder = nullptr;
  if (grt::swap_owner(pool, &holder, x) || holder == x) return GRT_OK;
  return grt::report_busy(x, pool, holder, "acquire");
}

grt_status grt_shared_pool_release(grt_shared_pool* pool, grt_executor* x) {
  const grt_status s = grt::check_bound(pool, x);
  if (s != GRT_OK) return s;
  grt_executor* holder = x;
  if (grt::swap_owner(pool, &holder, nullptr)) return GRT_OK;
  if (holder == nullptr) {
    return grt::fail(&x->error, GRT_ERR_ARGUMENT, nullptr, "executor %q releases shared pool %q but nobody holds it",
                     grt_executor_name(x), grt::pool_name(pool));
  }
  return grt::fail(&x->error, GRT_ERR_ARGUMENT, nullptr, "executor %q releases shared pool %q but executor %q holds it",
                   grt_executor_name(x), grt::pool_name(pool), grt_executor_name(holder));
}

grt_status grt_shared_pool_hand_over(grt_shared_pool* pool, grt_executor* from, grt_executor* to) {
  grt_status s = grt::check_bound(pool, from);
  if (s == GRT_OK) s = grt::check_bound(pool, to);
  if (s != GRT_OK) return s;
  grt_executor* holder = from;
  if (grt::swap_owner(pool, &holder, to)) return GRT_OK;
  if (holder == nullptr) {
    return grt::fail(&from->error, GRT_ERR_BUSY, nullptr, "executor %q hands over shared pool %q but does not hold it", grt_executor_name(from), grt::pool_name(pool));
  }
  return grt::report_busy(from, pool, holder, "hand-over");
}

const grt_executor* grt_shared_pool_owner(const grt_shared_pool* pool) {
  return pool == nullptr ? nullptr : grt::load_owner(pool);
}

const char* grt_executor_name(const grt_executor* x) {
  if (x == nullptr) return "none";
  if (x->name != nullptr) return x->name;
  if (x->model->name() != nullptr && x->model->name()->size() != 0) return x->model->name()->c_str();
  return "unnamed";
}

}  // extern "C"
