// The built-in kernels' in-place declarations, for the planner (PlanOptions::overwritable_inputs).
#ifndef GRAPHRT_TOOLS_CLI_IN_PLACE_H_
#define GRAPHRT_TOOLS_CLI_IN_PLACE_H_

#include "graphrt/tools/planner.h"

namespace grt::cli {

// A kernel name's grt_kernel_entry::overwrites in the built-in table; 0 for a name not in it.
tools::OverwritableInputs builtin_overwritable_inputs();

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_IN_PLACE_H_
