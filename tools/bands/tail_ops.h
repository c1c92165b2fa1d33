// Reductions a band chain may end in (bands.h, BandChain::tail): a global average pool or a
// fully-connected layer over the chain's whole output. Bands feed it in parts: after each
// band a sum node adds the band's rows to an int32 sum per channel or unit, and one finish
// node after the last band makes the reduction's output from the sums. The chain's output
// then holds one band instead of every row.
#ifndef GRAPHRT_TOOLS_BANDS_TAIL_OPS_H_
#define GRAPHRT_TOOLS_BANDS_TAIL_OPS_H_

#include <cstdint>

#include "graphrt/tools/model_def.h"
#include "row_ops.h"

namespace grt::tools::bands {

// Whether `node` reduces all of row tensor `t` (its argument 0) in a way sum and finish
// nodes reproduce: a global int8 AVERAGE_POOL_2D (one window over every row and column, no
// padding) or an int8 FULLY_CONNECTED of one batch over t's elements, its other tensors
// constants.
bool is_tail(const ModelDef& model, const NodeDef& node, uint32_t t);

// The tail's sums: one per channel (average pool) or per unit (fully connected).
int64_t tail_sums(const ModelDef& model, const NodeDef& tail);

// The node of `model` (the rewrite, whose tensors and kernels start as the tail's model's)
// adding rows `rows` of the tail's input, held by tensor `rows_view`, to `sums`;
// `accumulate` false for the first band, which starts the sums.
NodeDef tail_sum_node(ModelDef* model, const NodeDef& tail, uint32_t rows_view, Rows rows, uint32_t sums, bool accumulate);

// The node writing the tail's output from the complete `sums`.
NodeDef tail_finish_node(ModelDef* model, const NodeDef& tail, uint32_t sums);

}  // namespace grt::tools::bands

#endif  // GRAPHRT_TOOLS_BANDS_TAIL_OPS_H_
