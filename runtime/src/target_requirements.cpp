#include "graphrt/target_requirements.h"

#include "executor_state.h"
#include "message.h"
#include "raw_enum.h"

extern "C" grt_status grt_model_requirements_abi(const void* blob, size_t blob_size, const grt_options* options,
                                                 grt_abi abi, grt_requirements* out, grt_error* error) {
  const uint32_t raw_abi = grt::raw_enum(abi);
  if (raw_abi > GRT_ABI_ARM32) return grt::fail(error, GRT_ERR_ARGUMENT, nullptr, "unknown ABI %u", raw_abi);
  if (raw_abi == GRT_ABI_ARM32) return grt::requirements_for<grt::kArm32Sizes>(blob, blob_size, options, out, error);
  return grt::requirements_for<grt::kNativeSizes>(blob, blob_size, options, out, error);
}
