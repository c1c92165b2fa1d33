// GRT_STRATEGY_STATIC: the plan's pools bound to the buffers the caller hands in (or the
// places a shared pool gives them), after checking each one's size and alignment.
#include "executor_internal.h"
#include "message.h"

namespace grt {

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

}  // namespace grt
