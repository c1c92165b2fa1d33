#include "workspace.h"

#include <algorithm>

#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/planner.h"

namespace grt::tools::tvm {
namespace {

// Runs a probe blob's nodes 0..last under the static strategy with the caller's kernels.
class Probe {
 public:
  Probe(const std::vector<grt_kernel_entry>& kernels, uint64_t max_bytes)
      : kernels_(kernels), storage_entries_(kernels.size()), max_bytes_(max_bytes) {}

  // True when nodes 0..last all succeed; otherwise false with the runtime's message and, when
  // a node failed, its index in *failed (UINT32_MAX when init did).
  bool run(const ModelDef& model, uint32_t last, std::string* message, uint32_t* failed = nullptr) {
    if (failed != nullptr) *failed = UINT32_MAX;
    const AlignedBytes blob(serialize(model));
    grt_registry registry;
    grt_registry_init(&registry, storage_entries_.data(), storage_entries_.size(), nullptr);
    for (const grt_kernel_entry& k : kernels_) grt_registry_add_entry(&registry, &k);
    grt_options options{};
    options.registry = &registry;
    options.memory.strategy = GRT_STRATEGY_STATIC;
    grt_requirements needs{};
    grt_error status{};
    if (grt_model_requirements_for(blob.data(), blob.size(), &options, &needs, &status) != GRT_OK) {
      *message = status.message;
      return false;
    }
    uint64_t total = needs.bookkeeping_bytes;
    for (uint32_t p = 0; p < needs.pool_count; ++p) total += needs.pool_bytes[p];
    if (total > max_bytes_) {
      *message = "the probe needs " + std::to_string(total) + " bytes of memory, more than the " + std::to_string(max_bytes_) + " allowed";
      return false;
    }
    if (storage_.size() < needs.bookkeeping_bytes) storage_.resize(needs.bookkeeping_bytes);
    pools_.resize(needs.pool_count);
    std::vector<void*> buffers;
    for (uint32_t p = 0; p < needs.pool_count; ++p) {
      if (pools_[p].size() < needs.pool_bytes[p]) pools_[p].resize(needs.pool_bytes[p]);
      buffers.push_back(pools_[p].data());
    }
    options.memory.pool_buffers = buffers.data();
    options.memory.pool_sizes = needs.pool_bytes;
    options.memory.pool_count = needs.pool_count;
    // The node about to run, and the last one to.
    struct Progress {
      uint32_t current;
      uint32_t last;
    } progress{0, last};
    grt_hooks hooks{};
    hooks.before_node = [](void* user, uint32_t node) {
      auto* p = static_cast<Progress*>(user);
      p->current = node;
      return node > p->last ? 1 : 0;
    };
    hooks.user = &progress;
    options.hooks = &hooks;
    grt_executor* executor = nullptr;
    if (grt_init(&executor, storage_.data(), storage_.size(), blob.data(), blob.size(), &options, &status) != GRT_OK) {
      *message = status.message;
      return false;
    }
    const grt_status ran = grt_run(executor);
    if (ran != GRT_OK && ran != GRT_ERR_CANCELLED) {
      *message = grt_last_error(executor)->message;
      if (failed != nullptr) *failed = progress.current;
    }
    grt_release(executor);
    return ran == GRT_OK || ran == GRT_ERR_CANCELLED;
  }

 private:
  std::vector<grt_kernel_entry> kernels_;
  std::vector<grt_kernel_entry> storage_entries_;  // the registry's
  uint64_t max_bytes_;
  AlignedBytes storage_;
  std::vector<AlignedBytes> pools_;
};

}  // namespace

bool measure_workspaces(ModelDef* model, const std::vector<grt_kernel_entry>& kernels, uint64_t max_workspace, uint64_t max_probe,
                        std::string* error) {
  // Every node gets the most it may take, planned once; the search then only lowers one
  // node's bytes at a time, which keeps the plan valid.
  ModelDef probe = *model;
  for (NodeDef& n : probe.nodes) n.workspace_bytes = max_workspace / 16 * 16;
  PlanOptions plan;
  plan.algorithm = PlanAlgorithm::kGreedyBySize;
  if (!plan_model(&probe, plan, nullptr, error)) {
    *error = "measuring workspaces: planning failed: " + *error;
    return false;
  }
  Probe runner(kernels, max_probe);
  const auto last = static_cast<uint32_t>(probe.nodes.size() - 1);
  std::string message;
  if (!probe.nodes.empty() && !runner.run(probe, last, &message)) {
    *error = "measuring workspaces (each node may take up to " + std::to_string(max_workspace) + " bytes): " + message;
    return false;
  }
  // Most generated functions take no workspace: every node not yet settled runs with 16
  // bytes, too few for any allocation (each takes a 16-byte header and a payload), and only
  // the first that fails is searched for its least size; then the rest run again. Not 0:
  // the runtime leaves a node without workspace the previous node's stack, so a request
  // there would not fail.
  constexpr uint64_t kNone = 16;
  for (NodeDef& n : probe.nodes) n.workspace_bytes = kNone;
  std::vector<uint64_t> found(probe.nodes.size(), 0);
  uint32_t settled = 0;
  while (settled < probe.nodes.size()) {
    uint32_t failed = UINT32_MAX;
    if (runner.run(probe, last, &message, &failed)) break;
    if (failed < settled || failed >= probe.nodes.size()) {
      *error = "measuring workspaces: " + message;
      return false;
    }
    // Smallest k in [2, max/16] with 16k bytes enough for node `failed`; max is enough.
    uint64_t low = 2, high = std::max<uint64_t>(max_workspace / 16, 2);
    while (low < high) {
      const uint64_t mid = low + (high - low) / 2;
      probe.nodes[failed].workspace_bytes = mid * 16;
      if (runner.run(probe, failed, &message)) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    probe.nodes[failed].workspace_bytes = low * 16;
    found[failed] = low * 16;
    settled = failed + 1;
  }
  for (size_t n = 0; n < probe.nodes.size(); ++n) model->nodes[n].workspace_bytes = found[n];
  return true;
}

}  // namespace grt::tools::tvm
