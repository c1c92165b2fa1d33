// graphrt run M.grt --input FILE... : runs a blob on the host and reports its outputs,
// time per run and memory, optionally with a per-node profile.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "../args.h"
#include "../commands.h"
#include "../files.h"
#include "../format.h"
#include "../host_executor.h"
#include "../json.h"
#include "../resource_limits.h"
#include "../model_file.h"
#include "../progress.h"
#include "../report.h"
#include "../table.h"
#include "graphrt/page_allocator.h"
#include "graphrt/platform.h"
#include "graphrt/tools/tvm/kernel_library.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "run",
    "M.grt --input FILE... [--output-dir DIR] [--strategy NAME] [--arguments MODE] [--page-size BYTES] [--repeat N] [--profile] [--json]",
    "Runs a blob on the host and reports its outputs, time per run and memory.",
    "Inputs are raw little-endian tensor bytes, one --input per model input in order; each\n"
    "file must hold exactly the input's bytes. Outputs go to DIR/out0.bin, DIR/out1.bin, ...\n"
    "in the same raw form, or are shown briefly when there is no --output-dir.\n"
    "Strategies: static (the planned pools, the default); page (activations allocated and\n"
    "freed during each run from a first-fit page allocator with the fewest pages that work,\n"
    "from grt_page_required_bytes); stack (a stack allocator sized exactly, every activation\n"
    "taken once at init); heap (activations from the C heap during each run).\n"
    "Memory is the executor's bookkeeping plus the pools or the allocator's buffer (for\n"
    "the heap, its peak); the allocator's peak is what it actually handed out.",
    {"M.grt"},
    {
        {"input", 0, "FILE", true, "a model input's raw bytes; once per input, in order"},
        {"output-dir", 0, "DIR", false, "write outputs to DIR/out<j>.bin (DIR is created)"},
        {"strategy", 0, "NAME", false, "memory strategy: static, page, stack or heap (default static)"},
        {"arguments", 0, "MODE", false, "kernel arguments: lean (marshalled per node, default) or prepared (at init)"},
        {"page-size", 0, "BYTES", false, "page size for --strategy page: a power of two (default 256)"},
        {"repeat", 0, "N", false, "run N times, each from the model's initial state, and report the median time (default 1)"},
        {"profile", 0, "", false, "print time per node and per kernel"},
        {"json", 0, "", false, "print outputs' paths, time per run and memory as JSON"},
        max_input_option(),
        max_memory_option(),
        {"kernels", 0, "LIB.so", false, "TVM-generated operators the model calls, from a host shared library"},
    },
};

constexpr uint64_t kMaxRepeat = 100000000;

struct NodeTimes {
  std::vector<uint64_t> ticks;  // summed over all runs
  std::vector<const char*> kernels;
};

void record_node(void* user, uint32_t node, const char* kernel_name, uint64_t ticks) {
  auto* times = static_cast<NodeTimes*>(user);
  if (node >= times->ticks.size()) return;
  times->ticks[node] += ticks;
  times->kernels[node] = kernel_name;
}

struct OutputReport {
  std::string name;
  std::string path;  // empty when not written
  size_t bytes = 0;
};

// Bytes a node writes: the sum over its output arguments, for the profile.
uint64_t node_output_bytes(const tools::ModelDef& model, uint32_t node) {
  uint64_t bytes = 0;
  for (const tools::ArgDef& a : model.nodes[node].args) {
    if (a.kind == tools::ArgKind::Output) bytes += model.tensors[static_cast<size_t>(a.value)].bytes();
  }
  return bytes;
}

std::string percent(double share) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", share);
  return text;
}

void print_profile(const tools::ModelDef& model, const NodeTimes& times, uint64_t runs) {
  const double ns_per_tick = 1e9 / static_cast<double>(grt_platform_ticks_per_second());
  uint64_t total_ticks = 0;
  for (const uint64_t t : times.ticks) total_ticks += t;
  const auto share = [&](uint64_t ticks) { return total_ticks == 0 ? 0.0 : 100.0 * static_cast<double>(ticks) / static_cast<double>(total_ticks); };
  const auto per_run = [&](uint64_t ticks) { return static_cast<double>(ticks) * ns_per_tick / static_cast<double>(runs); };

  std::printf("\nprofile per node (time per run, mean of %llu):\n", static_cast<unsigned long long>(runs));
  Table nodes({{"node", true}, {"name"}, {"kernel"}, {"time", true}, {"share", true}, {"output bytes", true}});
  std::map<std::string, std::pair<uint64_t, uint32_t>> per_kernel;  // ticks, nodes
  for (uint32_t n = 0; n < times.ticks.size(); ++n) {
    const char* kernel = times.kernels[n] != nullptr ? times.kernels[n] : "?";
    nodes.add_row({std::to_string(n), model.nodes[n].name, kernel, format_duration(per_run(times.ticks[n])), percent(share(times.ticks[n])),
                   std::to_string(node_output_bytes(model, n))});
    auto& entry = per_kernel[kernel];
    entry.first += times.ticks[n];
    entry.second += 1;
  }
  std::fputs(nodes.text().c_str(), stdout);
  std::vector<std::pair<std::string, std::pair<uint64_t, uint32_t>>> kernels(per_kernel.begin(), per_kernel.end());
  std::stable_sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  std::printf("\nprofile per kernel (slowest first):\n");
  Table summary({{"kernel"}, {"nodes", true}, {"time", true}, {"share", true}});
  for (const auto& [kernel, entry] : kernels) {
    summary.add_row({kernel, std::to_string(entry.second), format_duration(per_run(entry.first)), percent(share(entry.first))});
  }
  std::fputs(summary.text().c_str(), stdout);
}

