// Graphs for the memory tests: tensors of many sizes, fan-out and fan-in, and node
// workspaces, so that allocators fragment and strategies differ. They run a test kernel,
// "mix", whose output is checked against a host-side evaluation of the same graph.
#ifndef GRAPHRT_TESTS_ALLOCATORS_MEMORY_TEST_MODELS_H_
#define GRAPHRT_TESTS_ALLOCATORS_MEMORY_TEST_MODELS_H_

#include <cstdint>
#include <random>
#include <vector>

#include "graphrt/graphrt.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"
#include "test_models.h"

namespace grt::test {

// copy nodes are evaluated too (output = input), so copy_chain works with evaluate().
// mix(in_1 .. in_k, out, int salt, int use_workspace): out[i] = salt + sum_j in_j[i mod |in_j|]
// (int8, wrapping). With use_workspace it computes in a TVMBackendAllocWorkspace buffer the
// size of out, then copies, so the node's workspace is really used.
void add_mix_kernel(grt_registry* registry);

// Adds a mix node writing a new int8 [1, bytes] tensor; returns that tensor.
uint32_t add_mix(tools::ModelDef* m, const std::vector<uint32_t>& inputs, int64_t bytes, int8_t salt, bool use_workspace,
                 const std::string& name);

// x [1,64] -> a [200], b [48] -> c(a,b) [120] (workspace) -> d(a) [30] -> e(c,d) [300] -> y(e,b,d) [64].
tools::ModelDef branching_graph();

// A random graph of `nodes` mix nodes over tensors of 1..max_bytes bytes, with some node
// workspaces; the last node reads every tensor nobody else read, so all tensors matter.
tools::ModelDef random_graph(std::mt19937* rng, int nodes, int64_t max_bytes = 300);

// The model's output for `input`, evaluated on the host from the model definition.
std::vector<int8_t> evaluate(const tools::ModelDef& m, const std::vector<int8_t>& input);

// Input bytes that differ per seed.
std::vector<int8_t> sample_input(const tools::ModelDef& m, int seed);

// A registry with the built-in kernels and mix.
struct MixRegistry : Registry {
  MixRegistry() { add_mix_kernel(&registry); }
};

// An executor under an allocator-backed strategy, with exactly the bookkeeping it needs.
struct AllocatorRun {
  AllocatorRun(const tools::AlignedBytes& blob, grt_strategy strategy, const grt_allocator* allocator);
  ~AllocatorRun() { grt_release(executor); }
  AllocatorRun(const AllocatorRun&) = delete;
  AllocatorRun& operator=(const AllocatorRun&) = delete;
  // Writes input, runs, and returns the output bytes (empty if run failed; see status).
  std::vector<int8_t> run(const std::vector<int8_t>& input);
  MixRegistry registry;
  grt_status init_status = GRT_ERR_ARGUMENT;
  grt_status run_status = GRT_ERR_ARGUMENT;
  grt_error error{};
  tools::AlignedBytes storage;
  grt_executor* executor = nullptr;
};

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_ALLOCATORS_MEMORY_TEST_MODELS_H_
