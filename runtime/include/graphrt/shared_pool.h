/* One activation buffer shared by several executors that never run at the same time (two
 * models in two RTOS tasks, run one after the other). Each executor is bound to the shared
 * pool at init (grt_options.shared_pool) and its plan's pools are placed in the shared
 * buffer, so the buffer only needs to be as large as the largest plan.
 *
 * Ownership is one atomic pointer: grt_run takes the pool (compare-and-swap) and gives it
 * back when it returns; if another executor holds it, grt_run fails at once with
 * GRT_ERR_BUSY and an error naming the holder. Because the outputs of a run live in the
 * shared buffer too, an application that writes inputs, runs and then reads outputs holds
 * the pool across all three with grt_shared_pool_acquire / _release, or passes it on with
 * grt_shared_pool_hand_over. Nothing here blocks, allocates or takes a lock.
 *
 *   static uint8_t arena[ACTIVATIONS_BYTES] __attribute__((aligned(16)));
 *   grt_shared_pool shared;
 *   grt_shared_pool_init(&shared, "activations", arena, sizeof arena);
 *   options.shared_pool = &shared;           (and memory.pool_buffers = NULL)
 *   grt_init(&kws, ...); grt_init(&vww, ...);
 */
#ifndef GRAPHRT_SHARED_POOL_H_
#define GRAPHRT_SHARED_POOL_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/graphrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_shared_pool {
  /* Private: set by grt_shared_pool_init, read through the functions below. */
  uint8_t* buffer;
  size_t size;
  const char* name;
  grt_executor* owner; /* only ever accessed atomically */
  /* What grt_init and grt_run call: reached through here so that programs without a
   * shared pool do not link its code. */
  const struct grt_shared_pool_ops* ops;
} grt_shared_pool;

/* A shared pool over buffer (which must outlive every executor bound to it). name appears
 * in messages and must outlive the pool; NULL means "shared". */
grt_status grt_shared_pool_init(grt_shared_pool* pool, const char* name, void* buffer, size_t size);

/* Bytes a shared buffer aligned to the largest pool alignment (16 for plans made by
 * `graphrt plan`) needs to hold the pools described by requirements (from
 * grt_model_requirements with GRT_STRATEGY_STATIC). Size the buffer for the largest of
 * the models that share it. */
size_t grt_shared_pool_bytes(const grt_requirements* requirements);

/* Takes the pool for executor, which must be bound to it. GRT_OK if it was free or already
 * held by executor; GRT_ERR_BUSY if another executor holds it (the executor's last error
 * names the holder). Safe from any task or interrupt. */
grt_status grt_shared_pool_acquire(grt_shared_pool* pool, grt_executor* executor);

/* Gives the pool back. GRT_ERR_ARGUMENT, with a message, if executor does not hold it. */
grt_status grt_shared_pool_release(grt_shared_pool* pool, grt_executor* executor);

/* Passes the pool from one executor straight to another, with no moment in which a third
 * could take it. GRT_ERR_BUSY (message on `from`) if `from` does not hold it. */
grt_status grt_shared_pool_hand_over(grt_shared_pool* pool, grt_executor* from, grt_executor* to);

/* The executor that holds the pool now, or NULL. A single atomic load: safe anywhere. */
const grt_executor* grt_shared_pool_owner(const grt_shared_pool* pool);

/* How messages name an executor: grt_options.name, else the model's name, else "unnamed". */
const char* grt_executor_name(const grt_executor* executor);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_SHARED_POOL_H_ */
