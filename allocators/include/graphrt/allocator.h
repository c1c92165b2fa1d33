/* The one memory interface graphrt's executor sees. A user can implement it in plain C:
 * fill a grt_allocator with three functions and a context pointer. */
#ifndef GRAPHRT_ALLOCATOR_H_
#define GRAPHRT_ALLOCATOR_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_allocator_stats {
  size_t bytes_in_use;   /* bytes handed out and not yet freed (as requested, not rounded;
                            the page allocator counts whole pages) */
  size_t peak_bytes;     /* the most bytes_in_use ever reached */
  size_t failed_requests;
  size_t largest_free;   /* largest request that would succeed now; SIZE_MAX if unknown */
} grt_allocator_stats;

typedef struct grt_allocator {
  /* Returns size bytes aligned to alignment (a power of two), or NULL. A zero size returns
   * a valid, unique-enough non-NULL pointer that must still be freed. */
  void* (*allocate)(void* context, size_t size, size_t alignment);
  /* Returns ptr (from allocate, or NULL) to the allocator. */
  void (*free)(void* context, void* ptr);
  void (*stats)(const void* context, grt_allocator_stats* out);
  void* context;
} grt_allocator;

static inline void* grt_allocate(const grt_allocator* a, size_t size, size_t alignment) {
  return a->allocate(a->context, size, alignment);
}
static inline void grt_free(const grt_allocator* a, void* ptr) { a->free(a->context, ptr); }

/* ---- Stack allocator: LIFO over a user buffer, with mark/release. ---------------------- */

typedef struct grt_stack_allocator {
  uint8_t* base;
  size_t capacity;
  size_t top;            /* bytes used, including headers and alignment padding */
  size_t newest;         /* payload offset of the newest live allocation, or SIZE_MAX */
  size_t bytes_in_use;
  size_t peak_bytes;
  size_t failed_requests;
  size_t lifo_violations; /* frees that were not of the most recent live allocation */
} grt_stack_allocator;

/* Bytes one allocation can take from a stack allocator whose buffer is 16-byte aligned:
 * the payload rounded to 16, a 16-byte header, and padding for alignments above 16. */
#define GRT_STACK_ALLOCATION_BYTES(size, alignment) \
  ((((size) + 15u) & ~(size_t)15u) + 16u + ((alignment) > 16u ? (alignment) - 16u : 0u))

void grt_stack_init(grt_stack_allocator* s, void* buffer, size_t size);
void* grt_stack_allocate(grt_stack_allocator* s, size_t size, size_t alignment);
/* Frees the most recent live allocation; a free out of LIFO order is counted and ignored. */
void grt_stack_free(grt_stack_allocator* s, void* ptr);
size_t grt_stack_mark(const grt_stack_allocator* s);
void grt_stack_release(grt_stack_allocator* s, size_t mark);
/* The grt_allocator view of a stack allocator. */
grt_allocator grt_stack_as_allocator(grt_stack_allocator* s);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_ALLOCATOR_H_ */
