// Heap adapter: aligned blocks from the C heap, with a small header in front that records
// the request so statistics stay exact.
#include "graphrt/heap_allocator.h"

#include <stdlib.h>
#include <string.h>

namespace {

struct HeapHeader {
  void* block;  // what malloc returned
  size_t size;  // what the caller asked for
};

void* heap_allocate(void* context, size_t size, size_t alignment) {
  auto* heap = static_cast<grt_heap_allocator*>(context);
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 ||
      (heap->limit != 0 && (size > heap->limit || heap->bytes_in_use > heap->limit - size))) {
    heap->failed_requests++;
    return nullptr;
  }
  if (alignment < alignof(HeapHeader)) alignment = alignof(HeapHeader);
  const size_t total = size + sizeof(HeapHeader) + alignment;
  if (total < size) {
    heap->failed_requests++;
    return nullptr;
  }
  void* block = malloc(total);
  if (block == nullptr) {
    heap->failed_requests++;
    return nullptr;
  }
  uintptr_t payload = reinterpret_cast<uintptr_t>(block) + sizeof(HeapHeader);
  payload = (payload + alignment - 1) & ~static_cast<uintptr_t>(alignment - 1);
  HeapHeader* h = reinterpret_cast<HeapHeader*>(payload) - 1;
  h->block = block;
  h->size = size;
  heap->bytes_in_use += size;
  if (heap->bytes_in_use > heap->peak_bytes) heap->peak_bytes = heap->bytes_in_use;
  return reinterpret_cast<void*>(payload);
}

void heap_free(void* context, void* ptr) {
  if (ptr == nullptr) return;
  auto* heap = static_cast<grt_heap_allocator*>(context);
  HeapHeader* h = static_cast<HeapHeader*>(ptr) - 1;
  heap->bytes_in_use -= h->size;
  free(h->block);
}

void heap_stats(const void* context, grt_allocator_stats* out) {
  const auto* heap = static_cast<const grt_heap_allocator*>(context);
  out->bytes_in_use = heap->bytes_in_use;
  out->peak_bytes = heap->peak_bytes;
  out->failed_requests = heap->failed_requests;
  out->largest_free = heap->limit == 0 ? SIZE_MAX : heap->limit - heap->bytes_in_use;
}

}  // namespace

extern "C" {

void grt_heap_init(grt_heap_allocator* heap, size_t limit) {
  memset(heap, 0, sizeof(*heap));
  heap->limit = limit;
}

grt_allocator grt_heap_as_allocator(grt_heap_allocator* heap) {
  grt_allocator a;
  a.allocate = heap_allocate;
  a.free = heap_free;
  a.stats = heap_stats;
  a.context = heap;
  return a;
}

}  // extern "C"
