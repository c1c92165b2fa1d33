// Page allocator. Metadata: one uint32_t per page, encoded so that runs can be walked from
// page 0 and a freed run finds its neighbours in O(1) (boundary tags):
//   used run  : first page kUsed | kHead | length, every other page kUsed;
//   free run  : first and last page hold the length, no flags; pages between carry no kUsed.
// Every page of a used run is marked so a pointer into the middle of a run, or a run that
// was already freed, is recognised as an invalid free instead of corrupting the table.
#include "graphrt/page_allocator.h"

namespace {

constexpr uint32_t kUsed = 1u << 31;
constexpr uint32_t kHead = 1u << 30;
constexpr uint32_t kLengthMask = kHead - 1;
constexpr size_t kMaxPages = kLengthMask;
static_assert(kMaxPages == GRT_PAGE_MAX_COUNT, "the header states the limit");

bool is_power_of_two(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

void reset(grt_page_allocator* a, size_t page_size, grt_page_policy policy) {
  a->first_page = 0;
  a->entries = nullptr;
  a->page_size = page_size;
  a->page_count = 0;
  a->policy = policy;
  a->pages_in_use = 0;
  a->peak_pages = 0;
  a->failed_requests = 0;
  a->invalid_frees = 0;
}

uint32_t length_at(const grt_page_allocator* a, size_t page) { return a->entries[page] & kLengthMask; }

void mark_free(grt_page_allocator* a, size_t start, size_t length) {
  a->entries[start] = static_cast<uint32_t>(length);
  a->entries[start + length - 1] = static_cast<uint32_t>(length);
}

void mark_used(grt_page_allocator* a, size_t start, size_t length) {
  a->entries[start] = kUsed | kHead | static_cast<uint32_t>(length);
  for (size_t i = 1; i < length; ++i) a->entries[start + i] = kUsed;
}

// The first page at or after `page` whose address is a multiple of alignment, or SIZE_MAX.
size_t aligned_page_from(const grt_page_allocator* a, size_t page, size_t alignment) {
  if (alignment <= a->page_size) return page;
  const uintptr_t address = a->first_page + page * a->page_size;
  const uintptr_t aligned = (address + (alignment - 1)) & ~static_cast<uintptr_t>(alignment - 1);
  if (aligned < address) return SIZE_MAX;
  return page + static_cast<size_t>((aligned - address) / a->page_size);
}

struct Placement {
  size_t run_start = SIZE_MAX;
  size_t run_length = 0;
  size_t page = 0;  // where the allocation starts inside the run
};

// Walks the runs from page 0 and picks one by the allocator's policy.
Placement find_run(const grt_page_allocator* a, size_t pages, size_t alignment) {
  Placement best;
  for (size_t start = 0; start < a->page_count; start += length_at(a, start)) {
    if ((a->entries[start] & kUsed) != 0) continue;
    const size_t length = length_at(a, start);
    if (length < pages || (best.run_start != SIZE_MAX && length >= best.run_length)) continue;
    const size_t page = aligned_page_from(a, start, alignment);
    if (page == SIZE_MAX || page - start > length - pages) continue;
    best.run_start = start;
    best.run_length = length;
    best.page = page;
    if (a->policy == GRT_PAGE_FIRST_FIT || length == pages) break;
  }
  return best;
}

void* page_allocate_thunk(void* context, size_t size, size_t alignment) {
  return grt_page_allocate(static_cast<grt_page_allocator*>(context), size, alignment);
}

void page_free_thunk(void* context, void* ptr) { grt_page_free(static_cast<grt_page_allocator*>(context), ptr); }

void page_stats_thunk(const void* context, grt_allocator_stats* out) {
  grt_page_stats s;
  grt_page_get_stats(static_cast<const grt_page_allocator*>(context), &s);
  out->bytes_in_use = s.pages_in_use * s.page_size;
  out->peak_bytes = s.peak_pages * s.page_size;
  out->failed_requests = s.failed_requests;
  out->largest_free = s.largest_free_run * s.page_size;
}

}  // namespace

extern "C" {

size_t grt_page_metadata_bytes(size_t data_bytes, size_t page_size) {
  if (!is_power_of_two(page_size) || page_size < GRT_PAGE_MIN_SIZE) return 0;
  return (data_bytes / page_size) * GRT_PAGE_METADATA_BYTES_PER_PAGE;
}

size_t grt_page_buffer_bytes(size_t page_count, size_t page_size) {
  const size_t per_page = page_size + GRT_PAGE_METADATA_BYTES_PER_PAGE;
  if (per_page < page_size || (page_count != 0 && per_page > SIZE_MAX / page_count)) return SIZE_MAX;
  return page_count * per_page;
}

bool grt_page_init(grt_page_allocator* a, void* data, size_t data_size, void* metadata, size_t metadata_size,
                   size_t page_size, grt_page_policy policy) {
  if (a == nullptr) return false;
  reset(a, page_size, policy);
  if (!is_power_of_two(page_size) || page_size < GRT_PAGE_MIN_SIZE ||
      (policy != GRT_PAGE_FIRST_FIT && policy != GRT_PAGE_BEST_FIT)) {
    return false;
  }
  if (data == nullptr) return data_size == 0;
  const uintptr_t address = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (address + (page_size - 1)) & ~static_cast<uintptr_t>(page_size - 1);
  if (first < address) return false;
  const size_t skipped = static_cast<size_t>(first - address);
  const size_t pages = skipped >= data_size ? 0 : (data_size - skipped) / page_size;
  if (pages > kMaxPages) return false;
  if (pages != 0) {
    if (metadata == nullptr || reinterpret_cast<uintptr_t>(metadata) % alignof(uint32_t) != 0 ||
        metadata_size / GRT_PAGE_METADATA_BYTES_PER_PAGE < pages) {
      return false;
    }
    a->entries = static_cast<uint32_t*>(metadata);
    for (size_t i = 0; i < pages; ++i) a->entries[i] = 0;
    a->page_count = pages;
    mark_free(a, 0, pages);
  }
  a->first_page = first;
  return true;
}

bool grt_page_init_buffer(grt_page_allocator* a, void* buffer, size_t size, size_t page_size,
                          grt_page_policy policy) {
  if (a == nullptr) return false;
  if (!is_power_of_two(page_size) || page_size < GRT_PAGE_MIN_SIZE || buffer == nullptr) {
    return grt_page_init(a, buffer, size, nullptr, 0, page_size, policy);
  }
  const uintptr_t address = reinterpret_cast<uintptr_t>(buffer);
  const uintptr_t first = (address + (page_size - 1)) & ~static_cast<uintptr_t>(page_size - 1);
  const size_t skipped = static_cast<size_t>(first - address);
  const size_t pages = (first < address || skipped >= size) ? 0 : (size - skipped) / (page_size + GRT_PAGE_METADATA_BYTES_PER_PAGE);
  uint8_t* data = static_cast<uint8_t*>(buffer) + (pages == 0 ? 0 : skipped);
  return grt_page_init(a, data, pages * page_size, data + pages * page_size, pages * GRT_PAGE_METADATA_BYTES_PER_PAGE,
                       page_size, policy);
}

void* grt_page_allocate(grt_page_allocator* a, size_t size, size_t alignment) {
  if (!is_power_of_two(alignment) || a->page_count == 0) {
    a->failed_requests++;
    return nullptr;
  }
  const size_t pages = size == 0 ? 1 : (size - 1) / a->page_size + 1;
  const Placement p = pages > a->page_count ? Placement{} : find_run(a, pages, alignment);
  if (p.run_start == SIZE_MAX) {
    a->failed_requests++;
    return nullptr;
  }
  const size_t run_end = p.run_start + p.run_length;
  if (p.page > p.run_start) mark_free(a, p.run_start, p.page - p.run_start);
  mark_used(a, p.page, pages);
  if (p.page + pages < run_end) mark_free(a, p.page + pages, run_end - (p.page + pages));
  a->pages_in_use += pages;
  if (a->pages_in_use > a->peak_pages) a->peak_pages = a->pages_in_use;
  return reinterpret_cast<void*>(a->first_page + p.page * a->page_size);
}

void grt_page_free(grt_page_allocator* a, void* ptr) {
  if (ptr == nullptr) return;
  const uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  const uintptr_t offset = address - a->first_page;
  if (address < a->first_page || offset % a->page_size != 0 || offset / a->page_size >= a->page_count ||
      (a->entries[offset / a->page_size] & (kUsed | kHead)) != (kUsed | kHead)) {
    a->invalid_frees++;
    return;
  }
  const size_t page = static_cast<size_t>(offset / a->page_size);
  const size_t pages = length_at(a, page);
  for (size_t i = 0; i < pages; ++i) a->entries[page + i] = 0;
  a->pages_in_use -= pages;
  size_t start = page;
  size_t length = pages;
  if (start + length < a->page_count && (a->entries[start + length] & kUsed) == 0) length += length_at(a, start + length);
  if (start > 0 && (a->entries[start - 1] & kUsed) == 0) {
    const size_t before = length_at(a, start - 1);
    start -= before;
    length += before;
  }
  mark_free(a, start, length);
}

void grt_page_get_stats(const grt_page_allocator* a, grt_page_stats* out) {
  out->page_size = a->page_size;
  out->page_count = a->page_count;
  out->pages_in_use = a->pages_in_use;
  out->peak_pages = a->peak_pages;
  out->failed_requests = a->failed_requests;
  out->invalid_frees = a->invalid_frees;
  out->free_pages = 0;
  out->free_runs = 0;
  out->largest_free_run = 0;
  for (size_t start = 0; start < a->page_count; start += length_at(a, start)) {
    if ((a->entries[start] & kUsed) != 0) continue;
    const size_t length = length_at(a, start);
    out->free_pages += length;
    out->free_runs++;
    if (length > out->largest_free_run) out->largest_free_run = length;
  }
  out->fragmentation_percent =
      out->free_pages == 0
          ? 0
          : static_cast<uint32_t>((100u * static_cast<uint64_t>(out->free_pages - out->largest_free_run)) / out->free_pages);
}

grt_allocator grt_page_as_allocator(grt_page_allocator* a) {
  grt_allocator view;
  view.allocate = page_allocate_thunk;
  view.free = page_free_thunk;
  view.stats = page_stats_thunk;
  view.context = a;
  return view;
}

}  // extern "C"
