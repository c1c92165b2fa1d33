// The band rewrite of one chain (bands.h, apply_bands): per band, the rows each tensor of
// the chain must hold (walking back from the band's output rows), then the chain's nodes
// again over views of those rows.
#include <algorithm>
#include <map>

#include "graphrt/tools/bands.h"
#include "graphrt/tools/model_edit.h"
#include "row_ops.h"

namespace grt::tools {
namespace {

using bands::InputRows;
using bands::RowOp;
using bands::Rows;

const RowOp& op_of(const ModelDef& model, const NodeDef& node) { return *bands::row_op(model.kernels[node.kernel]); }

uint32_t arg_tensor(const NodeDef& node, int position) { return static_cast<uint32_t>(node.args[static_cast<size_t>(position)].value); }

std::vector<int64_t> rows_shape(const TensorDef& t, int64_t rows) { return {1, rows, t.shape[2], t.shape[3]}; }

}  // namespace

bool apply_bands(ModelDef* model, const BandChain& chain, uint32_t bands, uint64_t* extra_macs, std::vector<bool>* banded_nodes,
                 std::string* error) {
  const std::vector<bool> none;
  const std::vector<BandChain> accepted = band_chains(*model, none);
  if (std::none_of(accepted.begin(), accepted.end(), [&](const BandChain& c) { return c.first == chain.first && c.last == chain.last; })) {
    *error = "nodes " + std::to_string(chain.first) + " to " + std::to_string(chain.last) + " are not a chain bands can cut";
    return false;
  }
  const uint32_t length = chain.last - chain.first + 1;
  const auto node_at = [&](uint32_t k) -> const NodeDef& { return model->nodes[chain.first + k]; };
  const uint32_t final_output = arg_tensor(node_at(length - 1), op_of(*model, node_at(length - 1)).output);
  const int64_t height = model->tensors[final_output].shape[1];
  if (bands < 2 || bands > height) {
    *error = std::to_string(bands) + " bands asked for over " + std::to_string(height) + " output rows (2 to the rows)";
    return false;
  }
  std::vector<uint32_t> intermediates;  // outputs of all but the last node
  for (uint32_t k = 0; k + 1 < length; ++k) intermediates.push_back(arg_tensor(node_at(k), op_of(*model, node_at(k)).output));
  const auto is_intermediate = [&](uint32_t t) { return std::find(intermediates.begin(), intermediates.end(), t) != intermediates.end(); };

  ModelDef out = *model;
  out.nodes.erase(out.nodes.begin() + chain.first, out.nodes.begin() + chain.last + 1);
  std::vector<NodeDef> band_nodes;
  uint64_t computed_macs = 0;
  for (uint32_t j = 0; j < bands; ++j) {
    // Rows each tensor must hold for this band: the hull of what its readers need.
    std::map<uint32_t, Rows> need;
    need[final_output] = Rows{height * j / bands, height * (j + 1) / bands};
    std::vector<std::vector<InputRows>> reads(length);  // per node, per row input
    for (uint32_t k = length; k-- > 0;) {
      const NodeDef& node = node_at(k);
      const RowOp& op = op_of(*model, node);
      const auto produced = need.find(arg_tensor(node, op.output));
      if (produced == need.end() || produced->second.count() <= 0) {
        *error = "band " + std::to_string(j) + " of " + std::to_string(bands) + " leaves node " + std::to_string(chain.first + k) +
                 " no rows";
        return false;
      }
      for (const int p : op.inputs) {
        const uint32_t t = arg_tensor(node, p);
        const InputRows r = bands::input_rows(*model, node, op, model->tensors[t].shape[1], produced->second);
        if (r.rows.count() <= 0) {
          *error = "band " + std::to_string(j) + " of " + std::to_string(bands) + " reads no rows of tensor " + std::to_string(t);
          return false;
        }
        reads[k].push_back(r);
        auto [it, fresh] = need.emplace(t, r.rows);
        if (!fresh) it->second = Rows{std::min(it->second.begin, r.rows.begin), std::max(it->second.end, r.rows.end)};
      }
    }
    // The band's tensors: one activation per intermediate, holding its rows.
    std::map<uint32_t, uint32_t> band_tensor;
    for (const uint32_t t : intermediates) {
      const TensorDef& whole = model->tensors[t];
      const uint32_t b = out.add_activation(whole.name + " band " + std::to_string(j), whole.dtype, rows_shape(whole, need[t].count()),
                                            whole.quantization);
      band_tensor[t] = b;
    }
    // A tensor of rows `rows` of t: t itself, its band tensor, or a view of either.
    const auto view = [&](uint32_t t, Rows rows) -> uint32_t {
      const TensorDef whole = model->tensors[t];
      const bool inside = is_intermediate(t);
      const uint32_t base = inside ? band_tensor[t] : t;
      const int64_t first = inside ? need[t].begin : 0;
      const int64_t held = inside ? need[t].count() : whole.shape[1];
      if (rows.begin == first && rows.count() == held) return base;
      const uint64_t offset = static_cast<uint64_t>(rows.begin - first) * bands::row_bytes(whole);
      return out.add_alias(whole.name + " rows " + std::to_string(rows.begin) + "-" + std::to_string(rows.end - 1), base,
                           rows_shape(whole, rows.count()), offset);
    };
    for (uint32_t k = 0; k < length; ++k) {
      NodeDef node = node_at(k);
      const RowOp& op = op_of(*model, node);
      const uint32_t written = arg_tensor(node, op.output);
      computed_macs += bands::macs_per_row(*model, node, op) * static_cast<uint64_t>(need[written].count());
      for (size_t i = 0; i < op.inputs.size(); ++i) {
        const int p = op.inputs[i];
        node.args[static_cast<size_t>(p)].value = view(arg_tensor(node, p), reads[k][i].rows);
        if (op.window) node.args[static_cast<size_t>(op.pad_top)].value = reads[k][i].pad_top;
      }
      node.args[static_cast<size_t>(op.output)].value = view(written, need[written]);
      node.name = node.name + " band " + std::to_string(j + 1) + "/" + std::to_string(bands);
      band_nodes.push_back(std::move(node));
    }
  }
  uint64_t plain_macs = 0;
  for (uint32_t k = 0; k < length; ++k) {
    const NodeDef& node = node_at(k);
    const RowOp& op = op_of(*model, node);
    plain_macs += bands::macs_per_row(*model, node, op) * static_cast<uint64_t>(model->tensors[arg_tensor(node, op.output)].shape[1]);
  }
  out.nodes.insert(out.nodes.begin() + chain.first, band_nodes.begin(), band_nodes.end());
  remove_unused(&out, {}, intermediates);  // the chain's old intermediates
  if (banded_nodes != nullptr) {
    std::vector<bool> flags = *banded_nodes;
    flags.resize(model->nodes.size(), false);
    flags.erase(flags.begin() + chain.first, flags.begin() + chain.last + 1);
    flags.insert(flags.begin() + chain.first, band_nodes.size(), true);
    *banded_nodes = std::move(flags);
  }
  if (extra_macs != nullptr) *extra_macs = computed_macs - plain_macs;
  *model = std::move(out);
  return true;
}

}  // namespace grt::tools
