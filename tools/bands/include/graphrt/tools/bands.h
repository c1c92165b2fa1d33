// Depth-first band execution (docs/memory.md, "Bands"): a chain of row-local operators
// (convolution, depthwise, pooling, same-shape ADD/SUB) cut into bands of output rows,
// each band run through the whole chain before the next. Band nodes read and write Alias
// views of whole rows (contiguous in NHWC) and keep the chain's intermediates one band
// high, so the planner reuses their bytes band after band. Every output element is
// computed by the same kernel with the same taps: the rewrite only shifts the top padding
// and the tensors' first row.
#ifndef GRAPHRT_TOOLS_BANDS_H_
#define GRAPHRT_TOOLS_BANDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/model_def.h"

namespace grt::tools {

// Nodes [first, last] of a model, in node order: a chain the rewrite can cut into bands.
// With `tail`, node last + 1 is a reduction of the chain's whole output (a global average
// pool or a fully-connected layer, its only reader) that the bands feed in parts: int32 sums
// after each band, one node finishing them after the last. The chain's output then holds
// one band, not all its rows.
//
// With `sequence`, the chain is one recurrent node (first == last: an LSTM of one batch) and
// its bands are bands of time steps: each band node runs some steps, its state carrying to
// the next, and the tail (always set) sums each band's outputs, so the output sequence is
// never whole (sequence_bands.h).
struct BandChain {
  uint32_t first = 0;
  uint32_t last = 0;
  bool tail = false;
  bool sequence = false;
  bool operator==(const BandChain& o) const { return first == o.first && last == o.last && tail == o.tail && sequence == o.sequence; }
};

// Multiply-accumulates of the convolutions and depthwise convolutions (the work halos add to).
uint64_t convolution_macs(const ModelDef& model);

// Every chain of consecutive nodes that the rewrite accepts: each node a row-local kernel
// over [1, H, W, C] tensors, the chain reading one tensor from outside (any number of
// times) and writing one tensor that leaves it (its last node's output), every tensor in
// between read only inside the chain, no model output, no alias target. Nodes marked in
// `excluded` (already banded) are never part of one. Chains of one node are left out unless
// they end in a tail: banding one operator alone saves nothing. A chain that can end in a
// tail comes twice, with and without it. Sequence chains come last.
std::vector<BandChain> band_chains(const ModelDef& model, const std::vector<bool>& excluded);

// The rows of a chain's output (of one band_chains returned), or a sequence's time steps: at
// most that many bands.
int64_t band_chain_rows(const ModelDef& model, const BandChain& chain);

// How a band gets the rows its windows share with the band before it.
enum class BandHalo : uint8_t {
  kRecompute,  // computed again: one tensor per band and intermediate, extra MACs
  kKeep,       // computed once and kept: one buffer per intermediate for every band; before
               // each band a copy node moves the rows still read to the buffer's top
  kKeepRowByRow,  // kept, and each band's work split so that no layer computes more than a
                  // row at a time: buffers about a window high, for more nodes and copies
};

// One chain cut into `bands` bands of its output rows (as even as rows allow).
struct BandStep {
  BandChain chain;
  uint32_t bands = 0;
  BandHalo halo = BandHalo::kRecompute;
};

// What a rewrite costs per inference beyond the plain model.
struct BandCost {
  uint64_t extra_macs = 0;    // convolution MACs the halos recompute
  uint64_t copied_bytes = 0;  // bytes the kept halos move
};

// Replaces `step.chain` by its bands and removes the tensors the chain no longer needs.
// `cost` (may be null) gets what it adds. On failure (a band that would be empty, a chain the
// rewrite does not accept) the model is unchanged and `error` says why. `banded_nodes` (may be
// null) receives, for the rewritten model, which nodes are band nodes.
bool apply_bands(ModelDef* model, const BandStep& step, BandCost* cost, std::vector<bool>* banded_nodes, std::string* error);

// One band plan: the chains rewritten, in order, and what it costs.
struct BandPlan {
  std::vector<BandStep> steps;
  uint64_t extra_macs = 0;
  uint64_t copied_bytes = 0;  // per inference, by the kept halos
  uint64_t macs = 0;       // of the model without bands
  uint64_t size = 0;       // the planned pools' total (plan_model's total_size)
  uint64_t activations = 0;  // the same without the caller's inputs pool (PlanOptions::inputs_outside)
  uint64_t nodes = 0;        // of the model with the plan applied: band nodes cost flash, bookkeeping and calls
  double extra_percent() const { return macs == 0 ? 0.0 : 100.0 * static_cast<double>(extra_macs) / static_cast<double>(macs); }
};

// Greedy search: while the plan's peak can drop, band the chain (kept, kept row by row
// unless `row_by_row` is false, or recomputed halos, and band count up to `most_bands`, 0:
// up to one-row bands or 128) that lowers the liveness bound most, keeping the total extra
// MACs at most `max_extra_percent` of the model's. Plans the result with `options` and
// returns it (steps empty: bands do not help). `model` is left as it was.
bool search_bands(const ModelDef& model, const PlanOptions& options, double max_extra_percent, BandPlan* plan, std::string* error,
                  uint32_t most_bands = 0, bool row_by_row = true);

// The band plans worth offering: first none (the default plan), then the searches within a
// ladder of extra-MAC limits up to `max_extra_percent`, each planned with `options`, fewest
// extra MACs first; a plan is kept only if its pools besides the caller's inputs
// (BandPlan::activations) are smaller than every one before it. With `stop_within` > 0 the
// ladder ends at the first plan whose activations fit it (each search costs seconds on a
// large model; a budget needs only the first that fits), and that plan is the cheapest that
// still fits at its extra-MAC limit: the fewest bands per chain (2, 4, ... 64, or as many as
// it takes), without row-by-row steps if those are not needed (they multiply the nodes).
bool band_plan_ladder(const ModelDef& model, const PlanOptions& options, double max_extra_percent, std::vector<BandPlan>* plans,
                      std::string* error, uint64_t stop_within = 0);

// Rewrites `model` by `plan`'s steps (the planning is the caller's).
bool apply_band_plan(ModelDef* model, const BandPlan& plan, std::string* error);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_BANDS_H_
