#include "zoo.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace grt::test {

std::optional<std::filesystem::path> model_zoo() {
  const char* env = std::getenv("GRT_MODEL_ZOO");
  const std::filesystem::path zoo = env != nullptr && *env != '\0' ? env : GRT_DEFAULT_MODEL_ZOO;
  if (std::filesystem::is_directory(zoo / "models") && std::filesystem::is_directory(zoo / "golden")) return zoo;
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::string(ci) == "true") {
    ADD_FAILURE() << "model zoo missing under CI: " << zoo << " has no models/ and golden/";
  }
  return std::nullopt;
}

}  // namespace grt::test