void print_memory(Strategy strategy, const MemoryUse& use) {
  std::printf("memory: %s with strategy %s: bookkeeping %s", format_bytes(use.total_bytes()).c_str(), strategy_name(strategy),
              format_bytes(use.bookkeeping_bytes).c_str());
  if (strategy == Strategy::kStatic) std::printf(", pools %s", format_bytes(use.pool_bytes).c_str());
  if (use.allocator_buffer_bytes != 0) std::printf(", allocator buffer %s", format_bytes(use.allocator_buffer_bytes).c_str());
  if (strategy != Strategy::kStatic) std::printf(", allocator peak %s", format_bytes(use.allocator_peak_bytes).c_str());
  std::printf("\n");
}

void print_json(const std::vector<OutputReport>& outputs, Strategy strategy, double time_ns, uint64_t runs, const MemoryUse& use) {
  Json written = Json::array();
  for (const OutputReport& o : outputs) {
    written.push_back({{"name", o.name}, {"bytes", o.bytes}, {"path", o.path.empty() ? Json() : Json(o.path)}});
  }
  const Json j = {{"outputs", std::move(written)},
                  {"strategy", strategy_name(strategy)},
                  {"runs", runs},
                  {"time_per_run_ns", time_ns},
                  {"peak_memory_bytes", use.total_bytes()},
                  {"memory",
                   {{"bookkeeping_bytes", use.bookkeeping_bytes},
                    {"pool_bytes", use.pool_bytes},
                    {"allocator_buffer_bytes", use.allocator_buffer_bytes},
                    {"allocator_peak_bytes", use.allocator_peak_bytes}}}};
  std::printf("%s\n", json_text(j).c_str());
}

// "input 0 'x'": how messages and listings name a model input or output.
std::string tensor_label(const tools::ModelDef& model, uint32_t tensor, bool input, uint32_t index) {
  return std::string(input ? "input " : "output ") + std::to_string(index) + " '" + model.tensors[tensor].name + "'";
}

}  // namespace
}  // namespace grt::cli

