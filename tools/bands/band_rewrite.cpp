// The band rewrite of one chain (bands.h, apply_bands): per band, the rows each tensor of
// the chain must hold (walking back from the band's output rows) and the rows each node
// computes, then the chain's nodes again over views of those rows. Halo rows are either
// computed again by every band that reads them (BandHalo::kRecompute: one tensor per band
// and intermediate) or computed once and kept (BandHalo::kKeep: one buffer per
// intermediate for every band, whose rows still needed move to its top before each band).
#include <algorithm>
#include <map>
#include <tuple>

#include "graphrt/tools/bands.h"
#include "graphrt/tools/model_edit.h"
#include "rewrite_chain.h"
#include "sequence_bands.h"
#include "row_ops.h"
#include "tail_ops.h"

namespace grt::tools {
namespace {

using bands::InputRows;
using bands::RowOp;
using bands::Rows;

const RowOp& op_of(const ModelDef& model, const NodeDef& node) { return *bands::row_op(model.kernels[node.kernel]); }

uint32_t arg_tensor(const NodeDef& node, int position) { return static_cast<uint32_t>(node.args[static_cast<size_t>(position)].value); }

std::vector<int64_t> rows_shape(const TensorDef& t, int64_t rows) { return {1, rows, t.shape[2], t.shape[3]}; }

// What one step of the rewrite reads and computes, from the row arithmetic alone.
struct BandRows {
  std::map<uint32_t, Rows> held;              // rows each intermediate's tensor holds, from its row 0
  std::map<uint32_t, Rows> computed;          // rows each node's output gets
  std::vector<std::vector<InputRows>> reads;  // per node, per row input (empty: the node does not run)
};

// The chain's tensors, numbered once: 0 the one tensor it reads from outside (band_chains
// allows one), k + 1 node k's output (the last one the chain's output); with each node's
// row op and the numbers of its row inputs, in the op's order.
struct ChainTensors {
  std::vector<uint32_t> tensor;             // by number: the tensor index
  std::vector<int64_t> height;              // by number: its rows
  std::vector<const RowOp*> op;             // per node
  std::vector<std::vector<size_t>> inputs;  // per node, per row input: its number
  size_t length() const { return op.size(); }
  // The tensors held a band at a time: every node's output but the last, and with a tail
  // (`tail`) the last one's too. In writer order.
  std::vector<uint32_t> banded(bool tail) const { return {tensor.begin() + 1, tensor.end() - (tail ? 0 : 1)}; }
  uint32_t output() const { return tensor.back(); }
  int64_t output_height() const { return height.back(); }
};

ChainTensors chain_tensors(const ModelDef& model, const BandChain& chain) {
  const uint32_t length = chain.last - chain.first + 1;
  ChainTensors c;
  c.tensor.assign(length + 1, 0);
  c.inputs.resize(length);
  for (uint32_t k = 0; k < length; ++k) {
    const NodeDef& node = model.nodes[chain.first + k];
    const RowOp& op = op_of(model, node);
    c.op.push_back(&op);
    for (const int p : op.inputs) {
      const uint32_t t = arg_tensor(node, p);
      const auto produced = std::find(c.tensor.begin() + 1, c.tensor.begin() + 1 + k, t);
      const size_t number = produced == c.tensor.begin() + 1 + k ? 0 : static_cast<size_t>(produced - c.tensor.begin());
      if (number == 0) c.tensor[0] = t;
      c.inputs[k].push_back(number);
    }
    c.tensor[k + 1] = arg_tensor(node, op.output);
  }
  for (const uint32_t t : c.tensor) c.height.push_back(model.tensors[t].shape[1]);
  return c;
}

// Recomputed halos, band j: walking back from its output rows, each tensor holds (and its
// writer computes) the hull of the rows its readers need.
bool recomputed_band(const ModelDef& model, const BandChain& chain, const ChainTensors& c, uint32_t j, uint32_t bands, BandRows* out,
                     std::string* error) {
  const auto where = [&] { return "band " + std::to_string(j) + " of " + std::to_string(bands); };
  const int64_t height = c.output_height();
  out->held[c.output()] = Rows{height * j / bands, height * (j + 1) / bands};
  out->reads.assign(c.length(), {});
  for (size_t k = c.length(); k-- > 0;) {
    const NodeDef& node = model.nodes[chain.first + k];
    const RowOp& op = *c.op[k];
    const auto held = out->held.find(c.tensor[k + 1]);
    if (held == out->held.end() || held->second.count() <= 0) {
      *error = where() + " leaves node " + std::to_string(chain.first + k) + " no rows";
      return false;
    }
    out->computed[held->first] = held->second;
    for (const size_t number : c.inputs[k]) {
      const uint32_t t = c.tensor[number];
      const InputRows r = bands::input_rows(model, node, op, c.height[number], held->second);
      if (r.rows.count() <= 0) {
        *error = where() + " reads no rows of tensor " + std::to_string(t);
        return false;
      }
      out->reads[k].push_back(r);
      auto [it, fresh] = out->held.emplace(t, r.rows);
      if (!fresh) it->second = Rows{std::min(it->second.begin, r.rows.begin), std::max(it->second.end, r.rows.end)};
    }
  }
  if (!chain.tail) out->held.erase(c.output());  // written whole, unless a tail sums it band by band
  return true;
}

// Kept halos. Every tensor of the chain has a frontier: the rows computed so far. For a
// frontier `v` of the chain's output, each tensor's is the furthest row its readers reach
// (unclipped: below 0 while the pipeline fills). By the tensors' numbers.
std::vector<int64_t> frontiers(const ModelDef& model, const BandChain& chain, const ChainTensors& c, int64_t v) {
  const size_t length = c.length();
  std::vector<int64_t> f(length + 1, INT64_MIN);
  f[length] = v;
  for (size_t k = length; k-- > 0;) {
    const NodeDef& node = model.nodes[chain.first + k];
    const int64_t out_end = f[k + 1];
    for (const size_t number : c.inputs[k]) {
      const int64_t reach = bands::input_rows(model, node, *c.op[k], INT64_MAX, Rows{out_end - 1, out_end}).rows.end;
      f[number] = std::max(f[number], reach);
    }
  }
  return f;
}

int64_t clip(int64_t row, int64_t height) { return std::clamp<int64_t>(row, 0, height); }

// Row by row: each of the steps `f` (frontiers per tensor) split into steps in which no
// tensor gains more than one row, every node computing its next row as soon as its inputs
// hold what that row reads. The layers of the highest resolution then run a row at a time
// and the strided ones below them as their inputs allow, so each kept buffer holds about a
// window of rows rather than a whole step's; the price is more nodes (and more copies).
std::vector<std::vector<int64_t>> row_by_row(const ModelDef& model, const BandChain& chain, const ChainTensors& c,
                                             const std::vector<std::vector<int64_t>>& f) {
  const size_t length = c.length();
  const auto readable = [&](size_t k, int64_t rows, const std::vector<int64_t>& frontier) {
    const NodeDef& node = model.nodes[chain.first + k];
    for (const size_t number : c.inputs[k]) {
      const int64_t available = number == 0 ? c.height[0] : frontier[number];  // the chain's input is whole
      if (bands::input_rows(model, node, *c.op[k], c.height[number], Rows{rows - 1, rows}).rows.end > available) return false;
    }
    return true;
  };
  std::vector<std::vector<int64_t>> fine;
  std::vector<int64_t> now(length + 1, 0);
  for (const std::vector<int64_t>& to : f) {
    for (;;) {
      std::vector<int64_t> next = now;
      next[0] = to[0];
      bool moved = false;
      for (size_t k = 0; k < length; ++k) {  // in chain order: a new row flows on within the step
        int64_t r = std::min(to[k + 1], now[k + 1] + 1);
        while (r > now[k + 1] && !readable(k, r, next)) --r;
        moved = moved || r > now[k + 1];
        next[k + 1] = r;
      }
      if (!moved) break;
      fine.push_back(next);
      now = std::move(next);
    }
    if (now != to) {  // never for a chain band_chains accepts: the coarse step, whole
      fine.push_back(to);
      now = to;
    }
  }
  return fine;
}

// Steps of about `rows` output rows each, the first ones filling the pipeline: the output's
// frontier starts low enough that no tensor computes more rows in the first step than in a
// steady one, so no buffer is higher than a steady step needs. Each node computes the rows
// between its output's frontiers; each intermediate holds the rows from the first any
// reader still reads to its frontier. With `one_row`, the steps are split row by row.
std::vector<BandRows> kept_steps(const ModelDef& model, const BandChain& chain, const ChainTensors& c, int64_t rows, bool one_row) {
  const size_t length = c.length();
  const int64_t height = c.output_height();
  const auto over = [&](int64_t v) {
    const std::vector<int64_t> now = frontiers(model, chain, c, v), next = frontiers(model, chain, c, v + rows);
    for (size_t i = 0; i <= length; ++i) {
      const int64_t h = c.height[i];
      if (clip(now[i], h) > clip(next[i], h) - clip(now[i], h)) return true;
    }
    return false;
  };
  int64_t start = rows;
  const int64_t lowest = -(height + 64 * static_cast<int64_t>(length));  // pipelines deeper than this just start full
  while (start > lowest && over(start)) --start;
  std::vector<std::vector<int64_t>> f;  // per step, clipped
  for (int64_t v = start;; v += rows) {
    std::vector<int64_t> step = frontiers(model, chain, c, std::min(v, height));
    for (size_t i = 0; i <= length; ++i) step[i] = clip(step[i], c.height[i]);
    f.push_back(std::move(step));
    if (v >= height) break;
  }
  if (one_row) f = row_by_row(model, chain, c, f);
  std::vector<BandRows> steps(f.size());
  for (size_t j = 0; j < f.size(); ++j) {
    steps[j].reads.assign(length, {});
    for (size_t k = 0; k < length; ++k) {
      const Rows computed{j == 0 ? 0 : f[j - 1][k + 1], f[j][k + 1]};
      if (computed.count() <= 0) continue;
      steps[j].computed[c.tensor[k + 1]] = computed;
      const NodeDef& node = model.nodes[chain.first + k];
      for (const size_t number : c.inputs[k]) {
        steps[j].reads[k].push_back(bands::input_rows(model, node, *c.op[k], c.height[number], computed));
      }
    }
  }
  // Held rows, walking back over the steps: from the first row read now or later (or the
  // first computed now) to the frontier. Only the tensors held a band at a time (numbers 1
  // to length - 1, and the chain's output with a tail, whose sum node reads each step's new
  // rows): the chain's input, and its output without a tail, are whole tensors.
  std::vector<int64_t> first_read(length + 1, INT64_MAX);  // over the steps from j on
  for (size_t j = f.size(); j-- > 0;) {
    for (size_t k = 0; k < length; ++k) {
      for (size_t i = 0; i < steps[j].reads[k].size(); ++i) {
        int64_t& first = first_read[c.inputs[k][i]];
        first = std::min(first, steps[j].reads[k][i].rows.begin);
      }
    }
    for (size_t i = 1; i < length + (chain.tail ? 1 : 0); ++i) {
      const int64_t frontier = f[j][i];
      int64_t begin = std::min(first_read[i], frontier);
      const auto computed = steps[j].computed.find(c.tensor[i]);
      if (computed != steps[j].computed.end()) begin = std::min(begin, computed->second.begin);
      if (begin < frontier) steps[j].held[c.tensor[i]] = Rows{begin, frontier};
    }
  }
  return steps;
}

// Alias views, one per (target, offset, type, shape): steady steps of a kept buffer read and
// write the same rows of it, so they share their views.
class Views {
 public:
  explicit Views(ModelDef* model) : model_(model) {}
  // Rows `rows` of a tensor like `whole`, whose rows from `first_held` on `base` holds:
  // `base` itself when it is exactly those rows.
  uint32_t rows_of(uint32_t base, const TensorDef& whole, int64_t first_held, Rows rows) {
    const uint64_t offset = static_cast<uint64_t>(rows.begin - first_held) * bands::row_bytes(whole);
    const TensorDef& holder = model_->tensors[base];
    const bool same_shape = holder.shape.size() == 4 && holder.shape[0] == 1 && holder.shape[1] == rows.count() &&
                            holder.shape[2] == whole.shape[2] && holder.shape[3] == whole.shape[3];
    if (offset == 0 && same_shape && holder.dtype == whole.dtype) return base;
    const auto key = std::make_tuple(base, offset, static_cast<int>(whole.dtype), rows.count(), whole.shape[2], whole.shape[3]);
    const auto found = made_.find(key);
    if (found != made_.end()) return found->second;
    const int64_t first = rows.begin - first_held;  // of `base`
    const std::string name = holder.name + " rows " + std::to_string(first) + "-" + std::to_string(first + rows.count() - 1);
    const uint32_t view = model_->add_alias(name, base, rows_shape(whole, rows.count()), offset);
    model_->tensors[view].dtype = whole.dtype;  // a shared scratch buffer holds tensors of any type
    model_->tensors[view].quantization = whole.quantization;
    made_.emplace(key, view);
    return view;
  }

