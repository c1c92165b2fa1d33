/* The worked "bring your own allocator" example (docs/memory.md): graphrt's allocator
 * interface over an RTOS heap that only offers pvPortMalloc/vPortFree. Plain C99. */
#ifndef GRAPHRT_TESTS_RTOS_ALLOCATOR_H_
#define GRAPHRT_TESTS_RTOS_ALLOCATOR_H_

#include "graphrt/allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rtos_allocator {
  size_t bytes_in_use;
  size_t peak_bytes;
  size_t failed_requests;
} rtos_allocator;

grt_allocator rtos_allocator_view(rtos_allocator* state);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_TESTS_RTOS_ALLOCATOR_H_ */
