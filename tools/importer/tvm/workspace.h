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

// The largest workspace a node may take: more is refused as a fault of the operators.
constexpr uint64_t kMaxMeasuredWorkspace = uint64_t{16} << 20;

// Sets every node's workspace_bytes to the fewest (a multiple of 16) with which the node
// succeeds: the nodes run in graph order inside a graphrt executor over a probe plan, on
// zeroed inputs and the real constants, and a request past the bytes given fails the node
// (the workspace stack refuses it), so the search over sizes is exact for code whose
// requests do not depend on the data, which is how TVM generates it.
bool measure_workspaces(ModelDef* model, const std::vector<grt_kernel_entry>& kernels, std::string* error);

}  // namespace grt::tools::tvm

#endif  // GRAPHRT_TOOLS_TVM_WORKSPACE_H_
