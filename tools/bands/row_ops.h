// The kernels a band chain may hold, and where their arguments are: which inputs are row
// sources, which is the output, and for window kernels the stride, dilation, top padding
// and filter height that map output rows to input rows.
#ifndef GRAPHRT_TOOLS_BANDS_ROW_OPS_H_
#define GRAPHRT_TOOLS_BANDS_ROW_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/model_def.h"

namespace grt::tools::bands {

struct RowOp {
  // A window kernel reads rows [a*stride - pad, (b-1)*stride - pad + (filter_h-1)*dilation + 1)
  // for output rows [a, b); an elementwise one reads rows [a, b) of each input.
  bool window = false;
  std::vector<int> inputs;  // argument positions of the activations it reads rows of
  int output = 0;
  int stride = -1, dilation = -1, pad_top = -1;  // Int argument positions (dilation -1: 1)
  int filter_tensor = -1;                        // filter_h is this tensor's dimension 1 ...
  int filter_h = -1;                             // ... or this Int argument
  enum class Macs { kNone, kConv, kDepthwise } macs = Macs::kNone;
};

// The kernel's entry, or null when bands cannot hold it.
const RowOp* row_op(const std::string& kernel);

// Rows [begin, end).
struct Rows {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t count() const { return end - begin; }
};

// What a node of `op` reads of input height `input_h` for output rows `out`: the rows
// inside the input, and the top padding that makes the kernel see them where it did.
struct InputRows {
  Rows rows;
  int64_t pad_top = 0;
};
InputRows input_rows(const ModelDef& model, const NodeDef& node, const RowOp& op, int64_t input_h, Rows out);

// The node's convolution MACs per output row (0 for other kernels).
uint64_t macs_per_row(const ModelDef& model, const NodeDef& node, const RowOp& op);

// The tensor argument `position` of `node` names when it is of `kind` and in range; null
// otherwise (a negative position too). The rewrites read blobs not checked yet.
const TensorDef* tensor_arg(const ModelDef& model, const NodeDef& node, int position, ArgKind kind);

// A [1, H, W, C] tensor.
bool is_row_tensor(const TensorDef& t);
uint64_t row_bytes(const TensorDef& t);

}  // namespace grt::tools::bands

#endif  // GRAPHRT_TOOLS_BANDS_ROW_OPS_H_
