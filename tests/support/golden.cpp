#include "golden.h"

#include <flatbuffers/flexbuffers.h>
#include <flatbuffers/idl.h>

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
  const std::string text(bytes.begin(), bytes.end());
  flatbuffers::Parser parser;
  flexbuffers::Builder builder;
  if (text.empty() || !parser.ParseFlexBuffer(text.c_str(), meta.string().c_str(), &builder)) {
    *error = meta.string() + ": " + (text.empty() ? std::string("missing or empty") : parser.error_);
    return false;
  }
  const auto outputs = flexbuffers::GetRoot(builder.GetBuffer()).AsMap()["comparison"].AsMap()["per_output"].AsVector();
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto t = outputs[i].AsMap()["tolerance"];
    out->push_back(t.IsMap() ? FloatTolerance{t.AsMap()["abs"].AsDouble(), t.AsMap()["rel"].AsDouble()} : FloatTolerance{});
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
