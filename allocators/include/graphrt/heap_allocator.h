/* A grt_allocator over the C heap, for hosts and tests. It is the one allocator in graphrt
 * that calls malloc, and only when a caller chooses it. */
#ifndef GRAPHRT_HEAP_ALLOCATOR_H_
#define GRAPHRT_HEAP_ALLOCATOR_H_

#include "graphrt/allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_heap_allocator {
  size_t bytes_in_use;
  size_t peak_bytes;
  size_t failed_requests;
  size_t limit; /* refuse requests that would exceed this many bytes in use; 0: no limit */
} grt_heap_allocator;

void grt_heap_init(grt_heap_allocator* heap, size_t limit);
grt_allocator grt_heap_as_allocator(grt_heap_allocator* heap);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_HEAP_ALLOCATOR_H_ */
