// Memory each strategy needs for the real models of the zoo, beside what TensorFlow Lite
// Micro's arena needs for the same model (MANIFEST.json's tflm_arena_used_bytes).
//
//   memory_bench [zoo folder]     (default: $GRT_MODEL_ZOO, then the configured zoo)
//
// Columns, in bytes: the static plan's pools; the page allocator under DYNAMIC at 16- and
// 64-byte pages (first fit; buffer including page metadata); the stack allocator under STACK;
// and the executor's bookkeeping for each (STATIC / DYNAMIC / STACK) with the default lean
// arguments, then STATIC's with prepared arguments. Last, whether the static pools plus the
// lean bookkeeping come in below TFLM's arena ("below", or "ABOVE" by how much). A second
// table: the liveness bound (every operator's input and output apart), the static plan, the
// plan with in-place operators (`graphrt import --in-place`), the band plans (bands.h), TFLM's
// arena, and the band plan plus its bookkeeping over TFLM's arena, counted against 0.7; each band
// plan's bookkeeping (bk) is its own blob's, and "+bk" the inputs-outside plan with it over the bound.
#include <cstdio>
#include <string>
#include <vector>

#include "bench_zoo.h"
#include "graphrt/dynamic_memory.h"
#include "graphrt/graphrt.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/bands.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/model_def.h"
#include "graphrt/tools/planner.h"

namespace {

using grt::tools::AlignedBytes;

struct ManifestEntry {
  std::string file;
  long long tflm_arena_bytes = -1;
};

// Just enough of MANIFEST.json: each model's "file" and "tflm_arena_used_bytes".
std::vector<ManifestEntry> read_manifest(const std::string& text) {
  std::vector<ManifestEntry> entries;
  const std::string file_key = "\"file\": \"", arena_key = "\"tflm_arena_used_bytes\": ";
  for (size_t at = text.find(file_key); at != std::string::npos;) {
    ManifestEntry e;
    const size_t start = at + file_key.size();
    e.file = text.substr(start, text.find('"', start) - start);
    const size_t next = text.find(file_key, start);
    const size_t arena = text.find(arena_key, start);
    if (arena != std::string::npos && arena < next) e.tflm_arena_bytes = std::atoll(text.c_str() + arena + arena_key.size());
    entries.push_back(e);
    at = next;
  }
  return entries;
}

size_t page_buffer(const AlignedBytes& blob, size_t page_size, std::string* why) {
  grt_page_budget budget{};
  grt_error error{};
  grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, page_size, GRT_PAGE_FIRST_FIT, nullptr, 0, &budget, &error);
  AlignedBytes scratch(budget.scratch_bytes);
  if (grt_page_required_bytes(blob.data(), blob.size(), GRT_STRATEGY_DYNAMIC, page_size, GRT_PAGE_FIRST_FIT, scratch.data(),
                              scratch.size(), &budget, &error) != GRT_OK) {
    *why = error.message;
    return 0;
  }
  return budget.buffer_bytes;
}

uint32_t builtin_overwrites(const std::string& kernel) {
  const grt_kernel_entry* entry = grt_builtin_kernel_find(kernel.c_str());
  return entry != nullptr ? entry->overwrites : 0;
}

// The lean static bookkeeping of `model` with `plan`'s bands, planned with `options`: band
// plans have more nodes and tensors than the plain one, and the executor's tables grow with
// them. 0 when it does not load (reported by the caller's other columns).
size_t band_bookkeeping(grt::tools::ModelDef model, const grt::tools::BandPlan& plan, const grt::tools::PlanOptions& options) {
  std::string error;
  if (!grt::tools::apply_band_plan(&model, plan, &error) || !grt::tools::plan_model(&model, options, nullptr, &error)) return 0;
  const AlignedBytes blob(grt::tools::serialize(model));
  grt_requirements req{};
  grt_error status{};
  return grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &req, &status) == GRT_OK ? req.bookkeeping_bytes : 0;
}

