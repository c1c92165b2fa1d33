// Which runs of consecutive nodes the band rewrite accepts (bands.h, band_chains).
#include <algorithm>

#include "graphrt/tools/bands.h"
#include "row_ops.h"
#include "sequence_bands.h"
#include "tail_ops.h"

namespace grt::tools {
namespace {

struct TensorUse {
  std::vector<uint32_t> readers;  // nodes, once per argument
  uint32_t writers = 0;
  bool aliased = false;  // some alias tensor names it
  bool model_io = false;
};

// Every tensor index the chains follow is in range (the planner refuses the rest by name).
bool indices_in_range(const ModelDef& model) {
  const auto in_range = [&](int64_t t) { return t >= 0 && static_cast<uint64_t>(t) < model.tensors.size(); };
  for (const auto& node : model.nodes) {
    for (const auto& a : node.args) {
      if ((a.kind == ArgKind::Input || a.kind == ArgKind::Output || a.kind == ArgKind::IntArray) && !in_range(a.value)) return false;
    }
  }
  for (const uint32_t t : model.inputs) {
    if (!in_range(t)) return false;
  }
  for (const uint32_t t : model.outputs) {
    if (!in_range(t)) return false;
  }
  for (const auto& t : model.tensors) {
    if (t.kind == TensorKind::Alias && !in_range(t.alias_of)) return false;
  }
  return true;
}

std::vector<TensorUse> tensor_uses(const ModelDef& model) {
  std::vector<TensorUse> uses(model.tensors.size());
  for (uint32_t n = 0; n < model.nodes.size(); ++n) {
    for (const auto& a : model.nodes[n].args) {
      if (a.value < 0 || static_cast<uint64_t>(a.value) >= model.tensors.size()) continue;
      if (a.kind == ArgKind::Input) uses[static_cast<size_t>(a.value)].readers.push_back(n);
      if (a.kind == ArgKind::Output) uses[static_cast<size_t>(a.value)].writers++;
    }
  }
  for (const auto& t : model.tensors) {
    if (t.kind == TensorKind::Alias && t.alias_of < uses.size()) uses[t.alias_of].aliased = true;
  }
  for (const uint32_t t : model.inputs) uses[t].model_io = true;
  for (const uint32_t t : model.outputs) uses[t].model_io = true;
  return uses;
}

// The node's own shape rules: a row kernel, its row tensors [1, H, W, C] of one width per
// tensor, every other Input argument a constant, one Output argument (the op's) naming an
// Activation written by this node only. Elementwise inputs have the output's shape.
bool node_fits(const ModelDef& model, const std::vector<TensorUse>& uses, const NodeDef& node) {
  if (node.kernel >= model.kernels.size()) return false;
  const bands::RowOp* op = bands::row_op(model.kernels[node.kernel]);
  if (op == nullptr) return false;
  const auto tensor_arg = [&](int position, ArgKind kind) { return bands::tensor_arg(model, node, position, kind); };
  const TensorDef* out = tensor_arg(op->output, ArgKind::Output);
  if (out == nullptr || out->kind != TensorKind::Activation || !bands::is_row_tensor(*out)) return false;
  if (uses[static_cast<size_t>(node.args[static_cast<size_t>(op->output)].value)].writers != 1) return false;
  for (const int p : op->inputs) {
    const TensorDef* in = tensor_arg(p, ArgKind::Input);
    if (in == nullptr || !bands::is_row_tensor(*in) || in->dtype != out->dtype) return false;
    if (!op->window && in->shape != out->shape) return false;
  }
  if (op->filter_tensor >= 0) {
    const TensorDef* filter = tensor_arg(op->filter_tensor, ArgKind::Input);
    if (filter == nullptr || filter->shape.size() != 4) return false;
  }
  // Window parameters in the kernels' own range (kMaxWindowParameter), so that row
  // arithmetic cannot overflow on a blob that has not been checked yet.
  constexpr int64_t kMaxWindowParameter = int64_t{1} << 16;
  for (const int p : {op->stride, op->dilation, op->pad_top, op->filter_h}) {
    if (p < 0) continue;
    if (static_cast<size_t>(p) >= node.args.size() || node.args[static_cast<size_t>(p)].kind != ArgKind::Int) return false;
    const int64_t v = node.args[static_cast<size_t>(p)].value;
    if (v < (p == op->pad_top ? 0 : 1) || v > kMaxWindowParameter) return false;
  }
  if (op->filter_tensor >= 0) {
    const int64_t filter_h = model.tensors[static_cast<size_t>(node.args[static_cast<size_t>(op->filter_tensor)].value)].shape[1];
    if (filter_h < 1 || filter_h > kMaxWindowParameter) return false;
  }
  for (size_t p = 0; p < node.args.size(); ++p) {
    const ArgDef& a = node.args[p];
    const bool row_input = std::find(op->inputs.begin(), op->inputs.end(), static_cast<int>(p)) != op->inputs.end();
    if (a.kind == ArgKind::Output && static_cast<int>(p) != op->output) return false;
    if (a.kind != ArgKind::Input || row_input) continue;
    if (a.value < 0 || static_cast<uint64_t>(a.value) >= model.tensors.size()) return false;
    if (model.tensors[model.root_of(static_cast<uint32_t>(a.value))].kind != TensorKind::Constant) return false;
  }
  return true;
}

uint32_t output_of(const ModelDef& model, const NodeDef& node) {
  return static_cast<uint32_t>(node.args[static_cast<size_t>(bands::row_op(model.kernels[node.kernel])->output)].value);
}

}  // namespace

std::vector<BandChain> band_chains(const ModelDef& model, const std::vector<bool>& excluded) {
  // The rewrite appends nodes and tensors to the main graph, whose lists subgraphs' ranges
  // must follow (schema 1.2): a model with IF or WHILE keeps its plain plan.
  if (!model.subgraphs.empty() || !indices_in_range(model)) return {};
  const std::vector<TensorUse> uses = tensor_uses(model);
  std::vector<bool> fits(model.nodes.size());
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    fits[n] = !(n < excluded.size() && excluded[n]) && node_fits(model, uses, model.nodes[n]);
  }
  std::vector<BandChain> chains;
  for (uint32_t s = 0; s < model.nodes.size(); ++s) {
    if (!fits[s]) continue;
    std::vector<uint32_t> produced;  // outputs of the chain's nodes so far
    int64_t outside = -1;            // the one tensor the chain reads from outside
    for (uint32_t e = s; e < model.nodes.size() && fits[e]; ++e) {
      const NodeDef& node = model.nodes[e];
      const bands::RowOp* op = bands::row_op(model.kernels[node.kernel]);
      bool ok = true;
      for (const int p : op->inputs) {
        const uint32_t t = static_cast<uint32_t>(node.args[static_cast<size_t>(p)].value);
        if (std::find(produced.begin(), produced.end(), t) != produced.end()) continue;
        if (outside < 0) outside = t;
        ok = ok && outside == t;
      }
      if (!ok) break;
      produced.push_back(output_of(model, node));
      // Everything but the last output stays inside [s, e].
      bool closed = true;
      for (size_t k = 0; k + 1 < produced.size() && closed; ++k) {
        const TensorUse& use = uses[produced[k]];
        closed = !use.aliased && !use.model_io && !use.readers.empty() &&
                 std::all_of(use.readers.begin(), use.readers.end(), [&](uint32_t r) { return r >= s && r <= e; });
      }
      if (!closed) continue;
      if (e > s) chains.push_back(BandChain{s, e, false});
      // The last output read once, by the next node, a reduction of all of it.
      const TensorUse& last = uses[produced.back()];
      const uint32_t tail = e + 1;
      if (tail < model.nodes.size() && !(tail < excluded.size() && excluded[tail]) && !last.aliased && !last.model_io &&
          last.readers.size() == 1 && last.readers[0] == tail && bands::is_tail(model, model.nodes[tail], produced.back())) {
        chains.push_back(BandChain{s, e, true, false});
      }
    }
  }
  for (uint32_t n = 0; n + 1 < model.nodes.size(); ++n) {
    const bool free = !(n < excluded.size() && excluded[n]) && !(n + 1 < excluded.size() && excluded[n + 1]);
    if (free && bands::is_sequence_chain(model, n)) chains.push_back(BandChain{n, n, true, true});
  }
  return chains;
}

