// Dynamic memory sizing (graphrt/dynamic_memory.h): the allocator calls init and one run
// make, replayed without kernels, and the fewest pages a page allocator needs for them.
#include <string.h>

#include "executor_internal.h"
#include "graphrt/dynamic_memory.h"
#include "graphrt/subgraph.h"
#include "message.h"

namespace grt {
namespace {

}  // namespace
}  // namespace grt

// Linked only with the control kernels (subgraph_run.cpp); without them the loader refuses
// any blob with subgraphs, so a replay never gets here with a subgraph argument.
extern "C" __attribute__((weak)) int grt_subgraph_run(int64_t subgraph);

namespace grt {
namespace {

constexpr int kMostSubgraphsPerNode = 8;

// Stands in for every kernel during a replay: which allocator calls init and run() make
// does not depend on what the kernels compute, except for control nodes (IF, WHILE): the
// nodes they run take their workspaces from the allocator too. A replay runs every
// subgraph such a node names, once each: a WHILE's iterations repeat the same take and give
// back, and an IF's branches are each taken and given back, so the replay meets the most
// either could need.
int replay_kernel(TVMValue* values, int* codes, int count, TVMValue*, int*, void*) {
  int64_t subgraphs[kMostSubgraphsPerNode];
  int found = 0;
  // Read before the first run: a subgraph's nodes reuse the argument scratch (LEAN).
  for (int a = 0; a < count; ++a) {
    if (codes[a] != GRT_SUBGRAPH_ARG) continue;
    if (found == kMostSubgraphsPerNode) {
      TVMAPISetLastError("a control node names more than 8 subgraphs; the allocation replay follows at most 8");
      return -1;
    }
    subgraphs[found++] = values[a].v_int64;
  }
  for (int i = 0; i < found; ++i) {
    if (grt_subgraph_run == nullptr || grt_subgraph_run(subgraphs[i]) != 0) return -1;
  }
  return 0;
}
// It declares every input overwritable: a replay runs no kernel, so which outputs share an
// input's bytes is grt_init's to check against the real kernels, not the replay's.
constexpr grt_kernel_entry kReplayKernel = {"replay", replay_kernel, nullptr, 0, UINT32_MAX};

// A replay runs each subgraph a control node names, so nested control nodes multiply: a
// crafted blob of 32 subgraphs, each naming the next twice, would run 2^32 nodes. The
// subgraphs' nodes a replay would run are counted first (saturating) and a blob over this many is
// refused: real models run a few hundred of them.
constexpr uint64_t kMostReplayedNodes = 1u << 16;

uint64_t saturating_add(uint64_t a, uint64_t b) { return a + b > kMostReplayedNodes ? kMostReplayedNodes + 1 : a + b; }

// The nodes of subgraphs that the nodes [first, end) run in a replay (given each later
// subgraph's figure in `visits`), those nodes themselves too when `own`.
uint64_t node_visits(const fb::Model* model, uint32_t first, uint32_t end, const uint64_t* visits, bool own) {
  uint64_t total = 0;
  for (uint32_t n = first; n < end; ++n) {
    if (own) total = saturating_add(total, 1);
    const auto* args = model->nodes()->Get(n)->args();
    for (uint32_t a = 0; a < count_of(args); ++a) {
      // The loader proved every Subgraph argument in range and later than the node's graph.
      if (args->Get(a)->kind() == fb::ArgKind::Subgraph) total = saturating_add(total, visits[args->Get(a)->value()]);
    }
  }
  return total;
}

uint64_t replayed_node_visits(const fb::Model* model) {
  const auto* subgraphs = model->subgraphs();
  uint64_t visits[kMaxSubgraphs];
  // Last first: a node names only subgraphs after its own graph.
  for (uint32_t s = count_of(subgraphs); s-- > 0;) {
    const auto* sg = subgraphs->Get(s);
    visits[s] = node_visits(model, sg->first_node(), sg->first_node() + sg->node_count(), visits, true);
  }
  // The main graph's own nodes are not counted: a model without subgraphs may have any number.
  return node_visits(model, 0, main_node_count(model), visits, false);
}

uint64_t pages_for(uint64_t bytes, size_t page_size) { return bytes == 0 ? 1 : (bytes - 1) / page_size + 1; }

// Pages that every request of init and one run together take if nothing is reused: each
// activation once, and each workspace (DYNAMIC: every node's; STACK: the largest). With this
// many pages neither policy can fail: the highest used page only grows when a request
// lands above it, by that request's pages.
uint64_t pages_if_nothing_reused(const fb::Model* model, grt_strategy strategy, size_t page_size) {
  uint64_t pages = 0;
  for (uint32_t t = 0; t < count_of(model->tensors()); ++t) {  // a blob may have no tensors or nodes vector
    const auto* tensor = model->tensors()->Get(t);
    if (tensor->kind() == fb::TensorKind::Activation || tensor->kind() == fb::TensorKind::State) pages += pages_for(tensor_bytes(tensor), page_size);
  }
  uint64_t largest_workspace = 0;
  for (uint32_t n = 0; n < count_of(model->nodes()); ++n) {
    const auto* node = model->nodes()->Get(n);
    if (node->workspace_bytes() == 0) continue;
    const uint64_t workspace = pages_for(node->workspace_bytes(), page_size);
    if (strategy == GRT_STRATEGY_DYNAMIC) pages += workspace;
    if (workspace > largest_workspace) largest_workspace = workspace;
  }
  if (strategy == GRT_STRATEGY_STACK) pages += largest_workspace;
  return pages;
}

bool valid_page_size(size_t page_size) {
  return page_size >= GRT_PAGE_MIN_SIZE && (page_size & (page_size - 1)) == 0;
}

}  // namespace
}  // namespace grt

