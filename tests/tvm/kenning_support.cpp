#include "kenning_support.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "graphrt/tools/memory_plan.h"

namespace grt::test::tvm {

std::vector<uint8_t> file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::pair<std::string, size_t>> wand_samples(const std::filesystem::path& dir) {
  std::vector<std::pair<std::string, size_t>> samples;
  const nlohmann::json expected = nlohmann::json::parse(file_bytes(dir / "expected.json"), nullptr, false);
  if (!expected.is_object() || !expected.contains("samples")) return samples;
  for (const auto& s : expected["samples"]) samples.emplace_back(s["file"].get<std::string>(), s["expected_class"].get<size_t>());
  return samples;
}

std::vector<uint8_t> quantize_wand_sample(const std::vector<uint8_t>& float32_bytes) {
  std::vector<uint8_t> q(float32_bytes.size() / 4);
  for (size_t i = 0; i < q.size(); ++i) {
    float x = 0;
    std::memcpy(&x, float32_bytes.data() + 4 * i, 4);
    q[i] = static_cast<uint8_t>(static_cast<int8_t>(std::clamp(std::lround(x / 16.0f) - 1, -128l, 127l)));
  }
  return q;
}

ImportedModel import_planned(const std::vector<uint8_t>& graph, const std::vector<uint8_t>& params, const tools::tvm::KernelLibrary& library) {
  ImportedModel r;
  tools::tvm::Artifacts artifacts;
  tools::tvm::ImportOptions options;
  options.kernels = library.lookup();
  if (tools::tvm::read_artifacts(graph.data(), graph.size(), params, &artifacts, &r.error) &&
      tools::tvm::import_graph(artifacts, options, &r.model, &r.report, &r.error) &&
      tools::plan_model(&r.model, tools::PlanOptions{}, nullptr, &r.error)) {
    r.blob = tools::AlignedBytes(tools::serialize(r.model));
    r.error.clear();
  }
  return r;
}

}  // namespace grt::test::tvm
