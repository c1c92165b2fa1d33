// graphrt aot M.grt --symbol NAME [-o OUT.c] [-H OUT.h] [--section NAME] [--define-pools]: the model as C
// that calls its kernels directly on the planned pools, for firmware whose model is fixed
// at build time (docs/aot.md). The C writer is tools/aot; this is its command line.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "../args.h"
#include "../c_text.h"
#include "../commands.h"
#include "../model_file.h"
#include "../resource_limits.h"
#include "../report.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/aot.h"
#include "graphrt/tools/tvm/kernel_table_c.h"
#include "graphrt/tools/tvm/tvm_import.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "aot",
    "M.grt --symbol NAME [-o OUT.c] [-H OUT.h] [--section NAME] [--define-pools]",
    "Writes a model as C99 that runs it without the loader: ahead-of-time compilation.",
    "The C file holds the constants as 16-byte aligned const arrays in section\n"
    ".rodata.graphrt_aot.NAME (or --section), const DLTensors and argument arrays, and\n"
    "  int NAME_run(const char** message);   every node's kernel called directly\n"
    "  const DLTensor* NAME_input(uint32_t) / NAME_output(uint32_t);\n"
    "The header gives the pools' sizes and alignment as macros (NAME_POOL0_BYTES, ...):\n"
    "the firmware defines the pools NAME_pool0, ... itself. Link the C with the built-in\n"
    "kernels and grt_aot (graphrt/aot.h), not with a runtime library. The model must be\n"
    "one the runtime loads and use only built-in kernels, or, imported from TVM, its\n"
    "generated functions (called by their own names: link the generated C too); every\n"
    "node's argument check runs here, on the host. Without -H the header's text is at\n"
    "the top of the C file; without -o the C text goes to standard output.",
    {"M.grt"},
    {
        {"symbol", 0, "NAME", false, "prefix of every generated C name (required)"},
        {"output", 'o', "OUT.c", false, "write the C file here instead of standard output"},
        {"header", 'H', "OUT.h", false, "also write the header here; the C file includes it by file name"},
        {"section", 0, "NAME", false, "the constants' section (default .rodata.graphrt_aot.SYMBOL)"},
        {"define-pools", 0, "", false, "define the pools in the C file (zeroed, in .bss) instead of the firmware"},
        max_input_option(),
    },
};

// A section name goes into __attribute__((section("..."))) and a linker script.
bool is_section_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return c == '.' || c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

// The refusals `graphrt kernels` gives a TVM import whose generated functions could not all
// be checked against one signature: AoT calls them with the same arguments, unchecked.
bool check_generated_functions(const grt::tools::ModelDef& model, const std::string& path, std::string* error) {
  const grt_kernel_table* table = grt_builtin_kernels();
  std::vector<const grt_kernel_entry*> builtin;
  for (size_t i = 0; i < table->count; ++i) builtin.push_back(&table->entries[i]);
  std::string unused_table_text;
  return grt::tools::tvm::kernel_table_c(model, builtin, "aot_check", path, &unused_table_text, error);
}

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

  const std::optional<std::string> section = parsed->value("section");
  if (section && !is_section_name(*section)) {
    return usage_error(kSpec.name, "--section: '" + *section + "' is not a section name (letters, digits, '.', '_' and '$')");
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
  options.section = section.value_or("");
  options.generated_functions = grt::tools::tvm::imported_from_tvm(file.model);
  if (options.generated_functions && !check_generated_functions(file.model, path, &error)) return fail(kSpec.name, path + ": " + error);
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
