// graphrt bench dispatch [--nodes N]: what the executor itself costs per node, measured on
// a model whose every node calls the built-in kernel that does nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "../args.h"
#include "../commands.h"
#include "../format.h"
#include "../host_executor.h"
#include "../progress.h"
#include "../resource_limits.h"
#include "../report.h"
#include "graphrt/tools/model_def.h"
#include "graphrt/tools/planner.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "bench",
    "dispatch [--nodes N] [--batches N]",
    "Measures the executor's dispatch cost in nanoseconds per node.",
    "Builds a model of N nodes that call the built-in `noop` kernel (an input and an output\n"
    "argument each), runs it under the static strategy in batches of about 20 ms, and\n"
    "prints nanoseconds per node: the fastest batch and the median batch.",
    {"BENCHMARK"},
    {
        {"nodes", 0, "N", false, "nodes in the model (default 10000)"},
        {"batches", 0, "N", false, "batches to time (default 25)"},
        max_memory_option(),
    },
};

constexpr uint64_t kMaxNodes = 10000000;
constexpr double kBatchNanoseconds = 20e6;

tools::ModelDef noop_model(uint64_t nodes) {
  tools::ModelDef m;
  m.name = "bench_dispatch";
  m.producer = "graphrt bench";
  const uint32_t in = m.add_activation("in", tools::DType::Int8, {1, 16});
  const uint32_t out = m.add_activation("out", tools::DType::Int8, {1, 16});
  m.inputs = {in};
  m.outputs = {out};
  for (uint64_t n = 0; n < nodes; ++n) m.add_node("noop", {tools::ArgDef::input(in), tools::ArgDef::output(out)});
  tools::plan_default(&m);
  return m;
}

// Nanoseconds for `runs` back-to-back runs, or a negative number when a run fails.
double time_runs(grt_executor* executor, uint64_t runs) {
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t r = 0; r < runs; ++r) {
    if (grt_run(executor) != GRT_OK) return -1;
  }
  const auto stop = std::chrono::steady_clock::now();
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count());
}

}  // namespace
}  // namespace grt::cli

int run_bench_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;
  const std::string& benchmark = parsed->positionals()[0];
  if (benchmark != "dispatch") return usage_error(kSpec.name, "unknown benchmark '" + benchmark + "' (available: dispatch)");
  uint64_t nodes = 10000;
  uint64_t batches = 25;
  if (!numeric_option(kSpec, *parsed, "nodes", 1, kMaxNodes, &nodes)) return kExitUsage;
  if (!numeric_option(kSpec, *parsed, "batches", 1, 100000, &batches)) return kExitUsage;
  Limits limits;
  if (!read_limits(kSpec, *parsed, &limits)) return kExitUsage;

  const grt::tools::AlignedBytes blob(grt::tools::serialize(noop_model(nodes)));
  HostExecutor host;
  std::string error;
  HostExecutor::Options options;
  options.arguments = GRT_ARGUMENTS_PREPARED;  // dispatch speed is what prepared arguments are for
  options.max_memory_bytes = limits.max_memory_bytes;
  if (!host.init(blob, options, &error)) return fail(kSpec.name, "dispatch model: " + error);
  grt_executor* executor = host.get();

  // Warm caches and branch predictors, then size batches so the clock's resolution and
  // the loop around grt_run stay negligible.
  const double first = time_runs(executor, 1);
  if (first < 0) return fail(kSpec.name, std::string("dispatch model: ") + grt_last_error(executor)->message);
  const double one_run = std::max(1.0, time_runs(executor, 3) / 3);
  const uint64_t runs_per_batch = std::max<uint64_t>(1, static_cast<uint64_t>(kBatchNanoseconds / one_run));

  std::vector<double> ns_per_node;
  {
    Progress progress("batch", batches);
    for (uint64_t b = 0; b < batches; ++b) {
      const double ns = time_runs(executor, runs_per_batch);
      if (ns < 0) return fail(kSpec.name, std::string("dispatch model: ") + grt_last_error(executor)->message);
      ns_per_node.push_back(ns / static_cast<double>(runs_per_batch * nodes));
      progress.update(b + 1);
    }
  }
  const double fastest = *std::min_element(ns_per_node.begin(), ns_per_node.end());
  std::printf("dispatch: %llu nodes, %llu batches of %llu runs\n", static_cast<unsigned long long>(nodes),
              static_cast<unsigned long long>(batches), static_cast<unsigned long long>(runs_per_batch));
  std::printf("ns per node: min %.2f, median %.2f\n", fastest, median(ns_per_node));
  return kExitOk;
}
