// graphrt keygen --out-private K.pem --out-public P.pem [--out-public-der P.der]: a fresh
// ECDSA P-256 key pair for signing model blobs.
#include <cstdio>
#include <string>
#include <vector>

#include "../args.h"
#include "../commands.h"
#include "../files.h"
#include "../report.h"
#include "graphrt/tools/signing.h"

namespace grt::cli {
namespace {

const CommandSpec kSpec{
    "keygen",
    "--out-private K.pem --out-public P.pem [--out-public-der P.der]",
    "Generates an ECDSA P-256 key pair for `graphrt sign`.",
    "The private key (PEM, SEC1) is written readable by its owner only and never over an\n"
    "existing file; keep it out of the repository. The public key goes to `graphrt verify`\n"
    "(PEM) and into firmware's grt_trust_config (DER, 91 bytes: see `graphrt bin2c`).",
    {},
    {
        {"out-private", 0, "K.pem", false, "where to write the private key (required)"},
        {"out-public", 0, "P.pem", false, "where to write the public key, PEM (required)"},
        {"out-public-der", 0, "P.der", false, "also write the public key as DER, for firmware"},
    },
};

}  // namespace
}  // namespace grt::cli

int run_keygen_command(const std::vector<std::string>& args) {
  using namespace grt::cli;
  int exit_code = kExitOk;
  const auto parsed = parse_or_exit(kSpec, args, &exit_code);
  if (!parsed) return exit_code;
  const auto private_path = parsed->value("out-private");
  const auto public_path = parsed->value("out-public");
  if (!private_path || !public_path) return usage_error(kSpec.name, "--out-private and --out-public are required");
  if (!parsed->positionals().empty()) return usage_error(kSpec.name, "unexpected argument '" + parsed->positionals()[0] + "'");

  grt::signing::KeyPair pair;
  std::string error;
  if (!grt::signing::generate_key_pair(&pair, &error)) return fail(kSpec.name, error);
  if (!grt::signing::write_private_key_file(*private_path, pair.private_key_pem, &error)) return fail(kSpec.name, error);
  if (!write_file(*public_path, pair.public_key_pem.data(), pair.public_key_pem.size(), &error)) return fail(kSpec.name, error);
  std::printf("private key: %s (keep secret)\npublic key:  %s\n", private_path->c_str(), public_path->c_str());
  if (const auto der_path = parsed->value("out-public-der")) {
    std::vector<uint8_t> der;
    if (!grt::signing::public_key_der(pair.public_key_pem, &der, &error) ||
        !write_file(*der_path, der.data(), der.size(), &error)) {
      return fail(kSpec.name, error);
    }
    std::printf("public key (DER, %zu bytes): %s\n", der.size(), der_path->c_str());
  }
  return kExitOk;
}