int64_t band_chain_rows(const ModelDef& model, const BandChain& chain) {
  if (chain.sequence) return bands::sequence_steps(model, model.nodes[chain.first]);
  return model.tensors[output_of(model, model.nodes[chain.last])].shape[1];
}

uint64_t convolution_macs(const ModelDef& model) {
  if (!indices_in_range(model)) return 0;
  uint64_t total = 0;
  for (const auto& node : model.nodes) {
    if (node.kernel >= model.kernels.size()) continue;
    const bands::RowOp* op = bands::row_op(model.kernels[node.kernel]);
    if (op == nullptr || op->macs == bands::RowOp::Macs::kNone) continue;
    const auto& args = node.args;
    if (static_cast<size_t>(op->output) >= args.size() || static_cast<size_t>(op->filter_tensor) >= args.size()) continue;
    const TensorDef& out = model.tensors[static_cast<size_t>(args[static_cast<size_t>(op->output)].value)];
    const TensorDef& filter = model.tensors[static_cast<size_t>(args[static_cast<size_t>(op->filter_tensor)].value)];
    if (out.shape.size() != 4 || filter.shape.size() != 4 ||
        std::any_of(out.shape.begin(), out.shape.end(), [](int64_t d) { return d < 0 || d > (int64_t{1} << 20); }) ||
        std::any_of(filter.shape.begin(), filter.shape.end(), [](int64_t d) { return d < 0 || d > (int64_t{1} << 20); })) {
      continue;  // no real model; the planner refuses it or it counts nothing here
    }
    total += bands::macs_per_row(model, node, *op) * static_cast<uint64_t>(out.shape[0] * out.shape[1]);
  }
  return total;
}

}  // namespace grt::tools
