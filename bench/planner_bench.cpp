// planner_bench [ZOO]: for every model in ZOO/models (default: GRT_MODEL_ZOO) that imports,
// each planning algorithm's pool size against the liveness lower bound, and how long the
// search took. The target is best <= 1.02 x bound on every model.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_zoo.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"

namespace {

namespace fs = std::filesystem;
using grt::tools::PlanAlgorithm;

double ratio(uint64_t size, uint64_t bound) { return bound == 0 ? 1.0 : static_cast<double>(size) / static_cast<double>(bound); }

}  // namespace

int main(int argc, char** argv) {
  const fs::path models = grt::bench::zoo_folder(argc > 1 ? argv[1] : nullptr) / "models";
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(models, ec)) {
    if (entry.path().extension() == ".tflite") files.push_back(entry.path());
  }
  if (files.empty()) {
    std::fprintf(stderr, "planner_bench: no .tflite models in %s (pass the zoo folder or set GRT_MODEL_ZOO)\n", models.c_str());
    return 1;
  }
  std::sort(files.begin(), files.end());
  std::printf("%-40s %7s %10s %10s %10s %10s %10s %7s %9s\n", "model", "blocks", "bound", "by_size", "by_confl", "search",
              "best", "ratio", "search_ms");
  int planned = 0;
  int over_target = 0;
  std::vector<std::string> skipped;
  for (const fs::path& file : files) {
    const std::vector<uint8_t> bytes = grt::bench::file_bytes(file);
    grt::tools::ModelDef model;
    const grt::tools::ImportResult imported = grt::tools::import_tflite(bytes.data(), bytes.size(), &model);
    if (!imported.ok) {
      skipped.push_back(file.stem().string());
      continue;
    }
    const auto blocks = grt::tools::planning_blocks(model);
    const uint64_t bound = grt::tools::liveness_lower_bound(blocks);
    std::vector<uint64_t> offsets;
    const uint64_t by_size = grt::tools::plan_greedy_by_size(blocks, &offsets);
    const uint64_t by_conflicts = grt::tools::plan_greedy_by_conflicts(blocks, &offsets);
    const auto start = std::chrono::steady_clock::now();
    const uint64_t searched = grt::tools::plan_search(blocks, {}, &offsets);
    const double search_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const uint64_t best = std::min({by_size, by_conflicts, searched});
    std::printf("%-40s %7zu %10llu %10llu %10llu %10llu %10llu %7.3f %9.1f\n", file.stem().c_str(), blocks.size(),
                static_cast<unsigned long long>(bound), static_cast<unsigned long long>(by_size),
                static_cast<unsigned long long>(by_conflicts), static_cast<unsigned long long>(searched),
                static_cast<unsigned long long>(best), ratio(best, bound), search_ms);
    ++planned;
    if (ratio(best, bound) > 1.02) ++over_target;
  }
  std::printf("\n%d models planned, %d above 1.02 x bound; %zu did not import:", planned, over_target, skipped.size());
  for (const auto& name : skipped) std::printf(" %s", name.c_str());
  std::printf("\n");
  return 0;
}
