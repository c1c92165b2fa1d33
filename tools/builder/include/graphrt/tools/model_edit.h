// Edits a rewrite of a ModelDef needs after it has moved nodes around: removing what nothing
// names any more and renumbering the rest, so every index stays valid.
#ifndef GRAPHRT_TOOLS_MODEL_EDIT_H_
#define GRAPHRT_TOOLS_MODEL_EDIT_H_

#include <cstdint>
#include <vector>

#include "graphrt/tools/model_def.h"

namespace grt::tools {

// Whether an argument names a tensor (Input, Output, IntArray).
bool names_tensor(const ArgDef& arg);

// How often each tensor is named: by node arguments, aliases, the model's and the subgraphs'
// inputs and outputs.
std::vector<uint32_t> use_counts(const ModelDef& model);
uint32_t uses_of(const ModelDef& model, uint32_t t);

// Removes the nodes marked in `dropped_nodes` (shorter than the node list: the rest stay),
// then those of `candidate_tensors` nothing names any more (or only candidate aliases that
// go too), then the buffers and kernels no tensor or node uses; renumbers what stays in
// order (aliases stay after their targets) and keeps each subgraph's node and tensor ranges
// over what remains of them.
void remove_unused(ModelDef* model, const std::vector<bool>& dropped_nodes, const std::vector<uint32_t>& candidate_tensors);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_MODEL_EDIT_H_
