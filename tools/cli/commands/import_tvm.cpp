// graphrt import GRAPH -o OUT.grt [--params P.bin] [--kernels LIB.so] [--algorithm NAME]:
// TVM graph-executor artifacts in (graph JSON + params, Kenning's .graph_data, or a Model
// Library Format tar, told apart by their bytes), a planned graphrt blob out.
// `graphrt import` hands over here when its input is one of these.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../args.h"
#include "../commands.h"
#include "../files.h"
#include "../format.h"
#include "../host_executor.h"
#include "../report.h"
#include "../resource_limits.h"
#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/planner.h"
#include "graphrt/tools/tvm/kernel_library.h"
#include "graphrt/tools/tvm/tvm_import.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "import",
    "GRAPH -o OUT.grt [--params P.bin] [--kernels LIB.so] [--algorithm NAME]",
    "Converts TVM graph-executor artifacts to a graphrt blob with its static memory plan.",
    "GRAPH is TVM's graph JSON (then --params gives the params file), Kenning's .graph_data\n"
    "container, or a Model Library Format tar with the graph executor; the bytes say which.\n"
    "Params become constants, graph entries tensors, each tvm_op a node calling its generated\n"
    "function; graphrt plans the memory (TVM's storage ids are reported, not used).\n"
    "Each node's workspace comes from metadata.json, or is measured by running the nodes once\n"
    "with the generated operators from --kernels (a host shared library).",
    {"GRAPH"},
    {
        {"output", 'o', "OUT.grt", false, "where to write the blob (required)"},
        {"params", 0, "P.bin", false, "with graph JSON: TVM's params file"},
        {"kernels", 0, "LIB.so", false, "the generated operators built for the host, to measure workspaces"},
        {"algorithm", 0, "NAME", false, "memory planning algorithm (default best)"},
        max_input_option(),
    },
};

}  // namespace
}  // namespace grt::cli

bool is_tvm_import(const std::vector<std::string>& args) {
  namespace tools = grt::tools;
  for (const std::string& arg : args) {
    std::error_code ec;
    if (arg.empty() || arg[0] == '-' || !std::filesystem::is_regular_file(arg, ec)) continue;
    // The first 512 bytes and the file's size say the format: nothing more is read here.
    const uint64_t size = std::filesystem::file_size(arg, ec);
    if (ec) continue;
    std::ifstream in(arg, std::ios::binary);
    std::vector<uint8_t> head(512);
    in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    if (tools::tvm::detect_format(head.data(), head.size()) != tools::tvm::Format::kUnknown) return true;
    if (head.size() >= 9 && head[8] == '{') {  // Kenning's container: u32 JSON length, u32 params length
      const uint64_t json = head[0] | head[1] << 8 | head[2] << 16 | uint64_t{head[3]} << 24;
      const uint64_t params = head[4] | head[5] << 8 | head[6] << 16 | uint64_t{head[7]} << 24;
      if (json + params + 8 == size) return true;
    }
  }
  return false;
}

int run_tvm_import_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  namespace tvm = grt::tools::tvm;
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;
  const std::string& path = parsed->positionals()[0];
  const std::optional<std::string> output = parsed->value("output");
  if (!output) return usage_error(kSpec.name, "-o OUT.grt is required");
  const std::string algorithm_text = parsed->value("algorithm").value_or("best");
  const std::optional<grt::tools::PlanAlgorithm> algorithm = grt::tools::parse_algorithm(algorithm_text);
  if (!algorithm) {
    return usage_error(kSpec.name, "--algorithm: '" + algorithm_text + "' is not one of greedy_by_size, greedy_by_conflicts, search, best");
  }

  Limits limits;
  if (!read_limits(kSpec, *parsed, &limits)) return kExitUsage;
  std::string error;
  grt::tools::AlignedBytes input, params;
  if (!read_file(path, limits.max_input_bytes, &input, &error)) return fail(kSpec.name, error);
  if (const auto params_path = parsed->value("params")) {
    if (!read_file(*params_path, limits.max_input_bytes, &params, &error)) return fail(kSpec.name, error);
  }
  tvm::Artifacts artifacts;
  const std::vector<uint8_t> params_bytes(params.data(), params.data() + params.size());
  if (!tvm::read_artifacts(input.data(), input.size(), params_bytes, &artifacts, &error)) return fail(kSpec.name, path + ": " + error);
  if (parsed->has("params") && tvm::detect_format(input.data(), input.size()) != tvm::Format::kGraphJson) {
    return usage_error(kSpec.name, "--params goes with graph JSON; " + path + " holds its own params");
  }

  tvm::KernelLibrary library;
  tvm::ImportOptions options;
  std::vector<grt_kernel_entry> kernels;
  if (const auto library_path = parsed->value("kernels")) {
    if (!library.open(*library_path, &error)) return fail(kSpec.name, error);
    options.kernels = library.lookup();
  }
  grt::tools::ModelDef model;
  tvm::ImportReport report;
  if (!tvm::import_graph(artifacts, options, &model, &report, &error)) return fail(kSpec.name, path + ": " + error);

  grt::tools::PlanOptions plan;
  plan.algorithm = *algorithm;
  grt::tools::PlanReport plan_report;
  if (!grt::tools::plan_model(&model, plan, &plan_report, &error)) return fail(kSpec.name, path + ": planning failed: " + error);
  model.name = std::filesystem::path(path).stem().string();
  model.producer = tvm::producer_for(tvm::detect_format(input.data(), input.size()), std::string("graphrt import ") + GRT_VERSION) + " (" +
                   grt::tools::algorithm_name(*algorithm) + ")";
  const grt::tools::AlignedBytes blob(grt::tools::serialize(model));
  {
    // Never write a blob the runtime would refuse: with the operators at hand, load it as
    // a device would; without them, every check but kernel resolution.
    HostExecutor check;
    HostExecutor::Options check_options;
    check_options.kernels = tvm::kernel_entries(model, options.kernels ? options.kernels : [](const std::string&) -> TVMBackendPackedCFunc { return nullptr; });
    grt_requirements needs{};
    grt_error status{};
    if (options.kernels ? !check.init(blob, check_options, &error)
                        : grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &needs, &status) != GRT_OK) {
      return fail(kSpec.name, path + ": the converted model does not load: " + (options.kernels ? error : std::string(status.message)));
    }
  }
  if (!write_file(*output, blob.data(), blob.size(), &error)) return fail(kSpec.name, error);
  uint64_t pools = 0, workspace = 0;
  for (const auto& pool : model.pools) pools += pool.size;
  for (const auto& node : model.nodes) workspace = std::max(workspace, node.workspace_bytes);
  std::printf("%s: %zu nodes calling %zu generated functions, workspaces %s (largest %s)\n", output->c_str(), model.nodes.size(),
              report.functions.size(), report.workspace_source.c_str(), format_bytes(workspace).c_str());
  std::printf("activation memory: graphrt's plan %s (workspaces included); TVM's storage ids imply %s (%s more for params)\n",
              format_bytes(pools).c_str(), format_bytes(report.tvm_storage_bytes).c_str(), format_bytes(report.tvm_param_bytes).c_str());
  return kExitOk;
}
