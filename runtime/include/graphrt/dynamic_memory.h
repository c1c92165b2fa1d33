/* What the allocator-backed strategies (GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK) add to
 * graphrt.h: exact memory budgets for a given allocator, found by replaying the allocator
 * calls an executor makes, and handing an executor more memory after it ran out. (C99) */
#ifndef GRAPHRT_DYNAMIC_MEMORY_H_
#define GRAPHRT_DYNAMIC_MEMORY_H_

#include <stddef.h>

#include "graphrt/graphrt.h"
#include "graphrt/page_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes against `allocator` exactly the allocate and free calls that grt_init, one
 * grt_run and grt_release make for `blob` under `strategy` (DYNAMIC or STACK), in the same
 * order and with the same sizes and alignments, without calling any kernel or touching a
 * byte the allocator hands out. storage: grt_model_requirements' bookkeeping_bytes for the
 * strategy (8-byte aligned; reusable afterwards). Returns GRT_OK if every request was
 * served, otherwise the status and message init or run would give, e.g.
 * GRT_ERR_OUT_OF_MEMORY naming the node, tensor and sizes. Everything taken is returned,
 * so the allocator's peak statistic is what the model needs from it. */
grt_status grt_replay_allocations(const void* blob, size_t blob_size, grt_strategy strategy,
                                  const grt_allocator* allocator, void* storage, size_t storage_size,
                                  grt_error* error);

typedef struct grt_page_budget {
  size_t page_count;     /* the fewest pages with which init and run succeed */
  size_t buffer_bytes;   /* grt_page_buffer_bytes(page_count, page_size): one page_size-aligned
                            buffer for grt_page_init_buffer, metadata included */
  size_t metadata_bytes; /* of buffer_bytes, the metadata (when pages and metadata are apart) */
  size_t peak_pages;     /* most pages live at once; page_count - peak_pages is what
                            fragmentation costs under this policy */
  size_t scratch_bytes;  /* scratch memory this call needs */
} grt_page_budget;

/* The smallest page allocator (page_size, policy) with which grt_init and grt_run of
 * `blob` under `strategy` succeed: fewer pages fail. A page allocator returns to the same
 * state after each run, so every later run succeeds too. Under GRT_PAGE_FIRST_FIT any larger
 * buffer works as well; under GRT_PAGE_BEST_FIT a larger buffer can, rarely, fragment
 * differently, so use this size (or check yours with grt_replay_allocations).
 * scratch: 8-byte aligned, out->scratch_bytes long (bookkeeping plus metadata for the
 * worst case); with too little (or NULL) the call fills only out->scratch_bytes and returns
 * GRT_ERR_STORAGE_TOO_SMALL, so call it once to learn the size. */
grt_status grt_page_required_bytes(const void* blob, size_t blob_size, grt_strategy strategy,
                                   size_t page_size, grt_page_policy policy, void* scratch,
                                   size_t scratch_size, grt_page_budget* out, grt_error* error);

/* Gives a DYNAMIC or STACK executor memory again, e.g. after grt_run failed with
 * GRT_ERR_OUT_OF_MEMORY: returns everything it holds to its current allocator, then takes
 * what init takes (inputs and outputs; under STACK every activation) from `allocator`,
 * which from then on serves run(). The contents of inputs are not kept: write them again.
 * On failure the executor holds nothing and must be given memory again before it runs.
 * (An executor can also recover without this call: run() asks its allocator afresh each
 * time, so freeing memory in a shared allocator, or raising a limit, is enough.) */
grt_status grt_set_allocator(grt_executor* executor, const grt_allocator* allocator);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_DYNAMIC_MEMORY_H_ */