int run_run_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;
  const std::string& path = parsed->positionals()[0];
  uint64_t repeat = 1;
  if (!numeric_option(kSpec, *parsed, "repeat", 1, kMaxRepeat, &repeat)) return kExitUsage;
  uint64_t page_size = 256;
  if (!numeric_option(kSpec, *parsed, "page-size", GRT_PAGE_MIN_SIZE, 1u << 20, &page_size)) return kExitUsage;
  if ((page_size & (page_size - 1)) != 0) {
    return usage_error(kSpec.name, "--page-size: '" + std::to_string(page_size) + "' is not a power of two");
  }
  const std::optional<Strategy> strategy = parse_strategy(parsed->value("strategy").value_or("static"));
  if (!strategy) {
    return usage_error(kSpec.name, "--strategy: '" + *parsed->value("strategy") + "' is not one of static, page, stack, heap");
  }
  const std::optional<grt_arguments> arguments = parse_arguments(parsed->value("arguments").value_or("lean"));
  if (!arguments) return usage_error(kSpec.name, "--arguments: '" + *parsed->value("arguments") + "' is not one of lean, prepared");
  const std::vector<std::string> input_paths = parsed->values("input");
  Limits limits;
  if (!read_limits(kSpec, *parsed, &limits)) return kExitUsage;

  ModelFile file;
  std::string error;
  if (!load_model_file(path, limits, &file, &error)) return fail(kSpec.name, error);
  const grt::tools::ModelDef& model = file.model;
  if (input_paths.size() != model.inputs.size()) {
    return fail(kSpec.name, path + " has " + std::to_string(model.inputs.size()) + " input(s), " +
                                       std::to_string(input_paths.size()) + " --input file(s) given");
  }

  NodeTimes times;
  times.ticks.assign(model.nodes.size(), 0);
  times.kernels.assign(model.nodes.size(), nullptr);
  grt_hooks hooks{};
  hooks.node_done = record_node;
  hooks.user = &times;
  HostExecutor::Options options;
  options.strategy = *strategy;
  options.arguments = *arguments;
  options.page_size = static_cast<size_t>(page_size);
  options.max_memory_bytes = limits.max_memory_bytes;
  options.hooks = parsed->has("profile") ? &hooks : nullptr;
  grt::tools::tvm::KernelLibrary library;
  if (const auto library_path = parsed->value("kernels")) {
    if (!library.open(*library_path, &error)) return fail(kSpec.name, error);
    options.kernels = grt::tools::tvm::kernel_entries(model, library.lookup());
  }
  HostExecutor host;
  if (!host.init(file.blob, options, &error)) return fail(kSpec.name, path + ": " + error);
  grt_executor* executor = host.get();

  std::vector<grt::tools::AlignedBytes> inputs(input_paths.size());
  for (uint32_t i = 0; i < input_paths.size(); ++i) {
    if (!read_file(input_paths[i], limits.max_input_bytes, &inputs[i], &error)) return fail(kSpec.name, error);
    const size_t expected = grt_tensor_bytes(grt_input(executor, i));
    if (inputs[i].size() != expected) {
      return fail(kSpec.name, input_paths[i] + ": " + tensor_label(model, model.inputs[i], true, i) + " needs " +
                                  std::to_string(expected) + " bytes, the file has " + std::to_string(inputs[i].size()));
    }
  }

  // Inputs are copied before every run: a plan may reuse an input's bytes once it is read.
  // State (LSTM, SVDF, variables) is reset too: every run computes what the first did, so
  // the outputs written are one run's whatever --repeat says.
  std::vector<double> run_ns;
  run_ns.reserve(repeat);
  {
    Progress progress("run", repeat);
    for (uint64_t r = 0; r < repeat; ++r) {
      if (grt_reset_state(executor) != GRT_OK) return fail(kSpec.name, path + ": " + grt_last_error(executor)->message);
      for (uint32_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].size() != 0) std::memcpy(grt_input(executor, i)->data, inputs[i].data(), inputs[i].size());
      }
      const auto start = std::chrono::steady_clock::now();
      const grt_status status = grt_run(executor);
      const auto stop = std::chrono::steady_clock::now();
      if (status != GRT_OK) return fail(kSpec.name, path + ": run " + std::to_string(r + 1) + ": " + grt_last_error(executor)->message);
      run_ns.push_back(static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count()));
      progress.update(r + 1);
    }
  }

  std::vector<OutputReport> outputs;
  const std::optional<std::string> output_dir = parsed->value("output-dir");
  if (output_dir) {
    std::error_code ec;
    std::filesystem::create_directories(*output_dir, ec);
    if (ec) return fail(kSpec.name, *output_dir + ": cannot create folder (" + ec.message() + ")");
  }
  const bool json = parsed->has("json");
  for (uint32_t o = 0; o < grt_output_count(executor); ++o) {
    const DLTensor* tensor = grt_output(executor, o);
    OutputReport report{model.tensors[model.outputs[o]].name, "", grt_tensor_bytes(tensor)};
    if (output_dir) {
      report.path = (std::filesystem::path(*output_dir) / ("out" + std::to_string(o) + ".bin")).string();
      if (!write_file(report.path, tensor->data, report.bytes, &error)) return fail(kSpec.name, error);
      if (!json) std::printf("%s -> %s (%zu bytes)\n", tensor_label(model, model.outputs[o], false, o).c_str(), report.path.c_str(), report.bytes);
    } else if (!json) {
      std::vector<int64_t> shape(tensor->shape, tensor->shape + tensor->ndim);
      std::printf("%s %s %s: %s\n", tensor_label(model, model.outputs[o], false, o).c_str(),
                  format_dtype(tensor->dtype).c_str(), format_shape(shape).c_str(),
                  format_values(tensor->data, report.bytes, tensor->dtype, 16).c_str());
    }
    outputs.push_back(report);
  }

  const double time_ns = median(run_ns);
  const MemoryUse use = host.memory_use();
  if (json) {
    print_json(outputs, *strategy, time_ns, repeat, use);
    return kExitOk;
  }
  std::printf("time per run: %s (median of %llu)\n", format_duration(time_ns).c_str(), static_cast<unsigned long long>(repeat));
  print_memory(*strategy, use);
  if (parsed->has("profile")) print_profile(model, times, repeat);
  return kExitOk;
}
