#include "tail_ops.h"

#include <initializer_list>
#include <string>

namespace grt::tools::bands {
namespace {

// Argument layouts (kernels/src/dense/average_pool2d.cpp, fully_connected.cpp, and their
// parts in average_pool_parts.cpp, fully_connected_parts.cpp; kFloatLanes: dense_args.h).
constexpr size_t kFullyConnectedArgs = 10;
constexpr int64_t kMaxPoolCount = int64_t{2048} * 2048;  // average_pool2d_finish_s8's count limit

constexpr size_t kFullyConnectedF32Args = 6;
constexpr int64_t kFloatLanes = 8;

bool is_pool(const ModelDef& model, const NodeDef& node) { return model.kernels[node.kernel] == "average_pool2d_s8"; }
bool is_fully_connected(const ModelDef& model, const NodeDef& node) { return model.kernels[node.kernel] == "fully_connected_s8"; }
bool is_fully_connected_f32(const ModelDef& model, const NodeDef& node) { return model.kernels[node.kernel] == "fully_connected_f32"; }

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

// A fully-connected layer (int8 or float32: the same tensor arguments 0 to 3) of one batch
// over all of `in`, its weights and bias constants.
bool fully_connected_over(const ModelDef& model, const NodeDef& node, const TensorDef& in) {
  using K = ArgKind;
  const size_t count = is_fully_connected(model, node) ? kFullyConnectedArgs : kFullyConnectedF32Args;
  if (node.args.size() != count || node.args[0].kind != K::Input || node.args[1].kind != K::Input || node.args[3].kind != K::Output) return false;
  if (!is_constant(model, node.args[1]) || !(node.args[2].kind == K::None || (node.args[2].kind == K::Input && is_constant(model, node.args[2])))) {
    return false;
  }
  const TensorDef& w = *tensor_of(model, node.args[1]);
  const TensorDef* out = tensor_of(model, node.args[3]);
  return w.shape.size() == 2 && static_cast<uint64_t>(w.shape[1]) == in.elements() && out != nullptr &&
         out->elements() == static_cast<uint64_t>(w.shape[0]);
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
  return is_fully_connected(model, node) && fully_connected_over(model, node, in);
}

bool is_sequence_tail(const ModelDef& model, const NodeDef& node, const TensorDef& t) {
  if (node.kernel >= model.kernels.size()) return false;
  const bool int8 = is_fully_connected(model, node) && t.dtype == DType::Int8;
  const bool f32 = is_fully_connected_f32(model, node) && t.dtype == DType::Float32;
  return (int8 || f32) && fully_connected_over(model, node, t);
}

uint32_t add_tail_sums(ModelDef* model, const NodeDef& tail) {
  const std::string name = tail.name + " sums";
  if (is_pool(*model, tail)) return model->add_activation(name, DType::Int32, {model->tensors[static_cast<size_t>(tail.args[0].value)].shape[3]});
  const int64_t units = model->tensors[static_cast<size_t>(tail.args[1].value)].shape[0];
  if (is_fully_connected_f32(*model, tail)) return model->add_activation(name, DType::Float32, {units, kFloatLanes});
  return model->add_activation(name, DType::Int32, {units});
}

NodeDef tail_sum_node(ModelDef* model, const NodeDef& tail, uint32_t part, int64_t first_element, const std::string& part_name,
                      uint32_t sums, bool accumulate) {
  NodeDef sum;
  const ArgDef started = ArgDef::integer(accumulate ? 1 : 0);
  if (is_pool(*model, tail)) {
    sum.kernel = model->kernel_index("average_pool2d_sum_s8");
    sum.args = {ArgDef::input(part), ArgDef::output(sums), started};
  } else if (is_fully_connected_f32(*model, tail)) {
    sum.kernel = model->kernel_index("fully_connected_sum_f32");
    sum.args = {ArgDef::input(part), tail.args[1], ArgDef::output(sums), ArgDef::integer(first_element), started};
  } else {
    sum.kernel = model->kernel_index("fully_connected_sum_s8");
    sum.args = {ArgDef::input(part), tail.args[1], ArgDef::output(sums), ArgDef::integer(first_element), tail.args[5], tail.args[6], started};
  }
  sum.name = tail.name + " " + part_name;
  return sum;
}

NodeDef tail_finish_node(ModelDef* model, const NodeDef& tail, uint32_t sums) {
  NodeDef finish;
  if (is_pool(*model, tail)) {
    finish.kernel = model->kernel_index("average_pool2d_finish_s8");
    const TensorDef& in = model->tensors[static_cast<size_t>(tail.args[0].value)];
    finish.args = {ArgDef::input(sums), tail.args[1], ArgDef::integer(in.shape[1] * in.shape[2]), tail.args[8], tail.args[9]};
  } else if (is_fully_connected_f32(*model, tail)) {
    finish.kernel = model->kernel_index("fully_connected_finish_f32");
    finish.args = {ArgDef::input(sums), tail.args[2], tail.args[3], tail.args[4], tail.args[5]};
  } else {
    finish.kernel = model->kernel_index("fully_connected_finish_s8");
    finish.args = {ArgDef::input(sums), tail.args[2], tail.args[3], tail.args[4], tail.args[7], tail.args[8], tail.args[9]};
  }
  finish.name = tail.name + " finish";
  return finish;
}

}  // namespace grt::tools::bands
