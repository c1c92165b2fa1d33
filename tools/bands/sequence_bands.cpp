#include "sequence_bands.h"

#include <map>

#include "tail_ops.h"

namespace grt::tools::bands {
namespace {

// The LSTM kernels' operands (kernels/src/state/lstm_shape.h): X, the h state, Y.
constexpr int kInput = 0;
constexpr int kHState = 4;
constexpr int kOutput = 6;

bool is_lstm(const ModelDef& model, const NodeDef& node) {
  if (node.kernel >= model.kernels.size()) return false;
  const std::string& kernel = model.kernels[node.kernel];
  return kernel == "lstm_s8" || kernel == "lstm_s16" || kernel == "lstm_f32";
}

// X and Y of one batch: [1, time, features] or, time major, [time, 1, features]. With the
// states one batch row, the time axis is the one of the two that is not 1 (or, for one
// step, either).
int time_axis(const TensorDef& t) { return t.shape[0] == 1 ? 1 : 0; }

// The LSTM kernels' own limits (kernels/src/state/lstm_shape.h): steps and features below
// 2^24, so no step arithmetic here overflows on a blob not checked yet.
constexpr int64_t kMaxSteps = int64_t{1} << 24;

bool one_batch_sequence(const TensorDef& t) {
  return t.shape.size() == 3 && (t.shape[0] == 1 || t.shape[1] == 1) && t.shape[0] >= 1 && t.shape[1] >= 1 && t.shape[2] >= 1 &&
         t.shape[0] < kMaxSteps && t.shape[1] < kMaxSteps && t.shape[2] < kMaxSteps;
}

// `whole` with `steps` steps along its time axis.
std::vector<int64_t> steps_shape(const TensorDef& whole, int64_t steps) {
  std::vector<int64_t> shape = whole.shape;
  shape[static_cast<size_t>(time_axis(whole))] = steps;
  return shape;
}

uint64_t step_bytes(const TensorDef& t) { return static_cast<uint64_t>(t.shape[2]) * dtype_bytes(t.dtype); }

// Whether tensor `t` is `root` or names its bytes through aliases.
bool names(const ModelDef& model, uint32_t t, uint32_t root) { return t < model.tensors.size() && model.root_of(t) == root; }

}  // namespace

bool is_sequence_chain(const ModelDef& model, uint32_t n) {
  if (n + 1 >= model.nodes.size() || !is_lstm(model, model.nodes[n])) return false;
  const NodeDef& lstm = model.nodes[n];
  const NodeDef& tail = model.nodes[n + 1];
  const TensorDef* x = tensor_arg(model, lstm, kInput, ArgKind::Input);
  const TensorDef* h = tensor_arg(model, lstm, kHState, ArgKind::Output);
  const TensorDef* y = tensor_arg(model, lstm, kOutput, ArgKind::Output);
  if (x == nullptr || h == nullptr || y == nullptr || y->kind != TensorKind::Activation) return false;
  if (h->shape.size() != 2 || h->shape[0] != 1 || !one_batch_sequence(*x) || !one_batch_sequence(*y)) return false;
  const int64_t steps = x->shape[0] * x->shape[1];
  if (steps < 2 || y->shape[0] * y->shape[1] != steps || time_axis(*x) != time_axis(*y)) return false;
  // Y written by this node alone, read by the tail alone (once, all of it), no model output.
  const uint32_t root = static_cast<uint32_t>(lstm.args[kOutput].value);
  const TensorDef* read = tensor_arg(model, tail, 0, ArgKind::Input);
  uint64_t read_offset = 0;
  if (read == nullptr || model.root_of(static_cast<uint32_t>(tail.args[0].value), &read_offset) != root || read_offset != 0 ||
      read->bytes() != y->bytes()) {
    return false;
  }
  for (uint32_t k = 0; k < model.nodes.size(); ++k) {
    for (size_t a = 0; a < model.nodes[k].args.size(); ++a) {
      const ArgDef& arg = model.nodes[k].args[a];
      const bool tensor = arg.kind == ArgKind::Input || arg.kind == ArgKind::Output || arg.kind == ArgKind::IntArray;
      if (!tensor || arg.value < 0 || !names(model, static_cast<uint32_t>(arg.value), root)) continue;
      const bool expected = (k == n && a == static_cast<size_t>(kOutput)) || (k == n + 1 && a == 0);
      if (!expected) return false;
    }
  }
  for (const uint32_t t : model.outputs) {
    if (names(model, t, root)) return false;
  }
  return is_sequence_tail(model, tail, *read);
}

int64_t sequence_steps(const ModelDef& model, const NodeDef& node) {
  const TensorDef& x = model.tensors[static_cast<size_t>(node.args[kInput].value)];
  return x.shape[0] * x.shape[1];
}

int64_t sequence_band_limit(const ModelDef& model, uint32_t n) {
  constexpr uint64_t kBookkeepingPerBand = 2 * 8;  // two node pointers of a 64-bit host
  const uint64_t sequence_bytes = model.tensors[static_cast<size_t>(model.nodes[n].args[kOutput].value)].bytes();
  constexpr int64_t kMostBands = 128;  // band_counts' own limit
  int64_t limit = 1;
  while (limit < kMostBands && static_cast<uint64_t>(limit * limit) * kBookkeepingPerBand < sequence_bytes) ++limit;
  return limit;
}

std::vector<uint32_t> sequence_unused(const ModelDef& model, const BandChain& chain) {
  const NodeDef& tail = model.nodes[chain.first + 1];
  const uint32_t y = static_cast<uint32_t>(model.nodes[chain.first].args[kOutput].value);
  const uint32_t read = static_cast<uint32_t>(tail.args[0].value);
  return read == y ? std::vector<uint32_t>{y} : std::vector<uint32_t>{read, y};
}

bool rewrite_sequence(const ModelDef& in, const BandStep& step, BandCost* cost, std::vector<bool>* banded_nodes, ModelDef* rewritten,
                      std::string* error) {
  const uint32_t n = step.chain.first;
  const NodeDef& lstm = in.nodes[n];
  const NodeDef& tail = in.nodes[n + 1];
  const int64_t steps = sequence_steps(in, lstm);
  const int64_t bands = step.bands;
  if (bands < 2 || bands > steps) {
    *error = std::to_string(bands) + " bands asked for over " + std::to_string(steps) + " time steps (2 to the steps)";
    return false;
  }
  const uint32_t x = static_cast<uint32_t>(lstm.args[kInput].value);
  const TensorDef& y = in.tensors[static_cast<size_t>(lstm.args[kOutput].value)];
  uint64_t x_offset = 0;
  const uint32_t x_root = in.root_of(x, &x_offset);

  ModelDef out = in;
  out.nodes.erase(out.nodes.begin() + n, out.nodes.begin() + n + 2);
  const uint32_t sums = add_tail_sums(&out, tail);
  const int64_t longest = (steps + bands - 1) / bands;
  const uint32_t held = out.add_activation(y.name + " steps", y.dtype, steps_shape(y, longest), y.quantization);
  std::map<int64_t, uint32_t> held_views = {{longest, held}};  // per band length: Y's rows of that band
  std::vector<NodeDef> band_nodes;
  for (int64_t j = 0; j < bands; ++j) {
    const int64_t begin = steps * j / bands;
    const int64_t count = steps * (j + 1) / bands - begin;
    const std::string part = "steps " + std::to_string(begin) + "-" + std::to_string(begin + count - 1);
    if (held_views.count(count) == 0) held_views[count] = out.add_alias(y.name + " " + std::to_string(count) + " steps", held, steps_shape(y, count));
    NodeDef node = lstm;
    const TensorDef& whole_x = in.tensors[x];
    node.args[kInput].value = out.add_alias(whole_x.name + " " + part, x_root, steps_shape(whole_x, count),
                                            x_offset + static_cast<uint64_t>(begin) * step_bytes(whole_x));
    out.tensors.back().dtype = whole_x.dtype;
    node.args[kOutput].value = held_views[count];
    node.name = lstm.name + " " + part;
    band_nodes.push_back(std::move(node));
    band_nodes.push_back(tail_sum_node(&out, tail, held_views[count], begin * y.shape[2], part, sums, j > 0));
  }
  band_nodes.push_back(tail_finish_node(&out, tail, sums));
  out.nodes.insert(out.nodes.begin() + n, band_nodes.begin(), band_nodes.end());
  if (banded_nodes != nullptr) {
    std::vector<bool> flags = *banded_nodes;
    flags.resize(in.nodes.size(), false);
    flags.erase(flags.begin() + n, flags.begin() + n + 2);
    flags.insert(flags.begin() + n, band_nodes.size(), true);
    *banded_nodes = std::move(flags);
  }
  if (cost != nullptr) *cost = BandCost{};
  *rewritten = std::move(out);
  return true;
}

}  // namespace grt::tools::bands
