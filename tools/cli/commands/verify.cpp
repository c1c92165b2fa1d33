// graphrt verify S.grt --pubkey P.pem [--key-id ID] [--min-version N]: runs the device's
// envelope check on the host and prints what held. Exit 0 only if everything did.
#include <cstdio>
#include <string>
#include <vector>

#include "../args.h"
#include "../commands.h"
#include "../files.h"
#include "../resource_limits.h"
#include "../report.h"
#include "graphrt/tools/signing.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "verify",
    "S.grt --pubkey P.pem [--key-id ID] [--min-version N]",
    "Checks a signed envelope exactly as firmware would, and says what it checked.",
    "Checks the header, the size, the model version against --min-version, the SHA-256\n"
    "digest, the ECDSA P-256 signature with the public key, and that the model inside passes\n"
    "the loader's checks. With --key-id the envelope must name that key. Exit status: 0 when\n"
    "every check holds, 1 when one fails, 2 on a usage error.",
    {"S.grt"},
    {
        {"pubkey", 0, "P.pem", false, "public key from `graphrt keygen` (required)"},
        {"key-id", 0, "ID", false, "the key id the envelope must name"},
        {"min-version", 0, "N", false, "refuse model versions below N (anti-rollback)"},
        max_input_option(),
    },
};

}  // namespace
}  // namespace grt::cli

int run_verify_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;
  const auto pubkey_path = parsed->value("pubkey");
  if (!pubkey_path) return usage_error(kSpec.name, "--pubkey is required");
  grt::signing::VerifyRequest request;
  if (!numeric_option(kSpec, *parsed, "min-version", 0, UINT64_MAX, &request.minimum_model_version)) return kExitUsage;
  std::string error;
  if (const auto key_id = parsed->value("key-id")) {
    if (!grt::signing::is_valid_key_id(*key_id, &error)) return usage_error(kSpec.name, "--key-id: " + error);
    request.key_id = *key_id;
  }
  Limits limits;
  if (!read_limits(kSpec, *parsed, &limits)) return kExitUsage;
  const std::string& path = parsed->positionals()[0];
  grt::tools::AlignedBytes envelope;
  grt::tools::AlignedBytes key;
  if (!read_file(path, limits.max_input_bytes, &envelope, &error) ||
      !read_file(*pubkey_path, limits.max_input_bytes, &key, &error)) return fail(kSpec.name, error);
  request.public_key_pem.assign(reinterpret_cast<const char*>(key.data()), key.size());

  const grt::signing::VerifyReport report = grt::signing::verify_envelope({envelope.data(), envelope.size()}, request);
  for (const std::string& line : report.checked) std::printf("ok   %s\n", line.c_str());
  if (report.status != GRT_OK) {
    std::printf("FAIL %s: %s\n", grt_status_name(report.status), report.message.c_str());
    return fail(kSpec.name, path + ": " + report.message);
  }
  std::printf("%s: verified\n", path.c_str());
  return kExitOk;
}
