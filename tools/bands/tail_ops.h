// Reductions a band chain may end in (bands.h, BandChain::tail): a global average pool or a
// fully-connected layer over the chain's whole output. Bands feed it in parts: after each
// band a sum node adds the band's rows to a sum per channel or unit, and one finish node
// after the last band makes the reduction's output from the sums. The chain's output
// then holds one band instead of every row.
#ifndef GRAPHRT_TOOLS_BANDS_TAIL_OPS_H_
#define GRAPHRT_TOOLS_BANDS_TAIL_OPS_H_

#include <cstdint>
#include <string>

#include "graphrt/tools/model_def.h"
#include "row_ops.h"

namespace grt::tools::bands {

// Whether `node` reduces all of row tensor `t` (its argument 0) in a way sum and finish
// nodes reproduce: a global int8 AVERAGE_POOL_2D (one window over every row and column, no
// padding) or an int8 FULLY_CONNECTED of one batch over t's elements, its other tensors
// constants.
bool is_tail(const ModelDef& model, const NodeDef& node, uint32_t t);

// Whether `node` is a fully-connected layer of one batch over all of tensor `t` (any shape;
// its argument 0 reads t or an alias of t's bytes), int8 or float32, its other tensors
// constants: the tail of a sequence band (sequence_bands.h).
bool is_sequence_tail(const ModelDef& model, const NodeDef& node, const TensorDef& t);

// Adds the tail's sums to `model` (the rewrite): int32, one per channel (average pool) or
// per unit (int8 fully connected); float32 [units, 8] lanes (float fully connected).
uint32_t add_tail_sums(ModelDef* model, const NodeDef& tail);

// The node of `model` adding `part` (a tensor of consecutive elements of the tail's input,
// from element `first_element` on) to `sums`; `accumulate` false for the first part, which
// starts the sums. `part_name` names the part in the node's name.
NodeDef tail_sum_node(ModelDef* model, const NodeDef& tail, uint32_t part, int64_t first_element, const std::string& part_name,
                      uint32_t sums, bool accumulate);

// The node writing the tail's output from the complete `sums`.
NodeDef tail_finish_node(ModelDef* model, const NodeDef& tail, uint32_t sums);

}  // namespace grt::tools::bands

#endif  // GRAPHRT_TOOLS_BANDS_TAIL_OPS_H_
