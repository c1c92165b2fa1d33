// Interpreter overhead: nanoseconds per node of a model whose kernels do nothing. The
// ns_per_node counter of BM_Dispatch (prepared arguments) is the figure to compare with
// the ≤ 5 ns target; BM_DispatchLean shows what marshalling each node's arguments adds.
#include <benchmark/benchmark.h>

#include <vector>

#include "graphrt/graphrt.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/aligned_bytes.h"
#include "support/dispatch_model.h"

namespace {

void run_dispatch(benchmark::State& state, grt_arguments arguments) {
  const int nodes = static_cast<int>(state.range(0));
  const grt::tools::AlignedBytes blob(grt::tools::serialize(grt::bench::dispatch_model(nodes)));
  grt_registry registry;
  grt_registry_init(&registry, nullptr, 0, grt_builtin_kernels());
  grt_options options{};
  options.registry = &registry;
  options.arguments = arguments;
  grt_requirements req{};
  grt_error error{};
  if (grt_model_requirements_for(blob.data(), blob.size(), &options, &req, &error) != GRT_OK) {
    state.SkipWithError(error.message);
    return;
  }
  grt::tools::AlignedBytes storage(req.bookkeeping_bytes);
  grt::tools::AlignedBytes pool(req.pool_bytes[0]);
  void* pools[1] = {pool.data()};
  size_t sizes[1] = {pool.size()};
  options.memory.pool_buffers = pools;
  options.memory.pool_sizes = sizes;
  options.memory.pool_count = 1;
  grt_executor* executor = nullptr;
  if (grt_init(&executor, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error) != GRT_OK) {
    state.SkipWithError(error.message);
    return;
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(grt_run(executor));
  }
  state.counters["ns_per_node"] =
      benchmark::Counter(static_cast<double>(nodes) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bookkeeping_bytes"] = static_cast<double>(req.bookkeeping_bytes);
}

void BM_Dispatch(benchmark::State& state) { run_dispatch(state, GRT_ARGUMENTS_PREPARED); }
void BM_DispatchLean(benchmark::State& state) { run_dispatch(state, GRT_ARGUMENTS_LEAN); }

BENCHMARK(BM_Dispatch)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DispatchLean)->Arg(10000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
