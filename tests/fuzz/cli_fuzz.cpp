// libFuzzer target: the `graphrt` command line in-process, argument vector and input file
// together, through the same dispatcher main() calls. An input is the arguments, one per
// line, then an empty line, then the bytes of the one input file, which the arguments name
// "@in" (e.g. "run\n@in\n--input\n@in\n\n<blob bytes>"). Whatever the arguments, the
// command must end with exit status 0, 1 or 2 (graphrt_main catches every exception).
//
// It runs in a scratch folder of its own: arguments naming absolute paths or "..", and
// those that only make a command long (bench, --repeat, --iterations, --batches, --nodes),
// are skipped, and every command that takes them gets small --max-memory and
// --max-input-bytes limits, so the fuzzer explores the checks, not the host's disk and RAM.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli.h"

namespace {

namespace fs = std::filesystem;

constexpr const char* kMemoryLimit = "16777216";
constexpr const char* kInputLimit = "1048576";

// The scratch folder, made and entered once per process.
const fs::path& scratch() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("graphrt_cli_fuzz_" + std::to_string(::getpid()));
    fs::create_directories(d);
    fs::current_path(d);
    return d;
  }();
  return dir;
}

bool is_one_of(std::string_view word, std::initializer_list<std::string_view> words) {
  for (const std::string_view w : words) {
    if (word == w) return true;
  }
  return false;
}

bool allowed(const std::string& arg) {
  if (arg.find('/') != std::string::npos || arg.find("..") != std::string::npos) return false;
  const std::string name = arg.substr(0, arg.find('='));
  return !is_one_of(name, {"bench", "--repeat", "--iterations", "--batches", "--nodes"});
}

void clear_scratch(const fs::path& keep) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(scratch(), ec)) {
    if (entry.path() != keep) fs::remove_all(entry.path(), ec);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t split = text.find("\n\n");
  const std::string_view argument_text = text.substr(0, split);
  const std::string_view file = split == std::string_view::npos ? std::string_view() : text.substr(split + 2);

  const fs::path input = scratch() / "in";
  std::vector<std::string> args;
  for (size_t at = 0; at <= argument_text.size() && args.size() < 32;) {
    const size_t end = std::min(argument_text.find('\n', at), argument_text.size());
    std::string arg(argument_text.substr(at, end - at));
    at = end + 1;
    if (arg == "@in") arg = input.string();
    else if (!allowed(arg)) return 0;
    args.push_back(std::move(arg));
  }
  if (!args.empty() && is_one_of(args[0], {"inspect", "plan", "run", "bin2c", "kernels", "import", "sign", "verify"})) {
    // The last value of an option wins, so ours go last. (After a "--" they are positionals
    // and the command refuses its arguments: also fine.)
    args.push_back("--max-input-bytes");
    args.push_back(kInputLimit);
    if (is_one_of(args[0], {"run", "import"})) {
      args.push_back("--max-memory");
      args.push_back(kMemoryLimit);
    }
  }

  std::ofstream(input, std::ios::binary | std::ios::trunc).write(file.data(), static_cast<std::streamsize>(file.size()));
  const int status = grt::cli::graphrt_main(args);
  std::fflush(stdout);
  clear_scratch(input);
  if (status < 0 || status > 2) std::abort();
  return 0;
}
