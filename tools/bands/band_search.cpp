// Choosing band plans (bands.h, search_bands and band_plan_ladder): a greedy search that
// bands, step by step, the chain and band count lowering the plan's peak most, within a
// budget of extra MACs.
#include <algorithm>
#include <functional>

#include "graphrt/tools/bands.h"
#include "graphrt/tools/planner.h"
#include "rewrite_chain.h"
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
// inputs outside, no model input), highest first: the first entry is the liveness bound of
// the pools that hold activations. Compared lexicographically, a smaller profile has a
// lower peak or fewer nodes at it.
std::vector<uint64_t> live_profile(const ModelDef& model, const PlanOptions& options) {
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
  const double allowed = static_cast<double>(result.macs) * max_extra_percent / 100.0;
  ModelDef current = trial_skeleton_of(model);
  std::vector<bool> banded(current.nodes.size(), false);
  std::vector<uint64_t> profile = live_profile(current, options);
  // The peak before any step and after each, and each step's extra MACs.
  std::vector<uint64_t> peaks = {profile.front()};
  std::vector<BandCost> step_cost;
  for (;;) {
    bool found = false;
    ModelDef best_model;
    std::vector<bool> best_banded;
    std::vector<uint64_t> best_profile = profile;
    BandStep best_step;
    BandCost best_cost;
    for (const BandChain& chain : band_chains(current, banded)) {
      const std::vector<uint32_t> counts = band_counts(current, chain, most_bands);
      for (const BandHalo halo : {BandHalo::kKeep, BandHalo::kKeepRowByRow, BandHalo::kRecompute}) {
        if (halo == BandHalo::kKeepRowByRow && (!row_by_row || counts.empty())) continue;
        if (chain.sequence && halo != BandHalo::kRecompute) continue;  // no window, no halo: one way to cut
        // Row by row, every layer advances a row at a time whatever the band count: only the
        // most bands (the finest steps to split) are worth a trial.
        const std::vector<uint32_t> tried = halo == BandHalo::kKeepRowByRow ? std::vector<uint32_t>{counts.back()} : counts;
        for (const uint32_t bands : tried) {
          ModelDef trial;
          std::vector<bool> trial_banded = banded;
          BandCost cost;
          std::string ignored;
          const BandStep step{chain, bands, halo};
          if (!bands::rewrite_chain(current, step, &cost, &trial_banded, &trial, &ignored)) break;
          if (static_cast<double>(result.extra_macs + cost.extra_macs) > allowed) break;  // more bands: more halos
          std::vector<uint64_t> trial_profile = live_profile(trial, options);
          // At the same peaks, fewer MACs, then fewer bytes moved.
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
    if (!found) break;
    current = std::move(best_model);
    banded = std::move(best_banded);
    profile = std::move(best_profile);
    result.steps.push_back(best_step);
    result.extra_macs += best_cost.extra_macs;
    peaks.push_back(profile.front());
    step_cost.push_back(best_cost);
  }
  // Steps that only lowered nodes below the peak, with nothing after them lowering the
  // peak itself, cost MACs for nothing: keep the fewest steps that reach the final peak.
  size_t needed = 0;
  while (peaks[needed] != peaks.back()) ++needed;
  result.steps.resize(needed);
  result.extra_macs = 0;
  result.copied_bytes = 0;
  for (size_t k = 0; k < needed; ++k) {
    result.extra_macs += step_cost[k].extra_macs;
    result.copied_bytes += step_cost[k].copied_bytes;
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
