// Stack allocator: each allocation is preceded by a 16-byte header that remembers the
// state before it, so a free pops exactly one allocation and an out-of-order free is
// caught by one comparison.
#include <stdint.h>

#include "graphrt/allocator.h"

namespace {

struct StackHeader {
  uint32_t previous_top;     // top before this allocation
  uint32_t previous_newest;  // newest live allocation before this one (UINT32_MAX: none)
  uint32_t size;             // bytes requested, for the statistics
  uint32_t reserved;
};
static_assert(sizeof(StackHeader) == 16, "the header keeps 16-byte alignment natural");
constexpr uint32_t kNone32 = UINT32_MAX;

StackHeader* header_of(uint8_t* payload) { return reinterpret_cast<StackHeader*>(payload) - 1; }

void pop_newest(grt_stack_allocator* s) {
  StackHeader* h = header_of(s->base + s->newest);
  s->bytes_in_use -= h->size;
  s->top = h->previous_top;
  s->newest = h->previous_newest == kNone32 ? SIZE_MAX : h->previous_newest;
}

}  // namespace

extern "C" {

void grt_stack_init(grt_stack_allocator* s, void* buffer, size_t size) {
  s->base = static_cast<uint8_t*>(buffer);
  s->capacity = (buffer == nullptr) ? 0 : (size > UINT32_MAX ? UINT32_MAX : size);
  s->top = 0;
  s->newest = SIZE_MAX;
  s->bytes_in_use = 0;
  s->peak_bytes = 0;
  s->failed_requests = 0;
  s->lifo_violations = 0;
}

void* grt_stack_allocate(grt_stack_allocator* s, size_t size, size_t alignment) {
  if (alignment < alignof(StackHeader)) alignment = alignof(StackHeader);
  if ((alignment & (alignment - 1)) != 0 || size > UINT32_MAX || s->capacity == 0) {
    s->failed_requests++;
    return nullptr;
  }
  const uintptr_t base = reinterpret_cast<uintptr_t>(s->base);
  const uintptr_t payload =
      (base + s->top + sizeof(StackHeader) + alignment - 1) & ~static_cast<uintptr_t>(alignment - 1);
  const size_t offset = static_cast<size_t>(payload - base);
  if (offset > s->capacity || size > s->capacity - offset) {
    s->failed_requests++;
    return nullptr;
  }
  uint8_t* p = s->base + offset;
  StackHeader* h = header_of(p);
  h->previous_top = static_cast<uint32_t>(s->top);
  h->previous_newest = s->newest == SIZE_MAX ? kNone32 : static_cast<uint32_t>(s->newest);
  h->size = static_cast<uint32_t>(size);
  h->reserved = 0;
  s->newest = offset;
  s->top = offset + size;
  s->bytes_in_use += size;
  if (s->bytes_in_use > s->peak_bytes) s->peak_bytes = s->bytes_in_use;
  return p;
}

void grt_stack_free(grt_stack_allocator* s, void* ptr) {
  if (ptr == nullptr) return;
  if (s->newest == SIZE_MAX || static_cast<uint8_t*>(ptr) != s->base + s->newest) {
    s->lifo_violations++;
    return;
  }
  pop_newest(s);
}

size_t grt_stack_mark(const grt_stack_allocator* s) { return s->top; }

void grt_stack_release(grt_stack_allocator* s, size_t mark) {
  while (s->newest != SIZE_MAX && s->newest >= mark) pop_newest(s);
}

static void* stack_allocate_thunk(void* c, size_t size, size_t alignment) {
  return grt_stack_allocate(static_cast<grt_stack_allocator*>(c), size, alignment);
}
static void stack_free_thunk(void* c, void* ptr) { grt_stack_free(static_cast<grt_stack_allocator*>(c), ptr); }
static void stack_stats_thunk(const void* c, grt_allocator_stats* out) {
  const grt_stack_allocator* s = static_cast<const grt_stack_allocator*>(c);
  out->bytes_in_use = s->bytes_in_use;
  out->peak_bytes = s->peak_bytes;
  out->failed_requests = s->failed_requests;
  const size_t next_payload = (s->top + sizeof(StackHeader) + 15) & ~size_t{15};
  out->largest_free = next_payload >= s->capacity ? 0 : s->capacity - next_payload;
}

grt_allocator grt_stack_as_allocator(grt_stack_allocator* s) {
  grt_allocator a;
  a.allocate = stack_allocate_thunk;
  a.free = stack_free_thunk;
  a.stats = stack_stats_thunk;
  a.context = s;
  return a;
}

}  // extern "C"
