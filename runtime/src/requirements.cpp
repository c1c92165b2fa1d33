// grt_model_requirements: how many bytes the bookkeeping, each pool and the allocator need
// for a blob and a strategy, before init (init succeeds with exactly these figures).
#include <string.h>

#include "executor_internal.h"
#include "graphrt/dynamic_memory.h"
#include "message.h"

namespace grt {

template <const LayoutSizes& kSizes>
grt_status requirements_for(const void* blob, size_t blob_size, const grt_options* options, grt_requirements* out,
                            grt_error* error) {
  if (out == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "requirements output is NULL");
  memset(out, 0, sizeof(*out));
  if (options == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "options are required");
  const grt_status modes = grt::validate_option_modes(options, error);
  if (modes != GRT_OK) return modes;
  const grt_strategy strategy = options->memory.strategy;
  const grt::fb::Model* model = nullptr;
  grt::ModelCounts counts;
  grt::Layout layout;
  const grt_status s = lay_out<kSizes>(blob, blob_size, strategy, options->arguments, nullptr, 0, &model, &counts, &layout, error);
  if (s != GRT_OK) return s;
  out->bookkeeping_bytes = layout.total;
  out->bookkeeping_alignment = grt::kBookkeepingAlignment;
  const auto* pools = model->pools();
  out->pool_count = grt::count_of(pools);
  for (uint32_t p = 0; p < out->pool_count; ++p) {
    out->pool_bytes[p] = static_cast<size_t>(pools->Get(p)->size());
    out->pool_alignment[p] = pools->Get(p)->alignment();
  }
  if (grt::is_stack(strategy)) {
    // Init takes every activation in index order, then the largest workspace. Each request
    // costs its header and its bytes rounded up to 16 (where the next one starts), except
    // the last, which ends the stack unrounded.
    uint64_t bytes = counts.stack_bytes;
    uint64_t last = counts.last_activation;
    if (counts.max_workspace != 0) {
      bytes += GRT_STACK_ALLOCATION_BYTES(counts.max_workspace, 16u);
      last = counts.max_workspace;
    }
    bytes -= (16 - last % 16) % 16;
    out->allocator_bytes = static_cast<size_t>(bytes);
  } else if (grt::is_scheduled(strategy)) {
    // Without scratch memory for lifetimes, the bound here is every activation at once.
    out->allocator_bytes = static_cast<size_t>(counts.stack_bytes + counts.max_workspace);
  }
  return GRT_OK;
}

template grt_status requirements_for<kNativeSizes>(const void*, size_t, const grt_options*, grt_requirements*, grt_error*);
template grt_status requirements_for<kArm32Sizes>(const void*, size_t, const grt_options*, grt_requirements*, grt_error*);

}  // namespace grt

using grt::fail;

extern "C" {

grt_status grt_model_requirements_for(const void* blob, size_t blob_size, const grt_options* options,
                                      grt_requirements* out, grt_error* error) {
  return grt::requirements_for<grt::kNativeSizes>(blob, blob_size, options, out, error);
}

grt_status grt_model_requirements(const void* blob, size_t blob_size, grt_strategy strategy,
                                  grt_requirements* out, grt_error* error) {
  grt_options options{};
  options.memory.strategy = strategy;
  return grt_model_requirements_for(blob, blob_size, &options, out, error);
}

}  // extern "C"
