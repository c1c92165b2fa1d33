#include "row_ops.h"

#include <algorithm>
#include <map>

namespace grt::tools::bands {
namespace {

RowOp convolution(int window_first, RowOp::Macs macs) {
  RowOp op;
  op.window = true;
  op.inputs = {0};
  op.output = 3;
  op.stride = window_first;
  op.dilation = window_first + 2;
  op.pad_top = window_first + 4;
  op.filter_tensor = 1;
  op.macs = macs;
  return op;
}

RowOp pooling() {
  RowOp op;
  op.window = true;
  op.inputs = {0};
  op.output = 1;
  op.stride = 2;
  op.filter_h = 4;
  op.pad_top = 6;
  return op;
}

RowOp elementwise_binary() {
  RowOp op;
  op.inputs = {0, 1};
  op.output = 2;
  return op;
}

// Argument layouts as the kernels document them (kernels/src/conv, pool, dense, elementwise).
const std::map<std::string, RowOp>& table() {
  static const std::map<std::string, RowOp> ops = {
      {"conv2d_s8", convolution(6, RowOp::Macs::kConv)},
      {"conv2d_s16", convolution(6, RowOp::Macs::kConv)},
      {"conv2d_f32", convolution(4, RowOp::Macs::kConv)},
      {"depthwise_conv2d_s8", convolution(6, RowOp::Macs::kDepthwise)},
      {"depthwise_conv2d_f32", convolution(4, RowOp::Macs::kDepthwise)},
      {"max_pool2d_s8", pooling()},
      {"max_pool2d_s16", pooling()},
      {"max_pool2d_f32", pooling()},
      {"average_pool2d_s8", pooling()},
      {"average_pool2d_f32", pooling()},
      {"add_s8", elementwise_binary()},
      {"add_s16", elementwise_binary()},
      {"sub_s8", elementwise_binary()},
      {"sub_s16", elementwise_binary()},
      {"add_f32", elementwise_binary()},
      {"sub_f32", elementwise_binary()},
  };
  return ops;
}

int64_t int_arg(const NodeDef& node, int position) {
  return position >= 0 && static_cast<size_t>(position) < node.args.size() ? node.args[static_cast<size_t>(position)].value : 1;
}

}  // namespace

const RowOp* row_op(const std::string& kernel) {
  const auto found = table().find(kernel);
  return found == table().end() ? nullptr : &found->second;
}

InputRows input_rows(const ModelDef& model, const NodeDef& node, const RowOp& op, int64_t input_h, Rows out) {
  if (!op.window) return InputRows{out, 0};
  const int64_t stride = int_arg(node, op.stride);
  const int64_t dilation = op.dilation < 0 ? 1 : int_arg(node, op.dilation);
  const int64_t pad = int_arg(node, op.pad_top);
  const int64_t filter_h = op.filter_tensor >= 0
                               ? model.tensors[static_cast<size_t>(node.args[static_cast<size_t>(op.filter_tensor)].value)].shape[1]
                               : int_arg(node, op.filter_h);
  const int64_t start = out.begin * stride - pad;
  const int64_t end = (out.end - 1) * stride - pad + (filter_h - 1) * dilation + 1;
  InputRows r;
  r.rows = Rows{std::max<int64_t>(0, start), std::min(input_h, end)};
  r.pad_top = r.rows.begin - start;
  return r;
}

uint64_t macs_per_row(const ModelDef& model, const NodeDef& node, const RowOp& op) {
  if (op.macs == RowOp::Macs::kNone) return 0;
  const TensorDef& filter = model.tensors[static_cast<size_t>(node.args[static_cast<size_t>(op.filter_tensor)].value)];
  const TensorDef& output = model.tensors[static_cast<size_t>(node.args[static_cast<size_t>(op.output)].value)];
  // Unsigned: shapes of a blob not checked yet wrap here rather than overflow.
  const auto d = [](int64_t v) { return static_cast<uint64_t>(v); };
  const uint64_t taps = d(filter.shape[1]) * d(filter.shape[2]);
  const uint64_t per_pixel = op.macs == RowOp::Macs::kConv ? d(output.shape[3]) * d(filter.shape[3]) * taps : d(output.shape[3]) * taps;
  return per_pixel * d(output.shape[2]);
}

const TensorDef* tensor_arg(const ModelDef& model, const NodeDef& node, int position, ArgKind kind) {
  if (position < 0 || static_cast<size_t>(position) >= node.args.size()) return nullptr;
  const ArgDef& a = node.args[static_cast<size_t>(position)];
  if (a.kind != kind || a.value < 0 || static_cast<uint64_t>(a.value) >= model.tensors.size()) return nullptr;
  return &model.tensors[static_cast<size_t>(a.value)];
}

bool is_row_tensor(const TensorDef& t) {
  constexpr int64_t kMaxDimension = int64_t{1} << 24;  // row arithmetic stays far from overflow
  return t.shape.size() == 4 && t.shape[0] == 1 && std::all_of(t.shape.begin() + 1, t.shape.end(), [](int64_t d) {
           return d >= 1 && d <= kMaxDimension;
         });
}

uint64_t row_bytes(const TensorDef& t) { return static_cast<uint64_t>(t.shape[2]) * static_cast<uint64_t>(t.shape[3]) * dtype_bytes(t.dtype); }

}  // namespace grt::tools::bands
