/* Proof that the allocator headers are plain C99: c_usage.c builds as C. */
#ifndef GRAPHRT_TESTS_C_USAGE_H_
#define GRAPHRT_TESTS_C_USAGE_H_

#include "graphrt/page_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A best-fit page allocator with 32-byte pages over `buffer`, returned as its grt_allocator view. */
grt_allocator c_page_allocator(grt_page_allocator* state, void* buffer, size_t size);
/* Asks the C API for a budget and replays it; returns the budget's page count or 0. */
size_t c_page_budget(const void* blob, size_t blob_size, void* scratch, size_t scratch_size);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_TESTS_C_USAGE_H_ */
