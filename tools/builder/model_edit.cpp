// Removing what a rewrite left unnamed (model_edit.h).
#include "graphrt/tools/model_edit.h"

#include <algorithm>
#include <utility>

namespace grt::tools {
namespace {

// For each old index, its new one (the count of kept entries before it), and how many stay.
std::vector<uint32_t> new_indices(const std::vector<bool>& keep) {
  std::vector<uint32_t> index(keep.size() + 1, 0);
  for (size_t i = 0; i < keep.size(); ++i) index[i + 1] = index[i] + (keep[i] ? 1 : 0);
  return index;
}

template <typename T>
std::vector<T> kept(std::vector<T>* items, const std::vector<bool>& keep) {
  std::vector<T> out;
  for (size_t i = 0; i < items->size(); ++i) {
    if (keep[i]) out.push_back(std::move((*items)[i]));
  }
  return out;
}

// A range [first, first + count) of a list, over the entries that stay.
void narrow(const std::vector<uint32_t>& index, uint32_t* first, uint32_t* count) {
  const uint32_t end = index[*first + *count];
  *first = index[*first];
  *count = end - *first;
}

}  // namespace

bool names_tensor(const ArgDef& arg) { return arg.kind == ArgKind::Input || arg.kind == ArgKind::Output || arg.kind == ArgKind::IntArray; }

std::vector<uint32_t> use_counts(const ModelDef& model) {
  std::vector<uint32_t> uses(model.tensors.size(), 0);
  const auto named = [&uses](int64_t t) {
    if (t >= 0 && static_cast<uint64_t>(t) < uses.size()) ++uses[static_cast<size_t>(t)];
  };
  for (const NodeDef& node : model.nodes) {
    for (const ArgDef& a : node.args) {
      if (names_tensor(a)) named(a.value);
    }
  }
  for (const TensorDef& tensor : model.tensors) {
    if (tensor.kind == TensorKind::Alias) named(tensor.alias_of);
  }
  for (const uint32_t t : model.inputs) named(t);
  for (const uint32_t t : model.outputs) named(t);
  for (const SubgraphDef& sub : model.subgraphs) {
    for (const uint32_t t : sub.inputs) named(t);
    for (const uint32_t t : sub.outputs) named(t);
  }
  return uses;
}

uint32_t uses_of(const ModelDef& model, uint32_t t) {
  const std::vector<uint32_t> uses = use_counts(model);
  return t < uses.size() ? uses[t] : 0;
}

void remove_unused(ModelDef* model, const std::vector<bool>& dropped_nodes, const std::vector<uint32_t>& candidate_tensors) {
  std::vector<bool> keep_node(model->nodes.size(), true);
  for (size_t n = 0; n < dropped_nodes.size() && n < keep_node.size(); ++n) keep_node[n] = !dropped_nodes[n];
  const std::vector<uint32_t> node_index = new_indices(keep_node);
  model->nodes = kept(&model->nodes, keep_node);

  std::vector<uint32_t> uses = use_counts(*model);  // counted once: a rewrite may leave thousands of candidates
  std::vector<bool> keep_tensor(model->tensors.size(), true);
  // A candidate alias that goes no longer uses its target: the target goes too if it is a
  // candidate (in one pass when aliases come before their targets).
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (const uint32_t t : candidate_tensors) {
      if (t >= keep_tensor.size() || !keep_tensor[t] || uses[t] != 0) continue;
      keep_tensor[t] = false;
      dropped = true;
      const TensorDef& gone = model->tensors[t];
      if (gone.kind == TensorKind::Alias && gone.alias_of < uses.size()) --uses[gone.alias_of];
    }
  }
  const std::vector<uint32_t> tensor_index = new_indices(keep_tensor);
  model->tensors = kept(&model->tensors, keep_tensor);

  const auto holds_bytes = [](const TensorDef& t) { return t.kind == TensorKind::Constant || t.kind == TensorKind::State; };
  std::vector<bool> keep_buffer(model->buffers.size(), false);
  for (const TensorDef& t : model->tensors) {
    if (holds_bytes(t) && t.buffer < keep_buffer.size()) keep_buffer[t.buffer] = true;
  }
  const std::vector<uint32_t> buffer_index = new_indices(keep_buffer);
  model->buffers = kept(&model->buffers, keep_buffer);

  std::vector<bool> keep_kernel(model->kernels.size(), false);
  for (const NodeDef& node : model->nodes) {
    if (node.kernel < keep_kernel.size()) keep_kernel[node.kernel] = true;
  }
  const std::vector<uint32_t> kernel_index = new_indices(keep_kernel);
  model->kernels = kept(&model->kernels, keep_kernel);

  for (TensorDef& t : model->tensors) {
    if (t.kind == TensorKind::Alias) t.alias_of = tensor_index[t.alias_of];
    if (holds_bytes(t) && t.buffer < keep_buffer.size()) t.buffer = buffer_index[t.buffer];
  }
  for (NodeDef& node : model->nodes) {
    if (node.kernel < keep_kernel.size()) node.kernel = kernel_index[node.kernel];
    for (ArgDef& a : node.args) {
      if (names_tensor(a)) a.value = tensor_index[static_cast<size_t>(a.value)];
    }
  }
  for (uint32_t& t : model->inputs) t = tensor_index[t];
  for (uint32_t& t : model->outputs) t = tensor_index[t];
  for (SubgraphDef& s : model->subgraphs) {
    narrow(node_index, &s.first_node, &s.node_count);
    narrow(tensor_index, &s.first_tensor, &s.tensor_count);
    for (uint32_t& t : s.inputs) t = tensor_index[t];
    for (uint32_t& t : s.outputs) t = tensor_index[t];
  }
}

}  // namespace grt::tools