 private:
  ModelDef* model_;
  // (base, byte offset, type, rows, width, channels): the view's shape without a vector.
  std::map<std::tuple<uint32_t, uint64_t, int, int64_t, int64_t, int64_t>, uint32_t> made_;
};

// Keep mode: intermediates that never hold a row from one step to the next (each step's
// rows are read in the step that computes them) need no buffer of their own. Those whose
// lives inside a step (from their writer to their last reader, in chain order) do not meet
// share one scratch buffer, as the planner would share their bytes. `intermediates` are in
// writer order; with a tail the last is the chain's output, read by the tail's sum node
// after the chain's last node. Returns, per such intermediate, its scratch slot;
// `slot_bytes` gets each slot's size.
std::map<uint32_t, size_t> transient_slots(const ModelDef& model, const ChainTensors& c, const std::vector<uint32_t>& intermediates,
                                           const std::vector<BandRows>& plan, std::vector<uint64_t>* slot_bytes) {
  std::map<uint32_t, size_t> slot_of;
  std::vector<uint32_t> slot_free_after;  // chain position of each slot's last reader so far
  const uint32_t length = static_cast<uint32_t>(c.length());
  for (uint32_t w = 0; w < intermediates.size(); ++w) {
    const uint32_t t = intermediates[w];
    int64_t most_rows = 0;
    bool transient = true;
    for (const BandRows& b : plan) {
      const auto held = b.held.find(t);
      if (held == b.held.end()) continue;
      const auto computed = b.computed.find(t);
      transient = transient && computed != b.computed.end() && computed->second.begin == held->second.begin &&
                  computed->second.end == held->second.end;
      most_rows = std::max(most_rows, held->second.count());
    }
    if (!transient) continue;
    uint32_t last_reader = w + 1 == length ? length : w;
    for (uint32_t k = w + 1; k < length; ++k) {
      for (const size_t number : c.inputs[k]) last_reader = number == w + 1 ? k : last_reader;  // t is number w + 1
    }
    const uint64_t bytes = static_cast<uint64_t>(most_rows) * bands::row_bytes(model.tensors[t]);
    size_t slot = 0;
    while (slot < slot_free_after.size() && slot_free_after[slot] >= w) ++slot;
    if (slot == slot_free_after.size()) {
      slot_free_after.push_back(0);
      slot_bytes->push_back(0);
    }
    slot_free_after[slot] = last_reader;
    (*slot_bytes)[slot] = std::max((*slot_bytes)[slot], bytes);
    slot_of[t] = slot;
  }
  return slot_of;
}

}  // namespace

bool apply_bands(ModelDef* model, const BandStep& step, BandCost* cost, std::vector<bool>* banded_nodes, std::string* error) {
  const BandChain& chain = step.chain;
  const std::vector<bool> none;
  const std::vector<BandChain> accepted = band_chains(*model, none);
  if (std::find(accepted.begin(), accepted.end(), chain) == accepted.end()) {
    *error = "nodes " + std::to_string(chain.first) + " to " + std::to_string(chain.last) + " are not a chain bands can cut";
    return false;
  }
  // Outputs of all but the last node (with a tail, of every node): unused once it is cut.
  const std::vector<uint32_t> unused =
      chain.sequence ? bands::sequence_unused(*model, chain) : chain_tensors(*model, chain).banded(chain.tail);
  ModelDef out;
  if (!bands::rewrite_chain(*model, step, cost, banded_nodes, &out, error)) return false;
  remove_unused(&out, {}, unused);
  *model = std::move(out);
  return true;
}

namespace bands {

bool rewrite_chain(const ModelDef& in, const BandStep& step, BandCost* cost, std::vector<bool>* banded_nodes, ModelDef* rewritten,
                   std::string* error) {
  const BandChain& chain = step.chain;
  if (chain.sequence) return rewrite_sequence(in, step, cost, banded_nodes, rewritten, error);
  const uint32_t bands = step.bands;
  const bool keep = step.halo != BandHalo::kRecompute;
  const ChainTensors c = chain_tensors(in, chain);
  const uint32_t length = static_cast<uint32_t>(c.length());
  const int64_t height = c.output_height();
  const auto node_at = [&](uint32_t k) -> const NodeDef& { return in.nodes[chain.first + k]; };
  if (bands < 2 || bands > height) {
    *error = std::to_string(bands) + " bands asked for over " + std::to_string(height) + " output rows (2 to the rows)";
    return false;
  }
  const std::vector<uint32_t> intermediates = c.banded(chain.tail);
  const auto is_intermediate = [&](uint32_t t) { return std::find(intermediates.begin(), intermediates.end(), t) != intermediates.end(); };

  std::vector<BandRows> plan;
  if (keep) {
    plan = kept_steps(in, chain, c, (height + bands - 1) / bands, step.halo == BandHalo::kKeepRowByRow);
    for (uint32_t j = 0; j < plan.size(); ++j) {
      for (const auto& reads : plan[j].reads) {
        for (const InputRows& r : reads) {
          if (r.rows.count() <= 0) {
            *error = "step " + std::to_string(j) + " of the kept rows reads no rows of a tensor";
            return false;
          }
        }
      }
    }
  } else {
    plan.resize(bands);
    for (uint32_t j = 0; j < bands; ++j) {
      if (!recomputed_band(in, chain, c, j, bands, &plan[j], error)) return false;
    }
  }

  const uint32_t replaced = length + (chain.tail ? 1 : 0);  // the chain's nodes and its tail
  ModelDef out = in;
  out.nodes.erase(out.nodes.begin() + chain.first, out.nodes.begin() + chain.first + replaced);
  const uint32_t sums = chain.tail ? bands::add_tail_sums(&out, node_at(length)) : 0;
  bool summing = false;  // a sum node has run
  Views views(&out);
  // Keep mode: each intermediate's one buffer, as high as the most rows a step holds.
  std::map<uint32_t, uint32_t> buffer;
  if (keep) {
    std::vector<uint64_t> slot_bytes;
    const std::map<uint32_t, size_t> slot_of = transient_slots(in, c, intermediates, plan, &slot_bytes);
    std::vector<uint32_t> scratch;
    for (size_t k = 0; k < slot_bytes.size(); ++k) {
      scratch.push_back(out.add_activation(in.tensors[c.output()].name + " band scratch " + std::to_string(k),
                                           DType::Int8, {1, static_cast<int64_t>(slot_bytes[k])}));
    }
    for (const auto& [t, slot] : slot_of) buffer[t] = scratch[slot];
    for (const uint32_t t : intermediates) {
      if (slot_of.count(t) != 0) continue;
      int64_t rows = 0;
      for (const BandRows& b : plan) {
        const auto held = b.held.find(t);
        if (held != b.held.end()) rows = std::max(rows, held->second.count());
      }
      const TensorDef& whole = in.tensors[t];
      buffer[t] = out.add_activation(whole.name + " kept rows", whole.dtype, rows_shape(whole, rows), whole.quantization);
    }
  }
  std::map<uint32_t, Rows> in_buffer;  // keep mode: the rows each buffer holds from its row 0
  std::vector<NodeDef> band_nodes;
  uint64_t computed_macs = 0, copied_bytes = 0;
  const uint32_t steps = static_cast<uint32_t>(plan.size());
  for (uint32_t j = 0; j < steps; ++j) {
    const BandRows& b = plan[j];
    const std::string band_name = " band " + std::to_string(j + 1) + "/" + std::to_string(steps);
    std::map<uint32_t, uint32_t> base;  // per intermediate: the tensor holding its rows this step
    for (const auto& [t, held] : b.held) {
      const TensorDef& whole = in.tensors[t];
      if (!keep) {
        base[t] = out.add_activation(whole.name + " band " + std::to_string(j), whole.dtype, rows_shape(whole, held.count()), whole.quantization);
        continue;
      }
      base[t] = buffer[t];
      // The rows this step holds that earlier steps computed move to the buffer's top (a
      // copy, before any node of the step writes the buffer); the new ones go below them.
      const Rows before = in_buffer[t];
      const Rows kept{held.begin, std::min(held.end, before.end)};
      if (kept.count() > 0 && kept.begin != before.begin) {
        NodeDef copy;
        copy.kernel = out.kernel_index("copy");
        copy.args = {ArgDef::input(views.rows_of(buffer[t], whole, before.begin, kept)),
                     ArgDef::output(views.rows_of(buffer[t], whole, kept.begin, kept))};
        copy.name = whole.name + " keeps rows " + std::to_string(kept.begin) + "-" + std::to_string(kept.end - 1) + band_name;
        band_nodes.push_back(std::move(copy));
        copied_bytes += static_cast<uint64_t>(kept.count()) * bands::row_bytes(whole);
      }
      in_buffer[t] = held;
    }
    // A tensor of rows `rows` of t: t itself, the tensor holding its rows, or a view.
    const auto view = [&](uint32_t t, Rows rows) -> uint32_t {
      const TensorDef& whole = in.tensors[t];
      if (!is_intermediate(t)) return views.rows_of(t, whole, 0, rows);
      return views.rows_of(base.at(t), whole, b.held.at(t).begin, rows);
    };
    for (uint32_t k = 0; k < length; ++k) {
      if (b.reads[k].empty()) continue;  // keep mode: no new rows of its output this step
      NodeDef node = node_at(k);
      const RowOp& op = *c.op[k];
      const uint32_t written = c.tensor[k + 1];
      const Rows rows = b.computed.at(written);
      computed_macs += bands::macs_per_row(in, node, op) * static_cast<uint64_t>(rows.count());
      for (size_t i = 0; i < op.inputs.size(); ++i) {
        const int p = op.inputs[i];
        node.args[static_cast<size_t>(p)].value = view(c.tensor[c.inputs[k][i]], b.reads[k][i].rows);
        if (op.window) node.args[static_cast<size_t>(op.pad_top)].value = b.reads[k][i].pad_top;
      }
      node.args[static_cast<size_t>(op.output)].value = view(written, rows);
      node.name = node.name + band_name;
      band_nodes.push_back(std::move(node));
    }
    const auto tail_rows = b.computed.find(c.output());
    if (chain.tail && tail_rows != b.computed.end()) {
      const uint32_t rows_view = view(c.output(), tail_rows->second);
      const Rows rows = tail_rows->second;
      const TensorDef& whole = in.tensors[c.output()];
      const std::string part = "rows " + std::to_string(rows.begin) + "-" + std::to_string(rows.end - 1);
      band_nodes.push_back(bands::tail_sum_node(&out, node_at(length), rows_view, rows.begin * whole.shape[2] * whole.shape[3], part, sums, summing));
      summing = true;
    }
  }
  if (chain.tail) band_nodes.push_back(bands::tail_finish_node(&out, node_at(length), sums));
  uint64_t plain_macs = 0;
  for (uint32_t k = 0; k < length; ++k) plain_macs += bands::macs_per_row(in, node_at(k), *c.op[k]) * static_cast<uint64_t>(c.height[k + 1]);
  out.nodes.insert(out.nodes.begin() + chain.first, band_nodes.begin(), band_nodes.end());
  if (banded_nodes != nullptr) {
    std::vector<bool> flags = *banded_nodes;
    flags.resize(in.nodes.size(), false);
    flags.erase(flags.begin() + chain.first, flags.begin() + chain.first + replaced);
    flags.insert(flags.begin() + chain.first, band_nodes.size(), true);
    *banded_nodes = std::move(flags);
  }
  if (cost != nullptr) {
    // Kept rows are computed once; rows no band reads (a stride skipping them) not at all.
    cost->extra_macs = computed_macs > plain_macs ? computed_macs - plain_macs : 0;
    cost->copied_bytes = copied_bytes;
  }
  *rewritten = std::move(out);
  return true;
}

}  // namespace bands
}  // namespace grt::tools
