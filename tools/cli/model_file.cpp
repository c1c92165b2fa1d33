#include "model_file.h"

#include "files.h"
#include "graphrt/graphrt.h"

namespace grt::cli {

bool load_model_file(const std::string& path, ModelCheck check, ModelFile* out, std::string* error) {
  if (!read_file(path, &out->blob, error)) return false;
  grt_requirements requirements{};
  grt_error runtime_error{};
  // The runtime's own checks come first: their messages are the ones a device would give.
  if (check == ModelCheck::kRuntime &&
      grt_model_requirements(out->blob.data(), out->blob.size(), GRT_STRATEGY_STATIC, &requirements, &runtime_error) != GRT_OK) {
    *error = path + ": " + runtime_error.message;
    return false;
  }
  std::string reason;
  if (!tools::verify_blob(out->blob.data(), out->blob.size(), &reason) ||
      !tools::parse(out->blob.data(), out->blob.size(), &out->model, &reason)) {
    *error = path + ": " + reason;
    return false;
  }
  return true;
}

}  // namespace grt::cli