using grt::fail;

extern "C" {

grt_status grt_replay_allocations(const void* blob, size_t blob_size, grt_strategy strategy,
                                  const grt_allocator* allocator, void* storage, size_t storage_size,
                                  grt_error* error) {
  if (!grt::is_dynamic(strategy)) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "only GRT_STRATEGY_DYNAMIC and GRT_STRATEGY_STACK make allocator calls");
  }
  grt_registry unused_registry;
  grt_registry_init(&unused_registry, nullptr, 0, nullptr);
  grt_options options{};
  options.registry = &unused_registry;
  options.memory.strategy = strategy;
  options.memory.allocator = allocator;
  grt_executor* x = nullptr;
  grt_status s = grt::init_executor(&x, storage, storage_size, blob, blob_size, &options, error, &grt::kReplayKernel);
  if (s != GRT_OK) return s;
  if (grt::replayed_node_visits(x->model) > grt::kMostReplayedNodes) {
    grt_release(x);
    return fail(error, GRT_ERR_GRAPH, nullptr, "control flow nests too deeply to replay: over %u subgraph node runs", grt::kMostReplayedNodes);
  }
  s = grt_run(x);
  if (s != GRT_OK && error != nullptr) *error = x->error;
  grt_release(x);
  if (s == GRT_OK) grt::clear_error(error);
  return s;
}

