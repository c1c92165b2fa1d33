#include "in_place.h"


#include "graphrt/graphrt.h"
#include "graphrt/kernels.h"

namespace grt::cli {

tools::OverwritableInputs builtin_overwritable_inputs() {
  return [](const std::string& kernel) -> uint32_t {
    const grt_kernel_table* table = grt_builtin_kernels();
    for (size_t i = 0; i < table->count; ++i) {
      if (kernel == table->entries[i].name) return table->entries[i].overwrites;
    }
    return 0;
  };
}

}  // namespace grt::cli
