// graphrt sign M.grt --key K.pem --key-id ID --model-version N -o S.grt: wraps a model blob
// in a signed envelope (digest over header fields + model, ECDSA P-256 signature).
#include <cstdio>
#include <string>
#include <vector>

#include "../args.h"
#include "../commands.h"
#include "../files.h"
#include "../resource_limits.h"
#include "../report.h"
#include "graphrt/graphrt.h"
#include "graphrt/tools/signing.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "sign",
    "M.grt --key K.pem --key-id ID --model-version N -o S.grt",
    "Wraps a model blob in a signed integrity envelope.",
    "The model must pass the loader's checks first. The key id names the key in firmware's\n"
    "trust configuration; the model version is what anti-rollback compares (firmware refuses\n"
    "versions below its minimum), so raise it with every release.",
    {"M.grt"},
    {
        {"key", 0, "K.pem", false, "private key from `graphrt keygen` (required)"},
        {"key-id", 0, "ID", false, "1 to 31 printable characters, e.g. prod-1 (required)"},
        {"model-version", 0, "N", false, "monotonic model version (required)"},
        {"output", 'o', "S.grt", false, "where to write the signed envelope (required)"},
        max_input_option(),
    },
};

}  // namespace
}  // namespace grt::cli

int run_sign_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;
  const auto key_path = parsed->value("key");
  const auto key_id = parsed->value("key-id");
  const auto output = parsed->value("output");
  if (!key_path || !key_id || !output || !parsed->has("model-version")) {
    return usage_error(kSpec.name, "--key, --key-id, --model-version and -o are required");
  }
  uint64_t model_version = 0;
  if (!numeric_option(kSpec, *parsed, "model-version", 0, UINT64_MAX, &model_version)) return kExitUsage;
  std::string error;
  if (!grt::signing::is_valid_key_id(*key_id, &error)) return usage_error(kSpec.name, "--key-id: " + error);

  Limits limits;
  if (!read_limits(kSpec, *parsed, &limits)) return kExitUsage;
  const std::string& model_path = parsed->positionals()[0];
  grt::tools::AlignedBytes model;
  grt::tools::AlignedBytes key;
  if (!read_file(model_path, limits.max_input_bytes, &model, &error) ||
      !read_file(*key_path, limits.max_input_bytes, &key, &error)) return fail(kSpec.name, error);
  grt_requirements requirements{};
  grt_error check{};
  if (grt_model_requirements(model.data(), model.size(), GRT_STRATEGY_STATIC, &requirements, &check) != GRT_OK) {
    return fail(kSpec.name, model_path + ": not a loadable model: " + check.message);
  }
  const std::string key_pem(reinterpret_cast<const char*>(key.data()), key.size());
  std::vector<uint8_t> envelope;
  if (!grt::signing::sign_model({model.data(), model.size()}, key_pem, *key_id, model_version, &envelope, &error)) {
    return fail(kSpec.name, *key_path + ": " + error);
  }
  if (!write_file(*output, envelope.data(), envelope.size(), &error)) return fail(kSpec.name, error);
  std::printf("signed %s (%zu bytes) with key '%s', model version %llu: %s (%zu bytes)\n", model_path.c_str(), model.size(),
              key_id->c_str(), static_cast<unsigned long long>(model_version), output->c_str(), envelope.size());
  return kExitOk;
}
