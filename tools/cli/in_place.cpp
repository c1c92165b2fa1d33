#include "in_place.h"


#include "graphrt/graphrt.h"
#include "graphrt/kernels.h"

namespace grt::cli {

tools::OverwritableInputs builtin_overwritable_inputs() {
  return [](const std::string& kernel) -> uint32_t {
    const grt_kernel_entry* entry = grt_builtin_kernel_find(kernel.c_str());
    return entry != nullptr ? entry->overwrites : 0;
  };
}

}  // namespace grt::cli
