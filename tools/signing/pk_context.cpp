#include "pk_context.h"

#include "mbedtls/ecp.h"
#include "random_source.h"

namespace grt::signing {
namespace {

// mbedTLS wants PEM text with its terminating NUL counted.
std::string with_nul(std::string_view key) { return std::string(key) + '\0'; }

const unsigned char* bytes_of(const std::string& s) { return reinterpret_cast<const unsigned char*>(s.data()); }

}  // namespace

bool PkContext::require_p256(std::string* error) {
  if (mbedtls_pk_get_type(&context_) != MBEDTLS_PK_ECKEY || mbedtls_pk_ec(context_)->grp.id != MBEDTLS_ECP_DP_SECP256R1) {
    *error = "the key is not an ECDSA P-256 key";
    return false;
  }
  return true;
}

bool PkContext::parse_private(std::string_view key, std::string* error) {
  const std::string text = with_nul(key);
  const int rc = mbedtls_pk_parse_key(&context_, bytes_of(text), text.size(), nullptr, 0);
  if (rc != 0) {
    *error = "not a private key: " + mbedtls_error_text(rc);
    return false;
  }
  return require_p256(error);
}

bool PkContext::parse_public_or_private(std::string_view key, std::string* error) {
  const std::string text = with_nul(key);
  int rc = mbedtls_pk_parse_public_key(&context_, bytes_of(text), text.size());
  if (rc != 0) {
    mbedtls_pk_free(&context_);
    mbedtls_pk_init(&context_);
    rc = mbedtls_pk_parse_key(&context_, bytes_of(text), text.size(), nullptr, 0);
  }
  if (rc != 0) {
    *error = "not a public key: " + mbedtls_error_text(rc);
    return false;
  }
  return require_p256(error);
}

}  // namespace grt::signing
