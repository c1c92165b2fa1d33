#include "c_usage.h"

#include "graphrt/dynamic_memory.h"

grt_allocator c_page_allocator(grt_page_allocator* state, void* buffer, size_t size) {
  grt_page_init_buffer(state, buffer, size, 32u, GRT_PAGE_BEST_FIT);
  return grt_page_as_allocator(state);
}

size_t c_page_budget(const void* blob, size_t blob_size, void* scratch, size_t scratch_size) {
  grt_page_budget budget;
  grt_error error;
  if (grt_page_required_bytes(blob, blob_size, GRT_STRATEGY_DYNAMIC, 32u, GRT_PAGE_BEST_FIT, scratch, scratch_size, &budget,
                              &error) != GRT_OK) {
    return 0;
  }
  return budget.page_count;
}
