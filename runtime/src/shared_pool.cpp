// Shared activation pools: one atomic owner pointer, taken by compare-and-swap. The GCC
// atomic builtins act on the plain pointer in the C struct (C99 callers cannot see a
// std::atomic); on Cortex-M3/M4/M7 they compile to LDREX/STREX, lock-free and ISR-safe.
#include "graphrt/shared_pool.h"

#include "error_text.h"
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
  ErrorText e(&x->error);
  e.text("shared pool ").quoted(pool_name(pool)).text(" is held by executor ").quoted(grt_executor_name(holder))
      .text(": ").text(what).text(" of executor ").quoted(grt_executor_name(x)).text(" refused");
  return e.status(GRT_ERR_BUSY);
}

grt_status check_bound(grt_shared_pool* pool, grt_executor* x) {
  if (pool == nullptr || x == nullptr) return GRT_ERR_ARGUMENT;
  if (x->shared_pool != pool) {
    return ErrorText(&x->error).text("executor ").quoted(grt_executor_name(x)).text(" is not bound to shared pool ")
        .quoted(pool_name(pool)).status(GRT_ERR_ARGUMENT);
  }
  return GRT_OK;
}

}  // namespace

grt_status place_pools_in_shared_pool(const grt_shared_pool* pool, const fb::Model* model, grt_memory* memory,
                                      void** buffers, size_t* sizes, grt_error* error) {
  if (memory->strategy != GRT_STRATEGY_STATIC || memory->pool_buffers != nullptr) {
    return ErrorText(error).text("a shared pool needs GRT_STRATEGY_STATIC and no pool_buffers of its own")
        .status(GRT_ERR_ARGUMENT);
  }
  if (pool->buffer == nullptr) return ErrorText(error).text("shared pool is not initialised").status(GRT_ERR_ARGUMENT);
  const auto* pools = model->pools();
  const uint32_t count = pools == nullptr ? 0 : pools->size();
  if (count > GRT_MAX_POOLS) {
    return ErrorText(error).text("the plan has ").number(count).text(" pools, at most ").number(GRT_MAX_POOLS)
        .text(" fit a shared pool").status(GRT_ERR_ARGUMENT);
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
    ErrorText e(error);
    e.text("shared pool ").quoted(pool_name(pool)).text(" needs ").number(end).text(" bytes for model ");
    const char* name = model->name() != nullptr ? model->name()->c_str() : "";
    return e.quoted(name).text(", ").number(pool->size).text(" given").status(GRT_ERR_POOL_TOO_SMALL);
  }
  memory->pool_buffers = buffers;
  memory->pool_sizes = sizes;
  memory->pool_count = count;
  return GRT_OK;
}

SharedPoolHold::SharedPoolHold(grt_executor* x) : executor_(x) {
  grt_shared_pool* pool = x->shared_pool;
  if (pool == nullptr) return;
  grt_executor* holder = nullptr;
  if (swap_owner(pool, &holder, x)) {
    taken_here_ = true;
  } else if (holder != x) {
    status_ = report_busy(x, pool, holder, "run");
  }
}

SharedPoolHold::~SharedPoolHold() {
  if (!taken_here_) return;
  grt_executor* expected = executor_;
  swap_owner(executor_->shared_pool, &expected, nullptr);
}

}  // namespace grt

extern "C" {

grt_status grt_shared_pool_init(grt_shared_pool* pool, const char* name, void* buffer, size_t size) {
  if (pool == nullptr || buffer == nullptr) return GRT_ERR_ARGUMENT;
  pool->buffer = static_cast<uint8_t*>(buffer);
  pool->size = size;
  pool->name = name;
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
  grt::ErrorText e(&x->error);
  e.text("executor ").quoted(grt_executor_name(x)).text(" releases shared pool ").quoted(grt::pool_name(pool))
      .text(" but ").text(holder == nullptr ? "nobody" : "executor ");
  if (holder != nullptr) e.quoted(grt_executor_name(holder));
  return e.text(" holds it").status(GRT_ERR_ARGUMENT);
}

grt_status grt_shared_pool_hand_over(grt_shared_pool* pool, grt_executor* from, grt_executor* to) {
  grt_status s = grt::check_bound(pool, from);
  if (s == GRT_OK) s = grt::check_bound(pool, to);
  if (s != GRT_OK) return s;
  grt_executor* holder = from;
  if (grt::swap_owner(pool, &holder, to)) return GRT_OK;
  if (holder == nullptr) {
    return grt::ErrorText(&from->error).text("executor ").quoted(grt_executor_name(from)).text(" hands over shared pool ")
        .quoted(grt::pool_name(pool)).text(" but does not hold it").status(GRT_ERR_BUSY);
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
