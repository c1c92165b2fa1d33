// graphrt aot M.grt --symbol NAME [-o OUT.c] [-H OUT.h] [--define-pools]: the model as C
// that calls its kernels directly on the planned pools, for firmware whose model is fixed
// at build time (docs/aot.md). The C writer is tools/aot; this is its command line.
#include <filesystem>
#include <string>
#include <vector>

#include "../args.h"
#include "../c_text.h"
#include "../commands.h"
#include "../model_file.h"
#include "../resource_limits.h"
#include "../report.h"
#include "graphrt/tools/aot.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "aot",
    "M.grt --symbol NAME [-o OUT.c] [-H OUT.h] [--define-pools]",
    "Writes a model as C99 that runs it without the loader: ahead-of-time compilation.",
    "The C file holds the constants as 16-byte aligned const arrays in section\n"
    ".rodata.graphrt_aot.NAME, const DLTensors and argument arrays, and\n"
    "  int NAME_run(const char** message);   every node's kernel called directly\n"
    "  const DLTensor* NAME_input(uint32_t) / NAME_output(uint32_t);\n"
    "The header gives the pools' sizes and alignment as macros (NAME_POOL0_BYTES, ...):\n"
    "the firmware defines the pools NAME_pool0, ... itself. Link the C with the built-in\n"
    "kernels and grt_aot (graphrt/aot.h), not with a runtime library. The model must be\n"
    "one the runtime loads and use only built-in kernels; every node's argument check runs\n"
    "here, on the host. Without -H the header's text is at the top of the C file; without\n"
    "-o the C text goes to standard output.",
    {"M.grt"},
    {
        {"symbol", 0, "NAME", false, "prefix of every generated C name (required)"},
        {"output", 'o', "OUT.c", false, "write the C file here instead of standard output"},
        {"header", 'H', "OUT.h", false, "also write the header here; the C file includes it by file name"},
        {"define-pools", 0, "", false, "define the pools in the C file (zeroed, in .bss) instead of the firmware"},
        max_input_option(),
    },
};

}  // namespace
}  // namespace grt::cli

int run_aot_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;
  const std::string& path = parsed->positionals()[0];
  const std::optional<std::string> symbol = parsed->value("symbol");
  if (const auto refused = refuse_symbol(kSpec.name, symbol)) return *refused;
  const std::optional<std::string> header = parsed->value("header");
  // The C file names the header in an #include "...".
  const std::string header_name = header ? std::filesystem::path(*header).filename().string() : "";
  if (header && (header_name.empty() || header_name.find_first_of("\"\\") != std::string::npos || comment_safe(header_name) != header_name)) {
    return usage_error(kSpec.name, "-H: '" + *header + "' cannot be named in an #include");
  }

  Limits limits;
  if (!read_limits(kSpec, *parsed, &limits)) return kExitUsage;
  // Refuse what the device's loader would refuse, with its message.
  ModelFile file;
  std::string error;
  if (!load_model_file(path, limits, &file, &error)) return fail(kSpec.name, error);
  grt::tools::AotOptions options;
  options.symbol = *symbol;
  options.source_label = comment_safe(std::filesystem::path(path).filename().string());
  options.version = GRT_VERSION;
  options.define_pools = parsed->has("define-pools");
  options.header_name = header_name;
  grt::tools::AotFiles files;
  if (!grt::tools::write_aot(file.blob.data(), file.blob.size(), options, &files, &error)) {
    return fail(kSpec.name, path + ": " + error);
  }
  if (header) {
    const int written = write_c_text(kSpec.name, files.header, header);
    if (written != kExitOk) return written;
  }
  return write_c_text(kSpec.name, files.source, parsed->value("output"));
}
