// Each node's workspace bytes, measured: what graphrt's workspace stack needs for every
// TVMBackendAllocWorkspace a generated function makes, found by running the nodes on the
// host (never estimated).
#ifndef GRAPHRT_TOOLS_TVM_WORKSPACE_H_
#define GRAPHRT_TOOLS_TVM_WORKSPACE_H_

#include <string>
#include <vector>

#include "graphrt/graphrt.h"
#include "graphrt/tools/model_def.h"

namespace grt::tools::tvm {

// Sets every node's workspace_bytes to the fewest (a multiple of 16) with which the node
// succeeds: the nodes run in graph order inside a graphrt executor over a probe plan, on
// zeroed inputs and the real constants, and a request past the bytes given fails the node
// (the workspace stack refuses it), so the search over sizes is exact for code whose
// requests do not depend on the data, which is how TVM generates it.
// A node needing more than max_workspace bytes, or a probe plan over max_probe bytes, is
// refused.
bool measure_workspaces(ModelDef* model, const std::vector<grt_kernel_entry>& kernels, uint64_t max_workspace, uint64_t max_probe,
                        std::string* error);

}  // namespace grt::tools::tvm

#endif  // GRAPHRT_TOOLS_TVM_WORKSPACE_H_
