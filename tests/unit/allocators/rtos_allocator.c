/* pvPortMalloc only promises 8-byte alignment and its free needs the pointer it returned,
 * so each allocation asks for room to align and keeps a small header just before the
 * aligned payload: the block to give back and the size asked for (for exact statistics). */
#include "rtos_allocator.h"

#include <stdint.h>

#include "fake_rtos_heap.h"

typedef struct rtos_block {
  void* block;
  size_t size;
} rtos_block;

static void* rtos_allocate(void* context, size_t size, size_t alignment) {
  rtos_allocator* state = (rtos_allocator*)context;
  uintptr_t payload;
  void* block;
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  if ((alignment & (alignment - 1)) != 0 || size > SIZE_MAX - sizeof(rtos_block) - alignment) {
    state->failed_requests++;
    return NULL;
  }
  block = pvPortMalloc(size + sizeof(rtos_block) + alignment - 1);
  if (block == NULL) {
    state->failed_requests++;
    return NULL;
  }
  payload = ((uintptr_t)block + sizeof(rtos_block) + alignment - 1) & ~(uintptr_t)(alignment - 1);
  ((rtos_block*)payload)[-1].block = block;
  ((rtos_block*)payload)[-1].size = size;
  state->bytes_in_use += size;
  if (state->bytes_in_use > state->peak_bytes) state->peak_bytes = state->bytes_in_use;
  return (void*)payload;
}

static void rtos_free(void* context, void* ptr) {
  rtos_allocator* state = (rtos_allocator*)context;
  if (ptr == NULL) return;
  state->bytes_in_use -= ((rtos_block*)ptr)[-1].size;
  vPortFree(((rtos_block*)ptr)[-1].block);
}

static void rtos_stats(const void* context, grt_allocator_stats* out) {
  const rtos_allocator* state = (const rtos_allocator*)context;
  out->bytes_in_use = state->bytes_in_use;
  out->peak_bytes = state->peak_bytes;
  out->failed_requests = state->failed_requests;
  out->largest_free = SIZE_MAX; /* the RTOS reports free bytes, not the largest block */
}

grt_allocator rtos_allocator_view(rtos_allocator* state) {
  grt_allocator view;
  view.allocate = rtos_allocate;
  view.free = rtos_free;
  view.stats = rtos_stats;
  view.context = state;
  return view;
}
