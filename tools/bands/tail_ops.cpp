#include "tail_ops.h"

#include <initializer_list>
#include <string>

namespace grt::tools::bands {
namespace {

// Argument layouts (kernels/src/dense/average_pool2d.cpp, fully_connected.cpp, and their
// parts in average_pool_parts.cpp, fully_connected_parts.cpp).
constexpr size_t kFullyConnectedArgs = 10;
constexpr int64_t kMaxPoolCount = int64_t{2048} * 2048;  // average_pool2d_finish_s8's count limit

bool is_pool(const ModelDef& model, const NodeDef& node) { return model.kernels[node.kernel] == "average_pool2d_s8"; }
bool is_fully_connected(const ModelDef& model, const NodeDef& node) { return model.kernels[node.kernel] == "fully_connected_s8"; }

bool kinds_are(const NodeDef& node, std::initializer_list<ArgKind> kinds) {
  if (node.args.size() != kinds.size()) return false;
  size_t i = 0;
  for (const ArgKind k : kinds) {
    if (node.args[i++].kind != k) return false;
  }
  return true;
}

const TensorDef* tensor_of(const ModelDef& model, const ArgDef& a) {
  return a.value >= 0 && static_cast<uint64_t>(a.value) < model.tensors.size() ? &model.tensors[static_cast<size_t>(a.value)] : nullptr;
}

bool is_constant(const ModelDef& model, const ArgDef& a) {
  return tensor_of(model, a) != nullptr && model.tensors[model.root_of(static_cast<uint32_t>(a.value))].kind == TensorKind::Constant;
}

}  // namespace

bool is_tail(const ModelDef& model, const NodeDef& node, uint32_t t) {
  if (node.kernel >= model.kernels.size() || node.args.empty() || node.args[0].value != static_cast<int64_t>(t)) return false;
  const TensorDef& in = model.tensors[t];
  if (!is_row_tensor(in) || in.dtype != DType::Int8) return false;
  using K = ArgKind;
  if (is_pool(model, node)) {
    if (!kinds_are(node, {K::Input, K::Output, K::Int, K::Int, K::Int, K::Int, K::Int, K::Int, K::Int, K::Int})) return false;
    const TensorDef* out = tensor_of(model, node.args[1]);
    const auto arg = [&](size_t i) { return node.args[i].value; };
    return out != nullptr && out->shape.size() == 4 && out->elements() == static_cast<uint64_t>(in.shape[3]) && arg(4) == in.shape[1] && arg(5) == in.shape[2] &&
           arg(6) == 0 && arg(7) == 0 && in.shape[1] * in.shape[2] <= kMaxPoolCount;
  }
  if (is_fully_connected(model, node)) {
    if (node.args.size() != kFullyConnectedArgs || node.args[0].kind != K::Input || node.args[1].kind != K::Input || node.args[3].kind != K::Output) return false;
    if (!is_constant(model, node.args[1]) || !(node.args[2].kind == K::None || (node.args[2].kind == K::Input && is_constant(model, node.args[2])))) {
      return false;
    }
    const TensorDef& w = *tensor_of(model, node.args[1]);
    const TensorDef* out = tensor_of(model, node.args[3]);
    return w.shape.size() == 2 && static_cast<uint64_t>(w.shape[1]) == in.elements() && out != nullptr &&
           out->elements() == static_cast<uint64_t>(w.shape[0]);
  }
  return false;
}

int64_t tail_sums(const ModelDef& model, const NodeDef& tail) {
  if (is_pool(model, tail)) return model.tensors[static_cast<size_t>(tail.args[0].value)].shape[3];
  return model.tensors[static_cast<size_t>(tail.args[1].value)].shape[0];
}

NodeDef tail_sum_node(ModelDef* model, const NodeDef& tail, uint32_t rows_view, Rows rows, uint32_t sums, bool accumulate) {
  NodeDef sum;
  const ArgDef started = ArgDef::integer(accumulate ? 1 : 0);
  if (is_pool(*model, tail)) {
    sum.kernel = model->kernel_index("average_pool2d_sum_s8");
    sum.args = {ArgDef::input(rows_view), ArgDef::output(sums), started};
  } else {
    sum.kernel = model->kernel_index("fully_connected_sum_s8");
    const TensorDef& in = model->tensors[static_cast<size_t>(tail.args[0].value)];
    const int64_t first_column = rows.begin * in.shape[2] * in.shape[3];
    sum.args = {ArgDef::input(rows_view), tail.args[1], ArgDef::output(sums), ArgDef::integer(first_column), tail.args[5], tail.args[6], started};
  }
  sum.name = tail.name + " rows " + std::to_string(rows.begin) + "-" + std::to_string(rows.end - 1);
  return sum;
}

NodeDef tail_finish_node(ModelDef* model, const NodeDef& tail, uint32_t sums) {
  NodeDef finish;
  if (is_pool(*model, tail)) {
    finish.kernel = model->kernel_index("average_pool2d_finish_s8");
    const TensorDef& in = model->tensors[static_cast<size_t>(tail.args[0].value)];
    finish.args = {ArgDef::input(sums), tail.args[1], ArgDef::integer(in.shape[1] * in.shape[2]), tail.args[8], tail.args[9]};
  } else {
    finish.kernel = model->kernel_index("fully_connected_finish_s8");
    finish.args = {ArgDef::input(sums), tail.args[2], tail.args[3], tail.args[4], tail.args[7], tail.args[8], tail.args[9]};
  }
  finish.name = tail.name + " finish";
  return finish;
}

}  // namespace grt::tools::bands