struct BelowTheBound {
  std::string file;
  uint64_t bound = 0, plan = 0, in_place = 0;
  size_t pairs = 0;
  long long tflm = -1;
  // Bands within 15 % extra MACs, with in-place operators: all pools, and the activation
  // pools with the model inputs outside (the caller's buffer, as TinyTS counts), each with
  // the lean bookkeeping of its own blob.
  uint64_t bands = 0, bands_outside = 0;
  double extra_percent = 0, extra_percent_outside = 0;
  size_t bands_bookkeeping = 0, bands_outside_bookkeeping = 0;
  bool several_operators = false;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string zoo = grt::bench::zoo_folder(argc > 1 ? argv[1] : nullptr).string();
  const std::vector<uint8_t> manifest_bytes = grt::bench::file_bytes(zoo + "/models/MANIFEST.json");
  const std::string manifest(manifest_bytes.begin(), manifest_bytes.end());
  if (manifest.empty()) {
    std::fprintf(stderr, "no %s/models/MANIFEST.json: pass the zoo folder or set GRT_MODEL_ZOO\n", zoo.c_str());
    return 1;
  }
  std::printf("%-32s %10s %10s %10s %10s %10s   %-18s %8s %10s   %s\n", "model", "tflm arena", "static", "page16", "page64", "stack",
              "bookkeeping s/d/s", "prepared", "static+bk", "vs tflm");
  int below = 0, above = 0;
  std::vector<BelowTheBound> in_place_rows;
  for (const ManifestEntry& entry : read_manifest(manifest)) {
    const std::vector<uint8_t> bytes = grt::bench::file_bytes(zoo + "/models/" + entry.file);
    grt::tools::ModelDef model;
    const grt::tools::ImportResult imported =
        grt::tools::import_tflite(bytes.data(), bytes.size(), &model);
    if (!imported.ok || !imported.unsupported.empty()) {
      std::string why = imported.error;
      for (const auto& [op, count] : imported.unsupported) {
        if (imported.error.empty()) why += op + " x" + std::to_string(count) + " ";
      }
      std::printf("%-32s skipped: %s\n", entry.file.c_str(), why.empty() ? "import failed" : why.c_str());
      continue;
    }
    grt::tools::ModelDef in_place_model = model;
    grt::tools::plan_default(&model);
    {
      // The default algorithm (best), with and without in-place operators.
      BelowTheBound row{entry.file, 0, 0, 0, 0, entry.tflm_arena_bytes};
      row.several_operators = model.nodes.size() > 1;
      grt::tools::ModelDef plain_model = in_place_model;
      grt::tools::PlanOptions options;
      grt::tools::PlanReport plain, in_place;
      std::string plan_error;
      if (grt::tools::plan_model(&plain_model, options, &plain, &plan_error)) {
        options.overwritable_inputs = builtin_overwrites;
        if (grt::tools::plan_model(&in_place_model, options, &in_place, &plan_error)) {
          row.bound = plain.lower_bound;
          row.plan = plain.total_size;
          row.in_place = in_place.total_size;
          row.pairs = in_place.in_place_pairs;
          grt::tools::BandPlan bands;
          if (grt::tools::search_bands(plain_model, options, 15.0, &bands, &plan_error)) {
            row.bands = bands.size;
            row.extra_percent = bands.extra_percent();
            row.bands_bookkeeping = band_bookkeeping(plain_model, bands, options);
          }
          options.inputs_outside = true;
          if (grt::tools::search_bands(plain_model, options, 15.0, &bands, &plan_error)) {
            row.bands_outside = bands.activations;
            row.extra_percent_outside = bands.extra_percent();
            row.bands_outside_bookkeeping = band_bookkeeping(plain_model, bands, options);
          }
          in_place_rows.push_back(row);
        }
      }
    }
    const AlignedBytes blob(grt::tools::serialize(model));
    grt_requirements req[3]{};
    grt_error error{};
    const grt_strategy strategies[3] = {GRT_STRATEGY_STATIC, GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK};
    bool ok = true;
    for (int s = 0; s < 3 && ok; ++s) ok = grt_model_requirements(blob.data(), blob.size(), strategies[s], &req[s], &error) == GRT_OK;
    grt_requirements prepared{};
    grt_options prepared_options{};
    prepared_options.arguments = GRT_ARGUMENTS_PREPARED;
    if (ok) ok = grt_model_requirements_for(blob.data(), blob.size(), &prepared_options, &prepared, &error) == GRT_OK;
    if (!ok) {
      std::printf("%-32s skipped: %s\n", entry.file.c_str(), error.message);
      continue;
    }
    size_t pools = 0;
    for (uint32_t p = 0; p < req[0].pool_count; ++p) pools += req[0].pool_bytes[p];
    std::string why;
    const size_t page16 = page_buffer(blob, 16, &why);
    const size_t page64 = page_buffer(blob, 64, &why);
    const std::string split =
        std::to_string(req[0].bookkeeping_bytes) + "/" + std::to_string(req[1].bookkeeping_bytes) + "/" + std::to_string(req[2].bookkeeping_bytes);
    const long long total = static_cast<long long>(pools + req[0].bookkeeping_bytes);
    std::string verdict = "no tflm figure";
    if (entry.tflm_arena_bytes >= 0) {
      const bool is_below = total < entry.tflm_arena_bytes;
      (is_below ? below : above)++;
      verdict = is_below ? "below by " + std::to_string(entry.tflm_arena_bytes - total)
                         : "ABOVE by " + std::to_string(total - entry.tflm_arena_bytes);
    }
    std::printf("%-32s %10lld %10zu %10zu %10zu %10zu   %-18s %8zu %10lld   %s %s\n", entry.file.c_str(), entry.tflm_arena_bytes, pools,
                page16, page64, req[2].allocator_bytes, split.c_str(), prepared.bookkeeping_bytes, total, verdict.c_str(), why.c_str());
  }
  std::printf("static pools + lean bookkeeping below TFLM's arena: %d of %d models\n", below, below + above);
  std::printf("\n%-32s %10s %10s %10s %6s %8s %10s %7s %6s %10s %7s %6s %8s %8s %10s %7s\n", "model (pools; bk: bookkeeping)", "bound", "plan",
              "in-place", "pairs", "/bound", "bands", "+MACs%", "bk", "bands out", "+MACs%", "bk", "/bound", "+bk", "tflm arena", "/tflm");
  int within = 0, counted = 0;
  std::string missed;
  for (const BelowTheBound& r : in_place_rows) {
    // (bands + bookkeeping) / TFLM's arena: issue 17's target is 0.7 or less.
    double over_tflm = -1;
    if (r.tflm > 0 && r.bands > 0) over_tflm = static_cast<double>(r.bands + r.bands_bookkeeping) / static_cast<double>(r.tflm);
    if (over_tflm >= 0 && r.several_operators) {
      ++counted;
      if (over_tflm <= 0.7) {
        ++within;
      } else {
        missed += " " + r.file;
      }
    }
    const auto over_bound = [&r](uint64_t v) { return r.bound == 0 ? 1.0 : static_cast<double>(v) / static_cast<double>(r.bound); };
    std::printf("%-32s %10llu %10llu %10llu %6zu %8.3f %10llu %7.1f %6zu %10llu %7.1f %6zu %8.3f %8.3f %10lld %7.3f\n", r.file.c_str(),
                static_cast<unsigned long long>(r.bound), static_cast<unsigned long long>(r.plan),
                static_cast<unsigned long long>(r.in_place), r.pairs, over_bound(r.in_place), static_cast<unsigned long long>(r.bands),
                r.extra_percent, r.bands_bookkeeping, static_cast<unsigned long long>(r.bands_outside), r.extra_percent_outside,
                r.bands_outside_bookkeeping, over_bound(r.bands_outside), over_bound(r.bands_outside + r.bands_outside_bookkeeping), r.tflm,
                over_tflm);
  }
  std::printf("bands (15 %% extra MACs) + lean bookkeeping <= 0.7 x TFLM's arena: %d of %d models of more than one operator%s%s\n", within,
              counted, missed.empty() ? "" : "; above:", missed.c_str());
  return 0;
}
