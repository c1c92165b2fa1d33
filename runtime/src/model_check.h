// Everything the loader proves about a blob before the executor trusts it. After these
// checks pass, run() indexes and offsets without checking anything again.
#ifndef GRAPHRT_MODEL_CHECK_H_
#define GRAPHRT_MODEL_CHECK_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/graphrt.h"
#include "graphrt_generated.h"

namespace grt {

// What the executor's layout depends on, gathered by the local checks.
struct ModelCounts {
  uint32_t tensors = 0;
  uint32_t nodes = 0;
  uint32_t args = 0;
  uint32_t aliases = 0;
  uint32_t activations = 0;
  uint32_t states = 0;              // State tensors (kept across runs)
  uint64_t max_workspace = 0;       // largest node workspace
  uint64_t stack_bytes = 0;         // GRT_STRATEGY_STACK: all activations, stack-allocated
  uint64_t last_activation = 0;     // bytes of the activation of highest index (allocated last)
  uint32_t io = 0;                  // entries of the input and output lists
  uint32_t pools = 0;
  uint32_t max_args = 0;            // most arguments of one node
  uint32_t max_scratch = 0;         // most tensor arguments of one node that are not inputs/outputs
};

template <typename T>
uint32_t count_of(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

// A tensor's live range in node indices: written first at `first`, read last at `last`.
// Model inputs start at 0 and outputs end at the last node.
struct Lifetime {
  uint32_t first;
  uint32_t last;
};

// ---- subgraphs (schema 1.2) ----
// Graph 0 is the main graph; graph s + 1 is subgraph s.
constexpr uint32_t kMaxSubgraphs = 32;
// The nodes the run loop runs: all of them in a blob without subgraphs.
uint32_t main_node_count(const fb::Model* model);
// The rest has weak defaults in the core (model_subgraph_check.cpp) for programs without a
// control-flow kernel, and its real definitions in subgraph_check.cpp.
// The subgraph table: at most kMaxSubgraphs, node and tensor ranges that follow the main
// graph's in order without gaps and end with the blob's lists, inputs and outputs that are
// activations of the subgraph's own range, every node argument and alias within its graph,
// and Subgraph arguments naming only later graphs (no recursion). Runs after every other
// local check. The default refuses any blob with subgraphs.
grt_status check_subgraphs(const fb::Model* model, grt_error* error);
// When node n may run: its own index in the main graph, otherwise its subgraph's span: the
// main-graph nodes that invoke it, directly or through other subgraphs, first to last
// (UINT32_MAX for one nothing invokes). A subgraph's tensors and its nodes' workspaces are
// live for all of its span (the simplest sound choice: nothing of a subgraph shares bytes
// with anything live while it may run).
Lifetime node_span(const fb::Model* model, uint32_t n);
// note_window's part for subgraphs: their inputs count as written when they start; then
// every subgraph output must be written, and subgraph tensors take their graph's span.
void note_subgraph_inputs(const fb::Model* model, Lifetime* lives, uint32_t first, uint32_t count);
grt_status finish_subgraph_window(const fb::Model* model, Lifetime* lives, uint32_t first, uint32_t count, grt_error* error);
// Defined only in subgraph_check.cpp: grt_subgraph_run calls it so that file is linked.
int subgraph_checks_linked();

// Identifier, schema version, then FlatBuffers' verifier.
grt_status open_model(const void* blob, size_t blob_size, const fb::Model** model, grt_error* error);

// Per-tensor, per-node and per-pool checks that need no scratch memory.
grt_status check_model_local(const fb::Model* model, ModelCounts* counts, grt_error* error);

// Graph checks: production order (a node reads only what an earlier node wrote, every
// output is written) and the plan's overlaps. With a Lifetime per tensor of scratch they run
// once and leave each root's live range in `lifetimes` (an alias's entry is unset); with
// fewer (at least 2: the sizing calls, which have no memory, pass a small array) they run
// over windows of tensors, pair by pair, and the scratch holds nothing useful after.
grt_status check_model_graph(const fb::Model* model, Lifetime* lifetimes, uint32_t lifetime_count, grt_error* error);

// Byte size of a tensor of the blob; valid after check_model_local.
uint64_t tensor_bytes(const fb::Tensor* tensor);

// Where tensor t first appears in the input list followed by the output list, or -1.
int32_t io_position(const fb::Model* model, uint32_t t);

// Aliases: an alias names an earlier tensor (alias_of < its own index), lies inside it
// (offset + bytes <= the target's bytes), and ends in a tensor that is not an alias after at
// most kMaxAliasDepth links. The builder only ever aliases a tensor it already has, and the
// importer's chains (a reshape of a reshape) are one link long on every model of the zoo.
// So there are no cycles, offsets never wrap, and finding a root takes at most
// kMaxAliasDepth steps: the loader is linear in the number of tensors and arguments.
constexpr uint32_t kMaxAliasDepth = 16;

// The tensor whose bytes an alias chain ends in, and the total offset into it; UINT32_MAX
// for a chain longer than kMaxAliasDepth (valid blobs have none, after check_model_local).
uint32_t alias_root(const fb::Model* model, uint32_t tensor, uint64_t* offset);

// In-place operators (in_place_check.cpp). Whether tensors a and b, live at once and sharing
// bytes, are the one overlap a plan may hold: one dies at node n (its last reader), the other
// is born there as n's only Output argument, n reads the dying one through exactly one
// Input argument that names it directly, both are Activations of equal size at the same
// pool offset, and the dying one is no model input or output. Which input the kernel may
// overwrite is init's to check (in_place_input).
bool is_in_place_pair(const fb::Model* model, uint32_t a, const Lifetime& a_life, uint32_t b, const Lifetime& b_life);

// The index of node n's Input argument whose root shares bytes with the node's only
// Output argument, or -1. On a blob that passed check_model_graph it is the in-place input.
int32_t in_place_input(const fb::Model* model, uint32_t n);

size_t dtype_size(fb::DType dtype);
DLDataType dtype_to_dl(fb::DType dtype);

}  // namespace grt

#endif  // GRAPHRT_MODEL_CHECK_H_
