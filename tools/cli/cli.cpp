#include "cli.h"

#include <cstdio>
#include <exception>
#include <new>
#include <string_view>

#include "args.h"
#include "commands.h"
#include "graphrt/graphrt.h"

namespace grt::cli {
namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);
};

constexpr Command kCommands[] = {
    {"import", "convert a TensorFlow Lite model to a planned graphrt blob", run_import_command},
    {"plan", "plan a model's memory and compare planning algorithms", run_plan_command},
    {"inspect", "show a blob's tensors, nodes, pools and memory budget", run_inspect_command},
    {"run", "run a blob on the host with a chosen memory strategy", run_run_command},
    {"bin2c", "write a blob as an aligned C array in a flash section", run_bin2c_command},
    {"kernels", "write the kernel table of just a model's kernels, as C", run_kernels_command},
    {"aot", "write a model as C that calls its kernels directly (no loader)", run_aot_command},
    {"bench", "measure the executor's per-node dispatch cost", run_bench_command},
    {"keygen", "make an ECDSA P-256 key pair for signing models", run_keygen_command},
    {"sign", "wrap a blob in a signed envelope (digest, signature, key id, version)", run_sign_command},
    {"verify", "check a signed envelope as the device will, and the model inside", run_verify_command},
};

const Command* find_command(std::string_view name) {
  for (const Command& command : kCommands) {
    if (name == command.name) return &command;
  }
  return nullptr;
}

void print_overview(std::FILE* out) {
  std::fputs("usage: graphrt COMMAND [ARGS...]\n"
             "       graphrt COMMAND --help\n"
             "       graphrt --version\n\n"
             "Runs neural-network models with graphrt on the host and prepares them for devices.\n\n"
             "commands:\n",
             out);
  for (const Command& command : kCommands) std::fprintf(out, "  %-9s %s\n", command.name, command.summary);
  std::fprintf(out, "  %-9s %s\n", "help", "show this help, or a command's: graphrt help COMMAND");
  std::fputs("\nexit status: 0 success, 1 failure, 2 bad command line.\n", out);
}

int unknown_command(std::string_view name) {
  std::fprintf(stderr, "graphrt: unknown command '%.*s' (see 'graphrt help')\n", static_cast<int>(name.size()), name.data());
  return kExitUsage;
}

int help_command(const std::vector<std::string>& args) {
  if (args.empty()) {
    print_overview(stdout);
    return kExitOk;
  }
  if (args.size() > 1) {
    std::fprintf(stderr, "graphrt help: unexpected argument '%s' (see 'graphrt help')\n", args[1].c_str());
    return kExitUsage;
  }
  if (args[0] == "help") return help_command({});
  const Command* command = find_command(args[0]);
  if (command == nullptr) return unknown_command(args[0]);
  return command->run({"--help"});
}

int dispatch(const std::vector<std::string>& args) {
  if (args.empty()) {
    print_overview(stderr);
    return kExitUsage;
  }
  const std::string& first = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (first == "--version" || first == "-V") {
    std::printf("graphrt %s (model schema %d.%d)\n", GRT_VERSION, GRT_SCHEMA_VERSION_MAJOR, GRT_SCHEMA_VERSION_MINOR);
    return kExitOk;
  }
  if (first == "help" || first == "--help" || first == "-h") return help_command(rest);
  if (!first.empty() && first[0] == '-') {
    std::fprintf(stderr, "graphrt: unknown option '%s' (see 'graphrt help')\n", first.c_str());
    return kExitUsage;
  }
  const Command* command = find_command(first);
  if (command == nullptr) return unknown_command(first);
  return command->run(rest);
}

}  // namespace

int graphrt_main(const std::vector<std::string>& args) {
  // The one place where exceptions end: whatever a command could not allocate or did not
  // expect becomes one line and exit status 1, never an abort with a core dump.
  try {
    return dispatch(args);
  } catch (const std::bad_alloc&) {
    std::fputs("graphrt: out of memory (std::bad_alloc)\n", stderr);
  } catch (const std::exception& e) {
    std::string what = e.what();
    for (char& c : what) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    std::fprintf(stderr, "graphrt: internal error: %s\n", what.c_str());
  } catch (...) {
    std::fputs("graphrt: internal error: unknown exception\n", stderr);
  }
  return kExitFailure;
}

}  // namespace grt::cli
