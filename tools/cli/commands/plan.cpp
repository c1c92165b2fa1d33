// graphrt plan M.grt [--algorithm NAME|best] [--report] [--json] [-o OUT.grt]: plans the
// blob's activations and workspaces again and shows the plan against the lower bound.
#include <cstdio>
#include <string>
#include <vector>

#include "../args.h"
#include "../bands.h"
#include "../commands.h"
#include "../files.h"
#include "../in_place.h"
#include "../resource_limits.h"
#include "../model_file.h"
#include "../report.h"
#include "graphrt/graphrt.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/memory_plan.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "plan",
    "M.grt [--algorithm NAME|best] [--pool NAME:CAPACITY[:PLACEMENT[:ALIGNMENT]]]... [--in-place] [--inputs-outside]\n"
    "       [--report] [--json] [-o OUT.grt]",
    "Plans activation memory again: several algorithms, the pool sizes, the lower bound.",
    "Algorithms: greedy_by_size, greedy_by_conflicts, search (an improving search over\n"
    "placement orders, deterministic for a seed), best (all three, keeps the smallest; the\n"
    "default). The lower bound is the most bytes live during any one node.\n"
    "Without --pool the blob's pools are kept and each block stays in its pool. With --pool\n"
    "(fastest first; CAPACITY 0 means no limit) the hottest blocks, those nodes touch most\n"
    "often per byte, fill the first pool up to its capacity, the rest the next ones.\n"
    "With --in-place an elementwise operator's output may take the bytes of an input that dies\n"
    "at it, where its kernel declares that safe (the loader checks the same); --report then\n"
    "also shows the plan without it. --report and --json also show the plan with bands: chains\n"
    "of convolutions, pooling and adds run band of rows by band of rows, within 15 % extra MACs\n"
    "(`graphrt import --memory-budget` chooses bands; nothing here writes them).\n"
    "Without -o nothing is written.",
    {"M.grt"},
    {
        {"algorithm", 0, "NAME", false, "greedy_by_size, greedy_by_conflicts, search or best (default)"},
        {"pool", 0, "SPEC", true, "NAME:CAPACITY[:PLACEMENT[:ALIGNMENT]], fastest first"},
        {"iterations", 0, "N", false, "search steps (default 20000)"},
        {"seed", 0, "N", false, "search seed (default 1)"},
        {"in-place", 0, "", false, "let elementwise outputs overwrite inputs that die at them"},
        {"inputs-outside", 0, "", false, "model inputs in a pool of their own ('inputs'), the caller's buffer"},
        {"report", 0, "", false, "every algorithm's size per pool and every block's slot"},
        {"json", 0, "", false, "print the report as JSON"},
        {"output", 'o', "OUT.grt", false, "write the planned blob here"},
        max_input_option(),
    },
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts(1);
  for (const char c : text) {
    if (c == separator) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

// "sram:65536", "ext:0:external:32".
bool parse_pool(const std::string& text, tools::PoolSpec* pool, std::string* error) {
  const auto parts = split(text, ':');
  uint64_t capacity = 0;
  uint64_t alignment = 16;
  if (parts.size() < 2 || parts.size() > 4 || parts[0].empty() || !parse_unsigned(parts[1], 0, UINT64_MAX, &capacity) ||
      (parts.size() == 4 && !parse_unsigned(parts[3], 1, 4096, &alignment))) {
    *error = "--pool: '" + text + "' is not NAME:CAPACITY[:PLACEMENT[:ALIGNMENT]]";
    return false;
  }
  *pool = tools::PoolSpec{parts[0], capacity, static_cast<uint32_t>(alignment), parts.size() >= 3 ? parts[2] : ""};
  return true;
}

void print_summary(const tools::PlanReport& report) {
  for (const auto& pool : report.pools) {
    std::printf("pool '%s': %llu bytes (lower bound %llu, ratio %.3f, %s)\n", pool.pool.name.c_str(),
                static_cast<unsigned long long>(pool.size), static_cast<unsigned long long>(pool.lower_bound), pool.ratio,
                tools::algorithm_name(pool.chosen));
  }
  std::printf("total %llu bytes\n", static_cast<unsigned long long>(report.total_size));
}

}  // namespace
}  // namespace grt::cli

