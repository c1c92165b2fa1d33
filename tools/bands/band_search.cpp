// Choosing band plans (bands.h, search_bands and band_plan_ladder): a greedy search that
// bands, step by step, the chain and band count lowering the plan's peak most, within a
// budget of extra MACs.
#include <algorithm>
#include <functional>

#include "graphrt/tools/bands.h"
#include "graphrt/tools/planner.h"
#include "rewrite_chain.h"
#include "row_ops.h"
#include "sequence_bands.h"

namespace grt::tools {
namespace {

// Band counts tried per chain: a ladder up to one-row bands, without trying every count.
// `most` (0: no limit) caps them.
std::vector<uint32_t> band_counts(const ModelDef& model, const BandChain& chain, uint32_t most) {
  int64_t rows = std::min<int64_t>(band_chain_rows(model, chain), most == 0 ? 128 : std::min<uint32_t>(most, 128));
  if (chain.sequence) rows = std::min(rows, bands::sequence_band_limit(model, chain.first));
  std::vector<uint32_t> counts;
  for (const uint32_t n : {2u, 3u, 4u, 6u, 8u, 12u, 16u, 24u, 32u, 48u, 64u, 96u, 128u}) {
    if (n < rows) counts.push_back(n);
  }
  if (rows >= 2) counts.push_back(static_cast<uint32_t>(rows));
  return counts;
}

// The bytes live at each node, as the planner counts them (in-place chains one block; with
// inputs outside, no model input).
std::vector<uint64_t> live_per_node(const ModelDef& model, const PlanOptions& options) {
  const std::vector<Block> blocks = planning_blocks(model);
  const InPlaceGroups groups = group_in_place(model, blocks, options.overwritable_inputs);
  std::vector<bool> is_input(model.tensors.size(), false);
  if (options.inputs_outside) {
    for (const uint32_t t : model.inputs) is_input[model.root_of(t)] = true;
  }
  std::vector<uint64_t> live(model.nodes.size() + 1, 0);
  for (const Block& b : groups.merged) {
    if (b.tensor >= 0 && is_input[static_cast<size_t>(b.tensor)]) continue;
    for (uint32_t n = b.live.first; n <= b.live.last && n < live.size(); ++n) live[n] += b.size;
  }
  return live;
}

// live_per_node highest first: the first entry is the liveness bound of the pools that
// hold activations. Compared lexicographically, a smaller profile has a lower peak or fewer
// nodes at it.
std::vector<uint64_t> live_profile(const ModelDef& model, const PlanOptions& options) {
  std::vector<uint64_t> live = live_per_node(model, options);
  std::sort(live.begin(), live.end(), std::greater<>());
  return live;
}

// The model without its constants' bytes (every other field): what the search rewrites
// again and again.
ModelDef skeleton_of(const ModelDef& model) {
  ModelDef s;
  s.version_major = model.version_major;
  s.version_minor = model.version_minor;
  s.kernels = model.kernels;
  s.tensors = model.tensors;
  s.nodes = model.nodes;
  s.inputs = model.inputs;
  s.outputs = model.outputs;
  s.pools = model.pools;
  s.subgraphs = model.subgraphs;
  return s;
}

// What the search's trials copy: the skeleton without names and quantization, which no
// trial's profile reads (copying them was a fifth of the search's time on mobilenet_v2).
ModelDef trial_skeleton_of(const ModelDef& model) {
  ModelDef s = skeleton_of(model);
  for (TensorDef& t : s.tensors) {
    t.name.clear();
    t.quantization.reset();
  }
  for (NodeDef& n : s.nodes) n.name.clear();
  return s;
}

// What every step of one search may spend and try.
struct SearchLimits {
  const PlanOptions& options;
  double allowed_extra_macs = 0;
  uint32_t most_bands = 0;
  bool row_by_row = true;
};

// A search part way: the model with the steps so far, and what they cost.
struct SearchState {
  ModelDef model;
  std::vector<bool> banded;       // which of the model's nodes are band nodes
  std::vector<uint64_t> profile;  // live_profile of the model
  std::vector<BandStep> steps;
  std::vector<uint64_t> peaks;  // the peak before any step, then after each
  std::vector<BandCost> costs;  // each step's
  std::vector<int32_t> step_of_node;  // which step made each node of the model (-1: none)
  uint64_t extra_macs = 0;
};

// Takes, of the steps over `chains`, the one that lowers the state's profile most (at the
// same profile, fewer extra MACs, then fewer bytes moved). False: none lowers it.
bool take_best_step(SearchState* state, const std::vector<BandChain>& chains, const SearchLimits& limits) {
  bool found = false;
  ModelDef best_model;
  std::vector<bool> best_banded;
  std::vector<uint64_t> best_profile = state->profile;
  BandStep best_step;
  BandCost best_cost;
  for (const BandChain& chain : chains) {
    const std::vector<uint32_t> counts = band_counts(state->model, chain, limits.most_bands);
    for (const BandHalo halo : {BandHalo::kKeep, BandHalo::kKeepRowByRow, BandHalo::kRecompute}) {
      if (halo == BandHalo::kKeepRowByRow && (!limits.row_by_row || counts.empty())) continue;
      if (chain.sequence && halo != BandHalo::kRecompute) continue;  // no window, no halo: one way to cut
      // Row by row, every layer advances a row at a time whatever the band count: only the
      // most bands (the finest steps to split) are worth a trial.
      const std::vector<uint32_t> tried = halo == BandHalo::kKeepRowByRow ? std::vector<uint32_t>{counts.back()} : counts;
      for (const uint32_t bands : tried) {
        ModelDef trial;
        std::vector<bool> trial_banded = state->banded;
        BandCost cost;
        std::string ignored;
        const BandStep step{chain, bands, halo};
        if (!bands::rewrite_chain(state->model, step, &cost, &trial_banded, &trial, &ignored)) break;
        if (static_cast<double>(state->extra_macs + cost.extra_macs) > limits.allowed_extra_macs) break;  // more bands: more halos
        std::vector<uint64_t> trial_profile = live_profile(trial, limits.options);
        const bool cheaper = cost.extra_macs < best_cost.extra_macs ||
                             (cost.extra_macs == best_cost.extra_macs && cost.copied_bytes < best_cost.copied_bytes);
        const bool better = trial_profile < best_profile || (found && trial_profile == best_profile && cheaper);
        if (!better) continue;
        found = true;
        best_model = std::move(trial);
        best_banded = std::move(trial_banded);
        best_profile = std::move(trial_profile);
        best_step = step;
        best_cost = cost;
      }
    }
  }
  if (!found) return false;
  // The rewrite replaced the chain's nodes (and its tail) by band nodes where they were.
  const BandChain& chain = best_step.chain;
  const size_t replaced = chain.last - chain.first + 1 + (chain.tail ? 1 : 0);
  std::vector<int32_t>& made_by = state->step_of_node;
  if (chain.first + replaced <= made_by.size() && best_model.nodes.size() + replaced >= made_by.size()) {
    const size_t inserted = best_model.nodes.size() + replaced - made_by.size();
    made_by.erase(made_by.begin() + chain.first, made_by.begin() + static_cast<std::ptrdiff_t>(chain.first + replaced));
    made_by.insert(made_by.begin() + chain.first, inserted, static_cast<int32_t>(state->steps.size()));
  } else {
    made_by.assign(best_model.nodes.size(), -1);  // not the replacement expected: no split is tried
  }
  state->model = std::move(best_model);
  state->banded = std::move(best_banded);
  state->profile = std::move(best_profile);
  state->steps.push_back(best_step);
  state->peaks.push_back(state->profile.front());
  state->costs.push_back(best_cost);
  state->extra_macs += best_cost.extra_macs;
  return true;
}

// The greedy search from `state` on: while a step lowers the profile, the best one.
// `before_step` (may be null) receives the state before each step taken.
void take_steps(SearchState* state, const SearchLimits& limits, std::vector<SearchState>* before_step) {
  for (;;) {
    if (before_step != nullptr) before_step->push_back(*state);
    if (!take_best_step(state, band_chains(state->model, state->banded), limits)) break;
  }
  if (before_step != nullptr) before_step->pop_back();
}

// A greedy step bands the chain that lowers the peak most at once, which may keep more
// buffers live together than two shorter chains with a small whole tensor between them
// (VWW: one chain down to 6x6x64 keeps six kept buffers; cut after the stride-2 depthwise
// to 12x12x32, either part keeps at most four). For each step `greedy` took, this tries its
// chain cut in two at a tensor smaller than the peak reached (a larger one, whole between
// the parts, cannot lower it): the first part banded its best way, the search going on
// from there. The best of all, by profile.
SearchState split_steps(const SearchState& greedy, const std::vector<SearchState>& before_step, const SearchLimits& limits) {
  SearchState best = greedy;
  // Only the steps whose band nodes are at the peak: splitting another cannot lower it.
  const std::vector<uint64_t> live = live_per_node(greedy.model, limits.options);
  std::vector<bool> at_peak(greedy.steps.size(), false);
  for (size_t n = 0; n < greedy.model.nodes.size(); ++n) {
    if (live[n] != greedy.profile.front()) continue;
    if (greedy.step_of_node[n] < 0) return best;  // a node no step made holds the peak
    at_peak[static_cast<size_t>(greedy.step_of_node[n])] = true;
  }
  for (size_t k = 0; k < greedy.steps.size(); ++k) {
    const BandChain& chain = greedy.steps[k].chain;
    if (!at_peak[k] || chain.sequence) continue;
    const SearchState& prefix = before_step[k];
    const std::vector<BandChain> chains = band_chains(prefix.model, prefix.banded);
    for (uint32_t m = chain.first; m < chain.last; ++m) {
      const BandChain first_part{chain.first, m, false, false};
      if (std::find(chains.begin(), chains.end(), first_part) == chains.end()) continue;
      const NodeDef& node = prefix.model.nodes[m];
      const TensorDef* cut = bands::tensor_arg(prefix.model, node, bands::row_op(prefix.model.kernels[node.kernel])->output, ArgKind::Output);
      if (cut == nullptr || cut->bytes() >= greedy.profile.front()) continue;
      SearchState trial = prefix;
      if (!take_best_step(&trial, {first_part}, limits)) continue;
      // The first part's own peak stays what it is (later steps band other nodes): at or
      // above the best peak, going on cannot beat it.
      const std::vector<uint64_t> trial_live = live_per_node(trial.model, limits.options);
      const int32_t part_step = static_cast<int32_t>(trial.steps.size() - 1);
      uint64_t part_peak = 0;
      for (size_t n = 0; n < trial.model.nodes.size(); ++n) {
        if (trial.step_of_node[n] == part_step) part_peak = std::max(part_peak, trial_live[n]);
      }
      if (part_peak >= best.profile.front()) continue;
      take_steps(&trial, limits, nullptr);
      if (trial.profile < best.profile) best = std::move(trial);
    }
  }
  return best;
}

bool plan_sizes(const ModelDef& model, const PlanOptions& options, BandPlan* plan, std::string* error) {
  ModelDef banded = skeleton_of(model);
  if (!apply_band_plan(&banded, *plan, error)) return false;
  PlanReport report;
  if (!plan_model(&banded, options, &report, error)) return false;
  plan->size = report.total_size;
  plan->nodes = banded.nodes.size();
  plan->activations = 0;
  for (const PoolReport& pool : report.pools) {
    if (!(options.inputs_outside && pool.pool.name == kInputsPool)) plan->activations += pool.size;
  }
  return true;
}

// A plan that fits `budget` replaced by the cheapest that still fits at `limit`: the fewest
// bands per chain (fewer band nodes, less copying), row by row only if nothing coarser fits.
bool cheapest_within(const ModelDef& model, const PlanOptions& options, double limit, uint64_t budget, BandPlan* plan,
                     std::string* error) {
  for (const bool row_by_row : {false, true}) {
    for (const uint32_t most : {2u, 4u, 8u, 16u, 32u, 64u}) {
      BandPlan fewer;
      if (!search_bands(model, options, limit, &fewer, error, most, row_by_row)) return false;
      if (fewer.activations <= budget) {
        *plan = std::move(fewer);
        return true;
      }
    }
  }
  return true;  // none cheaper: `plan` stays
}

}  // namespace

bool apply_band_plan(ModelDef* model, const BandPlan& plan, std::string* error) {
  ModelDef banded = *model;
  for (const BandStep& step : plan.steps) {
    if (!apply_bands(&banded, step, nullptr, nullptr, error)) return false;
  }
  *model = std::move(banded);
  return true;
}

bool search_bands(const ModelDef& model, const PlanOptions& options, double max_extra_percent, BandPlan* plan, std::string* error,
                  uint32_t most_bands, bool row_by_row) {
  BandPlan result;
  result.macs = convolution_macs(model);
  const SearchLimits limits{options, static_cast<double>(result.macs) * max_extra_percent / 100.0, most_bands, row_by_row};
  SearchState start;
  start.model = trial_skeleton_of(model);
  start.banded.assign(start.model.nodes.size(), false);
  start.step_of_node.assign(start.model.nodes.size(), -1);
  start.profile = live_profile(start.model, options);
  start.peaks = {start.profile.front()};
  std::vector<SearchState> before_step;
  SearchState greedy = start;
  take_steps(&greedy, limits, &before_step);
  const SearchState best = split_steps(greedy, before_step, limits);
  // Steps that only lowered nodes below the peak, with nothing after them lowering the
  // peak itself, cost MACs for nothing: keep the fewest steps that reach the final peak.
  size_t needed = 0;
  while (best.peaks[needed] != best.peaks.back()) ++needed;
  result.steps.assign(best.steps.begin(), best.steps.begin() + static_cast<std::ptrdiff_t>(needed));
  for (size_t k = 0; k < needed; ++k) {
    result.extra_macs += best.costs[k].extra_macs;
    result.copied_bytes += best.costs[k].copied_bytes;
  }
  if (!plan_sizes(model, options, &result, error)) return false;
  *plan = std::move(result);
  return true;
}

bool band_plan_ladder(const ModelDef& model, const PlanOptions& options, double max_extra_percent, std::vector<BandPlan>* plans,
                      std::string* error, uint64_t stop_within) {
  plans->clear();
  BandPlan plain;  // no bands at all: the default plan
  plain.macs = convolution_macs(model);
  if (!plan_sizes(model, options, &plain, error)) return false;
  plans->push_back(std::move(plain));
  for (const double limit : {0.0, 1.0, 2.0, 5.0, 10.0, 15.0, 25.0, 50.0, 100.0}) {
    if (limit > max_extra_percent) break;
    if (stop_within > 0 && plans->back().activations <= stop_within) break;
    BandPlan plan;
    if (!search_bands(model, options, limit, &plan, error)) return false;
    if (stop_within > 0 && plan.activations <= stop_within && !cheapest_within(model, options, limit, stop_within, &plan, error)) {
      return false;
    }
    if (!plans->empty() && plan.activations >= plans->back().activations) continue;
    plans->push_back(std::move(plan));
  }
  return true;
}

}  // namespace grt::tools
