// What grt_init and grt_run need from a shared pool (graphrt/shared_pool.h), reached through
// the pool so that only programs that use one link its code.
#ifndef GRAPHRT_SHARED_POOL_INTERNAL_H_
#define GRAPHRT_SHARED_POOL_INTERNAL_H_

#include "graphrt/graphrt.h"
#include "graphrt/shared_pool.h"
#include "model_check.h"

// Set by grt_shared_pool_init; NULL in a pool that was never initialised.
struct grt_shared_pool_ops {
  // Points memory->pool_buffers/pool_sizes/pool_count at places in the shared buffer, one
  // after another at each pool's alignment (buffers and sizes: GRT_MAX_POOLS entries each).
  grt_status (*place)(const grt_shared_pool* pool, const grt::fb::Model* model, grt_memory* memory, void** buffers,
                      size_t* sizes, grt_error* error);
  // Takes the executor's pool for one run: GRT_OK (*taken_here: this call took it, rather
  // than an earlier grt_shared_pool_acquire), or GRT_ERR_BUSY with a message naming the holder.
  grt_status (*take_for_run)(grt_executor* x, bool* taken_here);
  void (*give_back)(grt_executor* x);
};

namespace grt {

// Holds the executor's shared pool (if any) for the length of one run.
class SharedPoolHold {
 public:
  SharedPoolHold(grt_executor* x, grt_shared_pool* pool) : executor_(x), pool_(pool) {
    if (pool_ != nullptr) status_ = pool_->ops->take_for_run(x, &taken_here_);
  }
  ~SharedPoolHold() {
    if (taken_here_) pool_->ops->give_back(executor_);
  }
  SharedPoolHold(const SharedPoolHold&) = delete;
  SharedPoolHold& operator=(const SharedPoolHold&) = delete;
  grt_status status() const { return status_; }

 private:
  grt_executor* executor_;
  grt_shared_pool* pool_;
  bool taken_here_ = false;
  grt_status status_ = GRT_OK;
};

}  // namespace grt

#endif  // GRAPHRT_SHARED_POOL_INTERNAL_H_
