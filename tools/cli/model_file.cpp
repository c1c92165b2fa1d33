#include "model_file.h"

#include "files.h"
#include "graphrt/graphrt.h"

namespace grt::cli {

bool load_model_file(const std::string& path, const Limits& limits, ModelFile* out, std::string* error) {
  if (!read_file(path, limits.max_input_bytes, &out->blob, error)) return false;
  grt_requirements requirements{};
  grt_error runtime_error{};
  if (grt_model_requirements(out->blob.data(), out->blob.size(), GRT_STRATEGY_STATIC, &requirements, &runtime_error) != GRT_OK) {
    *error = path + ": " + runtime_error.message;
    return false;
  }
  std::string reason;
  if (!tools::parse(out->blob.data(), out->blob.size(), &out->model, &reason)) {
    *error = path + ": " + reason;
    return false;
  }
  return true;
}

}  // namespace grt::cli
