// Writes envelopes. The layout is spelled out here independently of the runtime's reader
// (graphrt/integrity.h documents it), so a mistake on one side shows up in the tests.
#include <array>
#include <cstring>

#include "graphrt/tools/signing.h"
#include "mbedtls/ecdsa.h"
#include "mbedtls/sha256.h"
#include "pk_context.h"
#include "random_source.h"

namespace grt::signing {
namespace {

constexpr size_t kDigestOffset = 64;
constexpr size_t kSignatureSizeOffset = 96;
constexpr size_t kSignatureOffset = 98;

void put_u16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}
void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// Header fields [0, 64) then everything after the header: what the digest covers.
std::array<uint8_t, 32> envelope_digest(const std::vector<uint8_t>& envelope) {
  std::array<uint8_t, 32> digest{};
  mbedtls_sha256_context sha;
  mbedtls_sha256_init(&sha);
  mbedtls_sha256_starts_ret(&sha, 0);
  mbedtls_sha256_update_ret(&sha, envelope.data(), kDigestOffset);
  mbedtls_sha256_update_ret(&sha, envelope.data() + GRT_ENVELOPE_HEADER_SIZE, envelope.size() - GRT_ENVELOPE_HEADER_SIZE);
  mbedtls_sha256_finish_ret(&sha, digest.data());
  mbedtls_sha256_free(&sha);
  return digest;
}

bool sign_digest(std::string_view private_key_pem, const std::array<uint8_t, 32>& digest, std::vector<uint8_t>* signature,
                 std::string* error) {
  PkContext key;
  if (!key.parse_private(private_key_pem, error)) return false;
  RandomSource random;  // ECDSA is deterministic (RFC 6979); this only blinds the computation
  if (!random.seed(error)) return false;
  std::array<unsigned char, MBEDTLS_ECDSA_MAX_LEN> der{};
  size_t size = 0;
  const int rc = mbedtls_ecdsa_write_signature(mbedtls_pk_ec(*key.get()), MBEDTLS_MD_SHA256, digest.data(), digest.size(),
                                               der.data(), &size, RandomSource::generate, random.context());
  if (rc != 0 || size > GRT_ENVELOPE_SIGNATURE_MAX) {
    *error = "cannot sign: " + mbedtls_error_text(rc);
    return false;
  }
  signature->assign(der.begin(), der.begin() + static_cast<std::ptrdiff_t>(size));
  return true;
}

}  // namespace

bool make_envelope(std::span<const uint8_t> model, const EnvelopeOptions& options, std::vector<uint8_t>* envelope,
                   std::string* error) {
  const bool signing = !options.private_key_pem.empty();
  if (signing != !options.key_id.empty()) {
    *error = "a signed envelope needs both a key and a key id, an unsigned one neither";
    return false;
  }
  if (signing && !is_valid_key_id(options.key_id, error)) return false;
  if (model.empty()) {
    *error = "the model is empty";
    return false;
  }
  // The model starts right after the header, which is itself a multiple of 16 bytes.
  static_assert(GRT_ENVELOPE_HEADER_SIZE % GRT_ENVELOPE_MODEL_ALIGNMENT == 0);
  std::vector<uint8_t> out(GRT_ENVELOPE_HEADER_SIZE + model.size(), 0);
  std::memcpy(out.data(), GRT_ENVELOPE_MAGIC, 4);
  put_u16(&out[4], GRT_ENVELOPE_HEADER_VERSION);
  put_u16(&out[6], GRT_ENVELOPE_HEADER_SIZE);
  put_u32(&out[8], GRT_ENVELOPE_HEADER_SIZE);  // model offset
  put_u32(&out[12], 0);                        // flags
  put_u64(&out[16], model.size());
  put_u64(&out[24], options.model_version);
  std::memcpy(&out[32], options.key_id.data(), options.key_id.size());
  std::memcpy(&out[GRT_ENVELOPE_HEADER_SIZE], model.data(), model.size());

  const std::array<uint8_t, 32> digest = envelope_digest(out);
  std::memcpy(&out[kDigestOffset], digest.data(), digest.size());
  if (signing) {
    std::vector<uint8_t> signature;
    if (!sign_digest(options.private_key_pem, digest, &signature, error)) return false;
    put_u16(&out[kSignatureSizeOffset], static_cast<uint16_t>(signature.size()));
    std::memcpy(&out[kSignatureOffset], signature.data(), signature.size());
  }
  *envelope = std::move(out);
  return true;
}

bool sign_model(std::span<const uint8_t> model, std::string_view private_key_pem, std::string_view key_id,
                uint64_t model_version, std::vector<uint8_t>* envelope, std::string* error) {
  EnvelopeOptions options;
  options.model_version = model_version;
  options.key_id = std::string(key_id);
  options.private_key_pem = std::string(private_key_pem);
  if (options.key_id.empty() || options.private_key_pem.empty()) {
    *error = "signing needs a private key and a key id";
    return false;
  }
  return make_envelope(model, options, envelope, error);
}

}  // namespace grt::signing
