// Instructions of ahead-of-time C (`graphrt aot`, docs/aot.md) beside the interpreter's for
// the same model on this machine, counted exactly by valgrind's callgrind:
//
//   aot_instructions [MODEL...]          the table (runs the measurements under valgrind)
//   aot_instructions --measure MODEL     one warm-up run of MODEL's AoT C, then one measured
//
// Per inference: measured_aot_run() here against bench/instructions' measured_inference()
// (lean arguments, the interpreter's default). Init: the interpreter's grt_init; AoT has none
// (its descriptors are const data and its pools .bss, so nothing runs before the first run).
// The models' AoT C is generated at build time (bench/CMakeLists.txt).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "graphrt/aot.h"
#include "support/callgrind_total.h"

extern "C" {
int aot_kws_run(const char** message);
int aot_person_detect_run(const char** message);
}

namespace {

struct AotModel {
  const char* name;  // the zoo's model name
  int (*run)(const char** message);
};

const AotModel kModels[] = {{"mlperf_kws_dscnn_int8", aot_kws_run}, {"person_detect", aot_person_detect_run}};

extern "C" __attribute__((noinline)) int measured_aot_run(int (*run)(const char**), const char** message) { return run(message); }

const AotModel* find_model(const std::string& name) {
  for (const AotModel& m : kModels) {
    if (name == m.name) return &m;
  }
  return nullptr;
}

// Inputs stay zero (.bss): the kernels' work does not depend on values.
int measure(const AotModel& model) {
  const char* message = nullptr;
  if (model.run(&message) != 0 || measured_aot_run(model.run, &message) != 0) {
    std::fprintf(stderr, "%s: %s\n", model.name, message != nullptr ? message : "run failed");
    return 1;
  }
  return 0;
}

long long count(const std::string& program_and_arguments, const char* function, const std::filesystem::path& out) {
  const std::string command = "valgrind --tool=callgrind --collect-atstart=no --toggle-collect=" + std::string(function) +
                              " --callgrind-out-file='" + out.string() + "' " + program_and_arguments + " > /dev/null 2>&1";
  return std::system(command.c_str()) == 0 ? callgrind_total(out) : -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--measure") == 0) {
    const AotModel* model = find_model(argv[2]);
    if (model == nullptr) {
      std::fprintf(stderr, "aot_instructions: no AoT C of '%s' is built in\n", argv[2]);
      return 2;
    }
    return measure(*model);
  }
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) names.emplace_back(argv[i]);
  if (names.empty()) {
    for (const AotModel& m : kModels) names.emplace_back(m.name);
  }
  const std::filesystem::path self = std::filesystem::canonical("/proc/self/exe");
  const std::filesystem::path out_dir = std::filesystem::temp_directory_path() / ("graphrt_aot_callgrind_" + std::to_string(::getpid()));
  std::filesystem::create_directories(out_dir);
  std::printf("%-24s %14s %14s %8s %14s %10s\n", "model", "AoT run", "interp. run", "ratio", "interp. init", "AoT init");
  int failures = 0;
  for (const std::string& name : names) {
    if (find_model(name) == nullptr) {
      std::fprintf(stderr, "aot_instructions: no AoT C of '%s' is built in\n", name.c_str());
      ++failures;
      continue;
    }
    const std::string interpreter = "'" GRT_BENCH_INSTRUCTIONS "' --measure '" GRT_BENCH_ZOO "/models/" + name + ".tflite' lean";
    const long long aot = count("'" + self.string() + "' --measure " + name, "measured_aot_run", out_dir / (name + ".aot"));
    const long long run = count(interpreter, "measured_inference", out_dir / (name + ".run"));
    const long long init = count(interpreter, "grt_init", out_dir / (name + ".init"));
    if (aot < 0 || run < 0 || init < 0) {
      std::printf("%-24s %14s\n", name.c_str(), "failed");
      ++failures;
      continue;
    }
    std::printf("%-24s %14lld %14lld %8.4f %14lld %10d\n", name.c_str(), aot, run, static_cast<double>(aot) / static_cast<double>(run),
                init, 0);
    std::fflush(stdout);
  }
  std::filesystem::remove_all(out_dir);
  return failures == 0 ? 0 : 1;
}
