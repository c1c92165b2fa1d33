// Time to check a signed envelope (SHA-256 of the model + ECDSA P-256 verify) for each real
// model, on the host. The key is made fresh for the run; models are imported from the zoo.
//   integrity_bench [ZOO] [--benchmark_* options]
#include <benchmark/benchmark.h>

#include <cstdio>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "graphrt/integrity.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/importer.h"
#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/signing.h"

namespace {

struct SignedModel {
  grt::tools::AlignedBytes envelope;
  std::vector<uint8_t> public_key;
};

void check_envelope(benchmark::State& state, const SignedModel* model) {
  const grt_trusted_key key = {"bench", model->public_key.data(), model->public_key.size()};
  const grt_trust_config trust = {&key, 1, 1, 0};
  for (auto _ : state) {
    const void* inner = nullptr;
    size_t inner_size = 0;
    grt_error error{};
    if (grt_envelope_open(model->envelope.data(), model->envelope.size(), &trust, &inner, &inner_size, nullptr, &error) != GRT_OK) {
      state.SkipWithError(error.message);
      return;
    }
    benchmark::DoNotOptimize(inner);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(model->envelope.size()));
  state.counters["model_bytes"] = static_cast<double>(model->envelope.size());
}

std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const std::filesystem::path zoo = argc > 1 ? argv[1] : "../shared";
  grt::signing::KeyPair keys;
  std::string error;
  if (!grt::signing::generate_key_pair(&keys, &error)) {
    std::fprintf(stderr, "integrity_bench: %s\n", error.c_str());
    return 1;
  }
  std::vector<uint8_t> public_key;
  grt::signing::public_key_der(keys.public_key_pem, &public_key, &error);
  std::vector<std::unique_ptr<SignedModel>> models;
  for (const char* name : {"hello_world_int8", "micro_speech_quantized", "mlperf_kws_dscnn_int8", "mlperf_ad_autoencoder_int8",
                           "mlperf_ic_resnet8_int8", "person_detect", "mlperf_vww_mobilenet_int8", "mobilenet_v2_quantized_1x3x224x224"}) {
    const std::vector<uint8_t> tflite = read_bytes(zoo / "models" / (std::string(name) + ".tflite"));
    grt::tools::ModelDef def;
    if (tflite.empty() || !grt::tools::import_tflite(tflite.data(), tflite.size(), &def).ok ||
        !grt::tools::plan_model(&def, grt::tools::PlanOptions{}, nullptr, &error)) {
      std::fprintf(stderr, "integrity_bench: %s does not import; skipped\n", name);
      continue;
    }
    std::vector<uint8_t> envelope;
    if (!grt::signing::sign_model(grt::tools::serialize(def), keys.private_key_pem, "bench", 1, &envelope, &error)) {
      std::fprintf(stderr, "integrity_bench: %s: %s\n", name, error.c_str());
      return 1;
    }
    auto model = std::make_unique<SignedModel>();
    model->envelope = grt::tools::AlignedBytes(envelope);
    model->public_key = public_key;
    benchmark::RegisterBenchmark((std::string("verify/") + name).c_str(), check_envelope, model.get())->Unit(benchmark::kMicrosecond);
    models.push_back(std::move(model));
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
