// P-256 key generation and the PEM/DER conversions firmware and the CLI need.
#include <array>

#include "graphrt/tools/signing.h"
#include "mbedtls/ecp.h"
#include "mbedtls/pk.h"
#include "pk_context.h"
#include "random_source.h"

namespace grt::signing {

bool generate_key_pair(KeyPair* out, std::string* error) {
  RandomSource random;
  if (!random.seed(error)) return false;
  PkContext key;
  int rc = mbedtls_pk_setup(key.get(), mbedtls_pk_info_from_type(MBEDTLS_PK_ECKEY));
  if (rc == 0) rc = mbedtls_ecp_gen_key(MBEDTLS_ECP_DP_SECP256R1, mbedtls_pk_ec(*key.get()), RandomSource::generate, random.context());
  std::array<unsigned char, 1024> pem{};
  if (rc == 0) rc = mbedtls_pk_write_key_pem(key.get(), pem.data(), pem.size());
  if (rc == 0) out->private_key_pem = reinterpret_cast<const char*>(pem.data());
  if (rc == 0) rc = mbedtls_pk_write_pubkey_pem(key.get(), pem.data(), pem.size());
  if (rc == 0) out->public_key_pem = reinterpret_cast<const char*>(pem.data());
  if (rc != 0) *error = "cannot generate a P-256 key: " + mbedtls_error_text(rc);
  return rc == 0;
}

bool public_key_der(std::string_view pem, std::vector<uint8_t>* der, std::string* error) {
  PkContext key;
  if (!key.parse_public_or_private(pem, error)) return false;
  std::array<unsigned char, 256> buffer{};
  // mbedTLS writes DER backwards, ending at the buffer's end.
  const int written = mbedtls_pk_write_pubkey_der(key.get(), buffer.data(), buffer.size());
  if (written < 0) {
    *error = "cannot write the public key as DER: " + mbedtls_error_text(written);
    return false;
  }
  der->assign(buffer.end() - written, buffer.end());
  return true;
}

bool is_valid_key_id(std::string_view key_id, std::string* why) {
  if (key_id.empty() || key_id.size() >= GRT_ENVELOPE_KEY_ID_SIZE) {
    *why = "key id must have 1 to " + std::to_string(GRT_ENVELOPE_KEY_ID_SIZE - 1) + " characters";
    return false;
  }
  for (const char c : key_id) {
    if (c < 0x20 || c > 0x7e || c == '\'') {
      *why = "key id must be printable ASCII without quotes";
      return false;
    }
  }
  return true;
}

}  // namespace grt::signing