int run_plan_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  using grt::tools::PlanOptions;
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;

  PlanOptions options;
  if (const auto name = parsed->value("algorithm")) {
    const auto algorithm = grt::tools::parse_algorithm(*name);
    if (!algorithm) return usage_error(kSpec.name, "--algorithm: '" + *name + "' is not greedy_by_size, greedy_by_conflicts, search or best");
    options.algorithm = *algorithm;
  }
  for (const std::string& text : parsed->values("pool")) {
    grt::tools::PoolSpec pool;
    std::string error;
    if (!parse_pool(text, &pool, &error)) return usage_error(kSpec.name, error);
    options.pools.push_back(pool);
  }
  if (!numeric_option(kSpec, *parsed, "iterations", 0, UINT64_MAX, &options.search.iterations) ||
      !numeric_option(kSpec, *parsed, "seed", 0, UINT64_MAX, &options.search.seed)) {
    return kExitUsage;
  }
  if (parsed->has("in-place")) options.overwritable_inputs = builtin_overwritable_inputs();
  options.inputs_outside = parsed->has("inputs-outside");
  if (parsed->has("json") && parsed->has("report")) return usage_error(kSpec.name, "--report and --json exclude each other");
  Limits limits;
  if (!read_limits(kSpec, *parsed, &limits)) return kExitUsage;

  const std::string& path = parsed->positionals()[0];
  ModelFile file;
  std::string error;
  if (!load_model_file(path, limits, &file, &error)) return fail(kSpec.name, error);
  // The other way (with or without in-place operators) for the comparison in the reports.
  PlanOptions other = options;
  other.overwritable_inputs = options.overwritable_inputs ? grt::tools::OverwritableInputs{} : builtin_overwritable_inputs();
  grt::tools::ModelDef other_model = file.model;
  const grt::tools::ModelDef unplanned = file.model;
  grt::tools::PlanReport other_report;
  grt::tools::PlanReport report;
  if (!grt::tools::plan_model(&file.model, options, &report, &error)) return fail(kSpec.name, path + ": " + error);
  if (grt::tools::plan_model(&other_model, other, &other_report, &error)) {
    const bool in_place = static_cast<bool>(options.overwritable_inputs);
    report.comparison.plain = in_place ? other_report.total_size : report.total_size;
    report.comparison.in_place = in_place ? report.total_size : other_report.total_size;
    report.comparison.in_place_pairs = in_place ? report.in_place_pairs : other_report.in_place_pairs;
  }
  if (parsed->has("report") || parsed->has("json")) {
    grt::tools::BandPlan bands;
    if (grt::tools::search_bands(unplanned, options, kReportedExtraMacsPercent, &bands, &error)) {
      report.comparison.bands = bands.size;
      report.comparison.band_activations = bands.activations;
      report.comparison.band_chains = bands.steps.size();
      report.comparison.band_extra_macs_percent = bands.extra_percent();
      report.comparison.band_copied_bytes = bands.copied_bytes;
      report.comparison.band_nodes = bands.nodes;
    }
  }

  // The runtime's own checks are the referee: a plan it would refuse is never written.
  const grt::tools::AlignedBytes planned(grt::tools::serialize(file.model));
  grt_requirements requirements{};
  grt_error check{};
  if (grt_model_requirements(planned.data(), planned.size(), GRT_STRATEGY_STATIC, &requirements, &check) != GRT_OK) {
    return fail(kSpec.name, path + ": the planned blob does not load: " + check.message);
  }

  if (parsed->has("json")) {
    std::fputs(grt::tools::format_plan_json(report, file.model).c_str(), stdout);
  } else if (parsed->has("report")) {
    std::fputs(grt::tools::format_plan_text(report, file.model, true).c_str(), stdout);
  } else {
    print_summary(report);
  }
  if (const auto out = parsed->value("output")) {
    if (!write_file(*out, planned.data(), planned.size(), &error)) return fail(kSpec.name, error);
  }
  return kExitOk;
}
