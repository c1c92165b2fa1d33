// Host side of blob integrity: P-256 keys, envelope writing and signing, and verification
// through the device's own check (graphrt/integrity.h). mbedTLS does all the cryptography.
#ifndef GRAPHRT_TOOLS_SIGNING_H_
#define GRAPHRT_TOOLS_SIGNING_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graphrt/integrity.h"

namespace grt::signing {

struct KeyPair {
  std::string private_key_pem;  // SEC1 "EC PRIVATE KEY"
  std::string public_key_pem;   // SubjectPublicKeyInfo "PUBLIC KEY"
};

// A fresh P-256 key pair from the system's entropy source.
bool generate_key_pair(KeyPair* out, std::string* error);

// The DER SubjectPublicKeyInfo (91 bytes) that firmware lists in its grt_trust_config, from
// a public or private key in PEM.
bool public_key_der(std::string_view pem, std::vector<uint8_t>* der, std::string* error);

// Writes a private key with owner-only permissions (0600); refuses to replace a file.
bool write_private_key_file(const std::string& path, std::string_view pem, std::string* error);

// Key ids: 1 to 31 printable ASCII characters, no quote (messages quote them).
bool is_valid_key_id(std::string_view key_id, std::string* why);

struct EnvelopeOptions {
  uint64_t model_version = 0;
  // Both empty: an unsigned envelope (digest only). Both set: signed.
  std::string key_id;
  std::string private_key_pem;
};

// Wraps a model blob (as serialize() or the importer produce it) in an envelope.
bool make_envelope(std::span<const uint8_t> model, const EnvelopeOptions& options, std::vector<uint8_t>* envelope,
                   std::string* error);

// Signs in the same step as import: `graphrt import --sign` and release pipelines call this
// on the blob they just built.
bool sign_model(std::span<const uint8_t> model, std::string_view private_key_pem, std::string_view key_id,
                uint64_t model_version, std::vector<uint8_t>* envelope, std::string* error);

struct VerifyRequest {
  std::string public_key_pem;
  std::optional<std::string> key_id;  // expected id; default: whatever the envelope names
  uint64_t minimum_model_version = 0;
  bool require_signature = true;
};

struct VerifyReport {
  grt_status status = GRT_ERR_ARGUMENT;
  std::string message;               // the device check's message when it refused
  std::optional<grt_envelope_info> info;  // header fields, when the header parsed
  std::vector<std::string> checked;  // what held, one line each, in order
};

// Runs grt_envelope_open (the device's check) with a trust configuration of this one key,
// then the loader's checks on the model inside (grt_model_requirements).
VerifyReport verify_envelope(std::span<const uint8_t> envelope, const VerifyRequest& request);

}  // namespace grt::signing

#endif  // GRAPHRT_TOOLS_SIGNING_H_
