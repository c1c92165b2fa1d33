/* Page allocator: fixed-size pages over a user buffer; every allocation is one run of
 * contiguous pages, and freeing a run merges it with free neighbours at once.
 *
 * Its metadata is one 32-bit entry per page, kept apart from the data pages (in memory the
 * user provides, or at the end of one buffer with grt_page_init_buffer), so a kernel that
 * writes past its tensor cannot corrupt the allocator's bookkeeping.
 *
 * Statistics count whole pages: bytes_in_use and peak_bytes are pages x page size, which
 * is what a buffer has to hold. Every allocation, even of zero bytes, takes at least one
 * page, so its pointer is unique and can be freed. Alignments up to the page size cost
 * nothing (pages are page-size aligned); larger ones are served by skipping to the first
 * page on that boundary, leaving the skipped pages free. */
#ifndef GRAPHRT_PAGE_ALLOCATOR_H_
#define GRAPHRT_PAGE_ALLOCATOR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graphrt/allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_PAGE_MIN_SIZE 16u
/* Bytes of metadata per data page (one uint32_t). */
#define GRT_PAGE_METADATA_BYTES_PER_PAGE 4u
/* Most pages one allocator can manage (run lengths are 30-bit). */
#define GRT_PAGE_MAX_COUNT (((size_t)1 << 30) - 1u)

typedef enum grt_page_policy {
  GRT_PAGE_FIRST_FIT = 0, /* the free run at the lowest address that fits: fast, predictable */
  GRT_PAGE_BEST_FIT = 1   /* the smallest free run that fits (lowest address on ties) */
} grt_page_policy;

typedef struct grt_page_allocator {
  uintptr_t first_page; /* address of page 0, a multiple of page_size */
  uint32_t* entries;    /* one per page; see page_allocator.cpp for the encoding */
  size_t page_size;
  size_t page_count;
  grt_page_policy policy;
  size_t pages_in_use;
  size_t peak_pages;
  size_t failed_requests;
  size_t invalid_frees; /* frees of pointers that are not the start of a live allocation */
} grt_page_allocator;

typedef struct grt_page_stats {
  size_t page_size;
  size_t page_count;
  size_t pages_in_use;
  size_t peak_pages;
  size_t free_pages;
  size_t free_runs;          /* separate stretches of free pages */
  size_t largest_free_run;   /* in pages */
  size_t failed_requests;
  size_t invalid_frees;
  /* How much of the free memory a single request cannot use, in percent:
   * 100 x (1 - largest_free_run / free_pages); 0 when all free pages are one run. */
  uint32_t fragmentation_percent;
} grt_page_stats;

/* Metadata bytes for the pages that fit in data_bytes of page-size aligned memory. */
size_t grt_page_metadata_bytes(size_t data_bytes, size_t page_size);

/* Bytes of one page_size-aligned buffer that holds page_count pages and their metadata,
 * as grt_page_init_buffer lays it out: page_count x (page_size + 4). */
size_t grt_page_buffer_bytes(size_t page_count, size_t page_size);

/* Pages over data (its start rounded up to page_size; whole pages only), metadata in a
 * separate 4-byte aligned buffer of at least grt_page_metadata_bytes. page_size must be a
 * power of two >= GRT_PAGE_MIN_SIZE. Returns false, leaving an allocator with no pages, if
 * an argument is unusable or the metadata is too small. */
bool grt_page_init(grt_page_allocator* allocator, void* data, size_t data_size, void* metadata,
                   size_t metadata_size, size_t page_size, grt_page_policy policy);

/* One buffer for both: as many pages as fit at its start (after rounding the start up to
 * page_size), their metadata after them. With a page_size-aligned buffer of
 * grt_page_buffer_bytes(n, page_size) bytes that is exactly n pages. */
bool grt_page_init_buffer(grt_page_allocator* allocator, void* buffer, size_t size, size_t page_size,
                          grt_page_policy policy);

/* A run of whole pages aligned to alignment (a power of two), or NULL (counted). */
void* grt_page_allocate(grt_page_allocator* allocator, size_t size, size_t alignment);
/* Returns a run; NULL is ignored, anything else that is not a live allocation is counted
 * in invalid_frees and ignored. */
void grt_page_free(grt_page_allocator* allocator, void* ptr);

void grt_page_get_stats(const grt_page_allocator* allocator, grt_page_stats* out);

/* The grt_allocator view. Its largest_free is the largest free run in bytes. */
grt_allocator grt_page_as_allocator(grt_page_allocator* allocator);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_PAGE_ALLOCATOR_H_ */