grt_status grt_page_required_bytes(const void* blob, size_t blob_size, grt_strategy strategy,
                                   size_t page_size, grt_page_policy policy, void* scratch,
                                   size_t scratch_size, grt_page_budget* out, grt_error* error) {
  if (out == nullptr) return fail(error, GRT_ERR_ARGUMENT, nullptr, "page budget output is NULL");
  memset(out, 0, sizeof(*out));
  if (!grt::is_dynamic(strategy)) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "a page budget needs GRT_STRATEGY_DYNAMIC or GRT_STRATEGY_STACK");
  }
  if (!grt::valid_page_size(page_size) || (policy != GRT_PAGE_FIRST_FIT && policy != GRT_PAGE_BEST_FIT)) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "page size %u is not a power of two >= 16, or the policy is unknown", page_size);
  }
  // The checks every entry point runs, and the bookkeeping grt_model_requirements reports.
  const grt::fb::Model* model = nullptr;
  grt::ModelCounts counts;
  grt::Layout layout;
  grt_status s = grt::lay_out<grt::kNativeSizes>(blob, blob_size, strategy, GRT_ARGUMENTS_LEAN, nullptr, 0, &model, &counts,
                                                 &layout, error);
  if (s != GRT_OK) return s;
  const uint64_t most_pages = grt::pages_if_nothing_reused(model, strategy, page_size);
  if (most_pages > GRT_PAGE_MAX_COUNT || most_pages > (SIZE_MAX - page_size) / page_size ||
      most_pages > (SIZE_MAX - layout.total) / GRT_PAGE_METADATA_BYTES_PER_PAGE) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "model needs up to %u pages of %u bytes; choose larger pages", most_pages, page_size);
  }
  const size_t bookkeeping = layout.total;  // a multiple of 8
  out->scratch_bytes = bookkeeping + static_cast<size_t>(most_pages) * GRT_PAGE_METADATA_BYTES_PER_PAGE;
  if (scratch == nullptr || scratch_size < out->scratch_bytes || reinterpret_cast<uintptr_t>(scratch) % 8 != 0) {
    return fail(error, GRT_ERR_STORAGE_TOO_SMALL, nullptr, "page budget needs %u bytes of 8-byte aligned scratch, %u given",
                out->scratch_bytes, scratch == nullptr ? 0 : scratch_size);
  }
  void* metadata = static_cast<uint8_t*>(scratch) + bookkeeping;
  // A replay never touches the pages, so they get a made-up page-aligned address and
  // only the metadata needs real memory. Placement depends on page indices alone (the
  // executor asks for 16-byte alignment, never more than a page).
  void* pages = reinterpret_cast<void*>(static_cast<uintptr_t>(page_size));
  size_t peak_pages = 0;
  grt_error replay_error;
  auto replay_with = [&](size_t page_count) {
    grt_page_allocator allocator;
    grt_page_init(&allocator, pages, page_count * page_size, metadata, page_count * GRT_PAGE_METADATA_BYTES_PER_PAGE,
                  page_size, policy);
    const grt_allocator view = grt_page_as_allocator(&allocator);
    const grt_status status = grt_replay_allocations(blob, blob_size, strategy, &view, scratch, bookkeeping, &replay_error);
    peak_pages = allocator.peak_pages;
    return status;
  };
  s = replay_with(static_cast<size_t>(most_pages));
  if (s != GRT_OK) {
    if (error != nullptr) *error = replay_error;
    return s;
  }
  // No buffer holds fewer pages than are live at once; the fewest that work lie between.
  size_t low = peak_pages;
  size_t high = static_cast<size_t>(most_pages);
  out->peak_pages = peak_pages;
  if (policy == GRT_PAGE_FIRST_FIT) {
    // First fit places every request alike in any larger buffer, so success is monotonic.
    while (low < high) {
      const size_t middle = low + (high - low) / 2;
      s = replay_with(middle);
      if (s == GRT_OK) {
        high = middle;
      } else if (s == GRT_ERR_OUT_OF_MEMORY) {
        low = middle + 1;
      } else {
        if (error != nullptr) *error = replay_error;
        return s;
      }
    }
  } else {
    for (; low < high; ++low) {
      s = replay_with(low);
      if (s == GRT_OK) break;
      if (s != GRT_ERR_OUT_OF_MEMORY) {
        if (error != nullptr) *error = replay_error;
        return s;
      }
    }
  }
  out->page_count = low;
  out->buffer_bytes = grt_page_buffer_bytes(low, page_size);
  out->metadata_bytes = low * GRT_PAGE_METADATA_BYTES_PER_PAGE;
  grt::clear_error(error);
  return GRT_OK;
}

}  // extern "C"
