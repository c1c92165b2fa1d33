// libFuzzer target: the `graphrt` command line in-process, argument vector and input file
// together, through the same dispatcher main() calls. An input is the arguments, one per
// line, then an empty line, then the bytes of the one input file, which the arguments name
// "@in" (e.g. "run\n@in\n--input\n@in\n\n<blob bytes>"). Whatever the arguments, the
// command must end with exit status 0, 1 or 2 (graphrt_main catches every exception).
//
// It runs in a scratch folder of its own: arguments naming absolute paths or "..", and
// those that only make a command long (bench, --repeat, --iterations, --batches, --nodes,
// and --memory-budget, whose band search ladder takes seconds a rung on a real model: past
// libFuzzer's per-input timeout, which counts wall time), are skipped, and every command that takes them runs with --max-memory and
// --max-input-bytes at most 16 MiB and 1 MiB, so the fuzzer explores the checks, not the
// host's disk and RAM.
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
constexpr size_t kLongReportInputBytes = 32768;

// The scratch folder, made and entered once per process and removed at exit.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("graphrt_cli_fuzz_" + std::to_string(::getpid()));
  Scratch() {
    fs::create_directories(dir);
    fs::current_path(dir);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

const fs::path& scratch() {
  static const Scratch folder;
  return folder.dir;
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
  return !is_one_of(name, {"bench", "--repeat", "--iterations", "--batches", "--nodes", "--memory-budget"});
}

// The fuzzer may lower a limit (to reach the refusal) but not raise it: an input that asks
// for more is skipped; one that does not set it gets ours.
bool limit_kept(std::vector<std::string>* args, const std::string& option, const char* cap) {
  bool given = false;
  for (size_t i = 0; i < args->size(); ++i) {
    const std::string& arg = (*args)[i];
    std::string value;
    if (arg == option && i + 1 < args->size()) {
      value = (*args)[i + 1];
    } else if (arg.rfind(option + "=", 0) == 0) {
      value = arg.substr(option.size() + 1);
    } else {
      continue;
    }
    given = true;
    const bool number = !value.empty() && value.size() <= 20 && value.find_first_not_of("0123456789") == std::string::npos;
    if (number && std::strtoull(value.c_str(), nullptr, 10) > std::strtoull(cap, nullptr, 10)) return false;
  }
  if (!given) {
    args->push_back(option);
    args->push_back(cap);
  }
  return true;
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
  // plan --report searches band plans and every algorithm: a second on a real model at -O2,
  // tens of seconds in this build. It is fuzzed on small inputs only.
  if (file.size() > kLongReportInputBytes && std::find(args.begin(), args.end(), "--report") != args.end()) return 0;
  if (!args.empty() && is_one_of(args[0], {"inspect", "plan", "run", "bin2c", "kernels", "import", "sign", "verify"})) {
    if (!limit_kept(&args, "--max-input-bytes", kInputLimit)) return 0;
    if (is_one_of(args[0], {"run", "import"}) && !limit_kept(&args, "--max-memory", kMemoryLimit)) return 0;
  }
  std::ofstream(input, std::ios::binary | std::ios::trunc).write(file.data(), static_cast<std::streamsize>(file.size()));
  const int status = grt::cli::graphrt_main(args);
  std::fflush(stdout);
  clear_scratch(input);
  if (status < 0 || status > 2) std::abort();
  return 0;
}
