// What grt_init and grt_run need from the shared pool (graphrt/shared_pool.h): placing a
// plan's pools in the shared buffer, and holding the pool for the length of one run.
#ifndef GRAPHRT_SHARED_POOL_INTERNAL_H_
#define GRAPHRT_SHARED_POOL_INTERNAL_H_

#include "graphrt/graphrt.h"
#include "graphrt/shared_pool.h"
#include "model_check.h"

namespace grt {

// Points memory->pool_buffers/pool_sizes/pool_count at places in the shared buffer, one
// after another at each pool's alignment (buffers and sizes: GRT_MAX_POOLS entries each).
grt_status place_pools_in_shared_pool(const grt_shared_pool* pool, const fb::Model* model, grt_memory* memory,
                                      void** buffers, size_t* sizes, grt_error* error);

// Takes the executor's shared pool for one run and gives it back on scope exit, unless the
// executor already held it (grt_shared_pool_acquire), in which case it keeps holding it.
class SharedPoolHold {
 public:
  explicit SharedPoolHold(grt_executor* x);
  ~SharedPoolHold();
  SharedPoolHold(const SharedPoolHold&) = delete;
  SharedPoolHold& operator=(const SharedPoolHold&) = delete;
  // GRT_OK, or GRT_ERR_BUSY with the executor's error naming the holder.
  grt_status status() const { return status_; }

 private:
  grt_executor* executor_;
  bool taken_here_ = false;
  grt_status status_ = GRT_OK;
};

}  // namespace grt

#endif  // GRAPHRT_SHARED_POOL_INTERNAL_H_
