// Explicit padding folded into the convolution that reads it. Models exported with explicit
// padding (TensorFlow's `padding=[...]`, ONNX converters, MobileNetV2's stride-2 layers)
// write PAD then a convolution with VALID padding: a whole padded copy of the activation
// lives beside its source. TFLM's int8 convolutions skip the taps that fall outside the
// image, which is what a tap over a padded value equal to the input zero point contributes
// (its offset input is 0), so reading the unpadded tensor with the PAD's top and left added
// to the convolution's padding gives the same sums, byte for byte: the bottom and right
// padding follow from the output size, as they do for SAME. The copy, its node and its time
// are gone, and band chains are no longer broken by a PAD.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "graphrt/tools/importer.h"
#include "graphrt/tools/model_edit.h"

namespace grt::tools {
namespace {

// Argument positions of conv2d_s8 and depthwise_conv2d_s8 (tools/importer/ops/conv_ops.cpp).
constexpr size_t kConvInput = 0, kConvFilter = 1, kConvOutput = 3, kStrideH = 6, kStrideW = 7, kDilationH = 8, kDilationW = 9,
                 kPadTop = 10, kPadLeft = 11, kInputOffset = 12;
// pad's: input, output, the padding before each dimension (IntArray), the value.
constexpr size_t kPadInput = 0, kPadOutput = 1, kPadBefore = 2, kPadValue = 3;

bool is_int8_convolution(const std::string& kernel) { return kernel == "conv2d_s8" || kernel == "depthwise_conv2d_s8"; }

uint32_t tensor_of(const NodeDef& node, size_t position) { return static_cast<uint32_t>(node.args[position].value); }

// Every output row and column of a window over `size` (padded by `before`) still reads at
// least one value inside: the folds stay where the kernels' padded paths are proven (the
// SAME-like explicit paddings real models use).
bool reads_inside(int64_t size, int64_t out, int64_t taps, int64_t stride, int64_t dilation, int64_t before) {
  const int64_t span = (taps - 1) * dilation + 1;
  return before <= span - 1 && (out - 1) * stride - before <= size - 1;
}

// The PAD node `p` and the convolution `c` reading its output, when folding is exact.
bool foldable(const ModelDef& m, const NodeDef& p, const NodeDef& c) {
  if (p.args.size() != 4 || c.args.size() < kInputOffset + 1) return false;
  const uint32_t padded = tensor_of(p, kPadOutput);
  if (tensor_of(c, kConvInput) != padded || uses_of(m, padded) != 2) return false;  // written by p, read by c alone
  const TensorDef& source = m.tensors[tensor_of(p, kPadInput)];
  const TensorDef& out = m.tensors[padded];
  if (source.dtype != DType::Int8 || out.kind != TensorKind::Activation || source.shape.size() != 4 || out.shape.size() != 4) return false;
  // Rows and columns only, and a value the convolution's offset cancels.
  const TensorDef& before = m.tensors[tensor_of(p, kPadBefore)];
  if (before.kind != TensorKind::Constant || m.buffers[before.buffer].size() != 4 * sizeof(int32_t)) return false;
  int32_t b[4];
  std::memcpy(b, m.buffers[before.buffer].data(), sizeof b);
  if (b[0] != 0 || b[3] != 0 || out.shape[0] != source.shape[0] || out.shape[3] != source.shape[3]) return false;
  // The pad value is an int8 (the converter checked it), so negating it cannot overflow.
  const int64_t value = p.args[kPadValue].value;
  if (value < INT8_MIN || value > INT8_MAX || c.args[kInputOffset].value != -value) return false;
  const int64_t top = b[1] + c.args[kPadTop].value;
  const int64_t left = b[2] + c.args[kPadLeft].value;
  const TensorDef& filter = m.tensors[tensor_of(c, kConvFilter)];
  const TensorDef& y = m.tensors[tensor_of(c, kConvOutput)];
  if (filter.shape.size() != 4 || y.shape.size() != 4) return false;
  return reads_inside(source.shape[1], y.shape[1], filter.shape[1], c.args[kStrideH].value, c.args[kDilationH].value, top) &&
         reads_inside(source.shape[2], y.shape[2], filter.shape[2], c.args[kStrideW].value, c.args[kDilationW].value, left);
}

}  // namespace

uint32_t fold_pads_into_convolutions(ModelDef* model) {
  std::vector<bool> dropped(model->nodes.size(), false);
  std::vector<uint32_t> candidates;
  uint32_t folded = 0;
  for (size_t n = 0; n + 1 < model->nodes.size(); ++n) {
    const NodeDef& pad = model->nodes[n];
    if (model->kernels[pad.kernel] != "pad") continue;
    // Its reader: the first later node that names its output (a chain's next node).
    const uint32_t padded = tensor_of(pad, kPadOutput);
    for (size_t r = n + 1; r < model->nodes.size(); ++r) {
      NodeDef& conv = model->nodes[r];
      const bool reads = std::any_of(conv.args.begin(), conv.args.end(), [&](const ArgDef& a) { return names_tensor(a) && a.value == padded; });
      if (!reads) continue;
      if (is_int8_convolution(model->kernels[conv.kernel]) && foldable(*model, pad, conv)) {
        int32_t before[4];
        std::memcpy(before, model->buffers[model->tensors[tensor_of(pad, kPadBefore)].buffer].data(), sizeof before);
        conv.args[kConvInput].value = pad.args[kPadInput].value;
        conv.args[kPadTop].value += before[1];
        conv.args[kPadLeft].value += before[2];
        dropped[n] = true;
        candidates.push_back(padded);
        candidates.push_back(tensor_of(pad, kPadBefore));
        ++folded;
      }
      break;
    }
  }
  // The padded tensors and the PADs' padding arrays, the PAD kernel when no PAD is left.
  if (folded != 0) remove_unused(model, dropped, candidates);
  return folded;
}

}  // namespace grt::tools
