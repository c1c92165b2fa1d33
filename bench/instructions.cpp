// Instructions per inference, counted exactly by valgrind's callgrind, beside TensorFlow
// Lite Micro's figure for the same model (MANIFEST.json: tflm_instructions_per_invoke,
// TFLM reference kernels, g++ -O2 on this kind of machine).
//
//   instructions [ZOO] [MODEL...]        the table (runs itself under valgrind per model)
//   instructions --measure MODEL.tflite [lean|prepared]
//                                        one warm-up inference, then one measured one
//
// graphrt's figure is the default, lean arguments; the prepared column (every node's
// arguments built at init) shows what marshalling arguments before each node costs.
//
// Only measured_inference() is counted (--toggle-collect), so import, planning and init
// are excluded, as TFLM's figure excludes AllocateTensors.
#include <flatbuffers/flexbuffers.h>
#include <flatbuffers/idl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "host_executor.h"
#include "support/callgrind_total.h"

namespace {

std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

extern "C" __attribute__((noinline)) grt_status measured_inference(grt_executor* executor) { return grt_run(executor); }

int measure(const char* tflite_path, grt_arguments arguments) {
  const std::vector<uint8_t> tflite = read_bytes(tflite_path);
  grt::tools::ModelDef model;
  const grt::tools::ImportResult imported = grt::tools::import_tflite(tflite.data(), tflite.size(), &model);
  std::string error;
  if (!imported.ok || !grt::tools::plan_model(&model, grt::tools::PlanOptions{}, nullptr, &error)) {
    std::fprintf(stderr, "%s: %s%s\n", tflite_path, imported.error.c_str(), error.c_str());
    return 1;
  }
  const grt::tools::AlignedBytes blob(grt::tools::serialize(model));
  grt::cli::HostExecutor executor;
  grt::cli::HostExecutor::Options options;
  options.arguments = arguments;
  if (!executor.init(blob, options, &error)) {
    std::fprintf(stderr, "%s: %s\n", tflite_path, error.c_str());
    return 1;
  }
  // Inputs stay as init left them (zeros): the kernels' work does not depend on values.
  if (grt_run(executor.get()) != GRT_OK || measured_inference(executor.get()) != GRT_OK) {
    std::fprintf(stderr, "%s: %s\n", tflite_path, grt_last_error(executor.get())->message);
    return 1;
  }
  return 0;
}

std::map<std::string, double> tflm_instructions(const std::filesystem::path& manifest) {
  std::map<std::string, double> figures;
  const std::vector<uint8_t> bytes = read_bytes(manifest);
  const std::string text(bytes.begin(), bytes.end());
  flatbuffers::Parser parser;
  flexbuffers::Builder builder;
  if (text.empty() || !parser.ParseFlexBuffer(text.c_str(), manifest.string().c_str(), &builder)) return figures;
  const auto models = flexbuffers::GetRoot(builder.GetBuffer()).AsMap()["models"].AsVector();
  for (size_t i = 0; i < models.size(); ++i) {
    const auto m = models[i].AsMap();
    figures[m["name"].AsString().str()] = m["tflm_instructions_per_invoke"].AsDouble();
  }
  return figures;
}

// Runs this program's --measure under callgrind; the instructions of the measured run, or -1.
long long count_under_callgrind(const std::filesystem::path& self, const std::filesystem::path& tflite,
                                const std::filesystem::path& out, const char* arguments) {
  const std::string command = "valgrind --tool=callgrind --collect-atstart=no --toggle-collect=measured_inference --callgrind-out-file='" +
                              out.string() + "' '" + self.string() + "' --measure '" + tflite.string() + "' " + arguments +
                              " > /dev/null 2>&1";
  return std::system(command.c_str()) == 0 ? callgrind_total(out) : -1;
}

}  // namespace

int main(int argc, char** argv) {
  if ((argc == 3 || argc == 4) && std::strcmp(argv[1], "--measure") == 0) {
    const bool prepared = argc == 4 && std::strcmp(argv[3], "prepared") == 0;
    return measure(argv[2], prepared ? GRT_ARGUMENTS_PREPARED : GRT_ARGUMENTS_LEAN);
  }
  const std::filesystem::path zoo = argc > 1 ? argv[1] : "../shared";
  std::vector<std::string> models;
  for (int i = 2; i < argc; ++i) models.emplace_back(argv[i]);
  if (models.empty()) {
    models = {"mlperf_ad_autoencoder_int8", "mlperf_ad_autoencoder_float", "mlperf_ic_resnet8_int8", "mlperf_ic_resnet8_float",
              "mlperf_kws_dscnn_int8",      "mlperf_sww_int8",             "mlperf_vww_mobilenet_int8", "mlperf_vww_mobilenet_float",
              "mlperf_ic_resnet_large_int8", "person_detect"};
  }
  const auto tflm = tflm_instructions(zoo / "models" / "MANIFEST.json");
  const std::filesystem::path self = std::filesystem::canonical("/proc/self/exe");
  const std::filesystem::path out_dir = std::filesystem::temp_directory_path() / ("graphrt_callgrind_" + std::to_string(::getpid()));
  std::filesystem::create_directories(out_dir);
  std::printf("%-32s %16s %16s %8s %16s %10s\n", "model", "graphrt instr", "TFLM instr", "ratio", "prepared instr", "lean cost");
  int failures = 0;
  for (const std::string& name : models) {
    const std::filesystem::path tflite = zoo / "models" / (name + ".tflite");
    const long long ours = count_under_callgrind(self, tflite, out_dir / (name + ".lean.callgrind"), "lean");
    const long long prepared = count_under_callgrind(self, tflite, out_dir / (name + ".prepared.callgrind"), "prepared");
    const auto it = tflm.find(name);
    const double theirs = it == tflm.end() ? 0.0 : it->second;
    if (ours < 0 || prepared < 0) {
      std::printf("%-32s %16s %16.0f %8s\n", name.c_str(), "failed", theirs, "-");
      ++failures;
      continue;
    }
    std::printf("%-32s %16lld %16.0f %8.3f %16lld %9.2f%%\n", name.c_str(), ours, theirs,
                theirs > 0 ? static_cast<double>(ours) / theirs : 0.0, prepared,
                100.0 * static_cast<double>(ours - prepared) / static_cast<double>(prepared));
    std::fflush(stdout);
  }
  std::filesystem::remove_all(out_dir);
  return failures == 0 ? 0 : 1;
}
