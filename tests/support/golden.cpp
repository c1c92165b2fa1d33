#include "golden.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "graphrt/graphrt.h"

namespace grt::test {

std::vector<uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

namespace {

bool read_tolerances(const std::filesystem::path& meta, std::vector<FloatTolerance>* out, std::string* error) {
  const std::vector<uint8_t> bytes = read_bytes(meta);
  if (bytes.empty()) {
    *error = meta.string() + ": missing or empty";
    return false;
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(bytes.begin(), bytes.end());
  } catch (const nlohmann::json::parse_error& e) {
    *error = meta.string() + ": " + e.what();
    return false;
  }
  // comparison.per_output[i].tolerance: {abs, rel} for a float output, absent otherwise.
  const nlohmann::json outputs = doc.value(nlohmann::json::json_pointer("/comparison/per_output"), nlohmann::json::array());
  for (const nlohmann::json& output : outputs) {
    const auto tolerance = output.find("tolerance");
    out->push_back(tolerance != output.end() && tolerance->is_object()
                       ? FloatTolerance{tolerance->value("abs", 0.0), tolerance->value("rel", 0.0)}
                       : FloatTolerance{});
  }
  return true;
}

}  // namespace

bool load_golden(const std::filesystem::path& zoo, const std::string& model, GoldenModel* out, std::string* error) {
  return load_golden_folder(zoo / "golden" / model, model, out, error);
}

bool load_golden_folder(const std::filesystem::path& folder, const std::string& model, GoldenModel* out, std::string* error) {
  GoldenModel g;
  g.name = model;
  if (!read_tolerances(folder / "meta.json", &g.tolerances, error)) return false;
  for (int k = 1;; ++k) {
    const std::string prefix = "case" + std::to_string(k);
    if (!std::filesystem::exists(folder / (prefix + ".in0.bin"))) break;
    GoldenCase c;
    for (int i = 0; std::filesystem::exists(folder / (prefix + ".in" + std::to_string(i) + ".bin")); ++i) {
      c.inputs.push_back(read_bytes(folder / (prefix + ".in" + std::to_string(i) + ".bin")));
    }
    for (int o = 0; std::filesystem::exists(folder / (prefix + ".out" + std::to_string(o) + ".bin")); ++o) {
      c.outputs.push_back(read_bytes(folder / (prefix + ".out" + std::to_string(o) + ".bin")));
    }
    g.cases.push_back(std::move(c));
  }
  if (g.cases.empty()) {
    *error = folder.string() + ": no golden cases";
    return false;
  }
  *out = std::move(g);
  return true;
}

std::string compare_output(const GoldenModel& model, const GoldenCase& golden_case, size_t index, const DLTensor& got) {
  std::ostringstream why;
  if (index >= golden_case.outputs.size()) {
    why << "output " << index << " has no golden bytes";
    return why.str();
  }
  const std::vector<uint8_t>& want = golden_case.outputs[index];
  const size_t bytes = grt_tensor_bytes(&got);
  if (bytes != want.size()) {
    why << "output " << index << " has " << bytes << " bytes, TFLM's has " << want.size();
    return why.str();
  }
  const auto* data = static_cast<const uint8_t*>(got.data);
  if (got.dtype.code == kDLFloat && got.dtype.bits == 32) {
    const FloatTolerance tol = index < model.tolerances.size() ? model.tolerances[index] : FloatTolerance{};
    for (size_t i = 0; i < bytes / 4; ++i) {
      float g = 0;
      float w = 0;
      std::memcpy(&g, data + 4 * i, 4);
      std::memcpy(&w, want.data() + 4 * i, 4);
      const double bound = tol.abs + tol.rel * std::fabs(static_cast<double>(w));
      if (!(std::fabs(static_cast<double>(g) - static_cast<double>(w)) <= bound)) {
        why << "output " << index << "[" << i << "] is " << g << ", TFLM's " << w << " (tolerance " << bound << ")";
        return why.str();
      }
    }
    return {};
  }
  for (size_t i = 0; i < bytes; ++i) {
    if (data[i] != want[i]) {
      why << "output " << index << " differs from TFLM's at byte " << i << ": " << int{data[i]} << " vs " << int{want[i]};
      return why.str();
    }
  }
  return {};
}

}  // namespace grt::test
