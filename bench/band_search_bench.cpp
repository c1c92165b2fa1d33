// The band search's time (search_bands at 15 % extra MACs, both halo modes, up to one-row
// bands) on the zoo's models with the most chains: what `graphrt plan --report`, the
// conformance tests and `--memory-budget` (once per ladder rung) spend. The counters give
// the search's result, so a faster search is seen to choose the same plan.
//   band_search_bench [--benchmark_filter=...]; the zoo is GRT_MODEL_ZOO or the configured one.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "bench_zoo.h"
#include "graphrt/tools/bands.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"

namespace {

void BM_SearchBands(benchmark::State& state, const std::string& model_file) {
  const std::vector<uint8_t> bytes = grt::bench::file_bytes(grt::bench::zoo_folder() / "models" / model_file);
  grt::tools::ModelDef model;
  const grt::tools::ImportResult imported = grt::tools::import_tflite(bytes.data(), bytes.size(), &model);
  if (!imported.ok) {
    state.SkipWithError(("no " + model_file + " in the zoo, or it does not import: " + imported.error).c_str());
    return;
  }
  grt::tools::BandPlan plan;
  std::string error;
  for (auto _ : state) {
    if (!grt::tools::search_bands(model, grt::tools::PlanOptions{}, 15.0, &plan, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  state.counters["chains_cut"] = static_cast<double>(plan.steps.size());
  state.counters["pool_bytes"] = static_cast<double>(plan.activations);
  state.counters["extra_macs_pct"] = plan.extra_percent();
}

BENCHMARK_CAPTURE(BM_SearchBands, kws, std::string("mlperf_kws_dscnn_int8.tflite"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchBands, vww, std::string("mlperf_vww_mobilenet_int8.tflite"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchBands, mobilenet_v2, std::string("mobilenet_v2_quantized_1x3x224x224.tflite"))->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
