/* First-fit heap with coalescing: a list of blocks laid end to end in one array, each
 * preceded by a header with its size and whether it is free. Deliberately simple: it
 * stands in for the RTOS's allocator, which graphrt cannot see into. */
#include "fake_rtos_heap.h"

#include <stdint.h>

typedef struct block_header {
  size_t size; /* payload bytes, a multiple of 8 */
  size_t free;
} block_header;

#define HEADER_BYTES ((sizeof(block_header) + 7u) & ~(size_t)7u)

static union {
  uint64_t align;
  unsigned char bytes[FAKE_RTOS_HEAP_BYTES];
} heap;
static int heap_ready = 0;

static block_header* block_at(size_t offset) { return (block_header*)(void*)(heap.bytes + offset); }

static void prepare(void) {
  if (heap_ready) return;
  block_at(0)->size = FAKE_RTOS_HEAP_BYTES - HEADER_BYTES;
  block_at(0)->free = 1;
  heap_ready = 1;
}

void fake_rtos_heap_reset(void) { heap_ready = 0; }

void* pvPortMalloc(size_t size) {
  size_t offset = 0;
  prepare();
  if (size == 0 || size > FAKE_RTOS_HEAP_BYTES) return NULL;
  size = (size + 7u) & ~(size_t)7u;
  for (offset = 0; offset < FAKE_RTOS_HEAP_BYTES; offset += HEADER_BYTES + block_at(offset)->size) {
    block_header* b = block_at(offset);
    if (!b->free || b->size < size) continue;
    if (b->size >= size + HEADER_BYTES + 8u) { /* split off the rest as a free block */
      block_header* rest = block_at(offset + HEADER_BYTES + size);
      rest->size = b->size - size - HEADER_BYTES;
      rest->free = 1;
      b->size = size;
    }
    b->free = 0;
    return heap.bytes + offset + HEADER_BYTES;
  }
  return NULL;
}

void vPortFree(void* ptr) {
  size_t offset = 0;
  if (ptr == NULL) return;
  block_at((size_t)((unsigned char*)ptr - heap.bytes) - HEADER_BYTES)->free = 1;
  /* Merge every run of free neighbours. */
  while (offset < FAKE_RTOS_HEAP_BYTES) {
    block_header* b = block_at(offset);
    const size_t next = offset + HEADER_BYTES + b->size;
    if (b->free && next < FAKE_RTOS_HEAP_BYTES && block_at(next)->free) {
      b->size += HEADER_BYTES + block_at(next)->size;
      continue;
    }
    offset = next;
  }
}

size_t xPortGetFreeHeapSize(void) {
  size_t offset = 0;
  size_t free_bytes = 0;
  prepare();
  for (offset = 0; offset < FAKE_RTOS_HEAP_BYTES; offset += HEADER_BYTES + block_at(offset)->size) {
    if (block_at(offset)->free) free_bytes += block_at(offset)->size;
  }
  return free_bytes;
}
