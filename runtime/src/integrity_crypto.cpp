#include "integrity_crypto.h"

#include <string.h>

#include "message.h"
#include "mbedtls/asn1.h"
#include "mbedtls/bignum.h"
#include "mbedtls/ecdsa.h"
#include "mbedtls/ecp.h"
#include "mbedtls/oid.h"
#include "mbedtls/version.h"

namespace grt {
namespace {

// mbedTLS 3 renamed the SHA-256 calls that return a status.
#if MBEDTLS_VERSION_MAJOR >= 3
int sha256_starts(mbedtls_sha256_context* c) { return mbedtls_sha256_starts(c, 0); }
int sha256_update(mbedtls_sha256_context* c, const uint8_t* d, size_t n) { return mbedtls_sha256_update(c, d, n); }
int sha256_finish(mbedtls_sha256_context* c, uint8_t* out) { return mbedtls_sha256_finish(c, out); }
#else
int sha256_starts(mbedtls_sha256_context* c) { return mbedtls_sha256_starts_ret(c, 0); }
int sha256_update(mbedtls_sha256_context* c, const uint8_t* d, size_t n) { return mbedtls_sha256_update_ret(c, d, n); }
int sha256_finish(mbedtls_sha256_context* c, uint8_t* out) { return mbedtls_sha256_finish_ret(c, out); }
#endif

constexpr char kOidEcPublicKey[] = MBEDTLS_OID_EC_ALG_UNRESTRICTED;
constexpr char kOidP256[] = MBEDTLS_OID_EC_GRP_SECP256R1;

bool oid_is(const mbedtls_asn1_buf& oid, const char* expected, size_t expected_size) {
  return oid.tag == MBEDTLS_ASN1_OID && oid.len == expected_size && memcmp(oid.p, expected, expected_size) == 0;
}

// The mbedTLS objects one verification needs, freed on every path.
struct VerifyContext {
  VerifyContext() {
    mbedtls_ecp_group_init(&group);
    mbedtls_ecp_point_init(&public_key);
    mbedtls_mpi_init(&r);
    mbedtls_mpi_init(&s);
  }
  ~VerifyContext() {
    mbedtls_mpi_free(&s);
    mbedtls_mpi_free(&r);
    mbedtls_ecp_point_free(&public_key);
    mbedtls_ecp_group_free(&group);
  }
  VerifyContext(const VerifyContext&) = delete;
  VerifyContext& operator=(const VerifyContext&) = delete;
  mbedtls_ecp_group group;
  mbedtls_ecp_point public_key;
  mbedtls_mpi r;
  mbedtls_mpi s;
};

bool is_allocation_failure(int code) { return code == MBEDTLS_ERR_MPI_ALLOC_FAILED || code == MBEDTLS_ERR_ECP_ALLOC_FAILED; }

grt_status crypto_failure(const grt_trusted_key& key, int code, grt_error* error) {
  return fail(error, GRT_ERR_INTEGRITY, nullptr, "mbedTLS error -%u while verifying with key %q", static_cast<uint64_t>(-static_cast<int64_t>(code)), key.key_id);
}

// SubjectPublicKeyInfo ::= SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING }.
// Parsed here rather than with mbedtls_pk_parse_public_key, which allocates a key context.
int read_public_key(const grt_trusted_key& key, VerifyContext* c) {
  if (key.public_key_der == nullptr) return MBEDTLS_ERR_ASN1_OUT_OF_DATA;
  unsigned char* p = const_cast<unsigned char*>(key.public_key_der);  // mbedTLS only reads
  const unsigned char* end = p + key.public_key_der_size;
  size_t length = 0;
  int rc = mbedtls_asn1_get_tag(&p, end, &length, MBEDTLS_ASN1_CONSTRUCTED | MBEDTLS_ASN1_SEQUENCE);
  if (rc != 0) return rc;
  if (p + length != end) return MBEDTLS_ERR_ASN1_LENGTH_MISMATCH;
  mbedtls_asn1_buf algorithm;
  mbedtls_asn1_buf parameters;
  rc = mbedtls_asn1_get_alg(&p, end, &algorithm, &parameters);
  if (rc != 0) return rc;
  if (!oid_is(algorithm, kOidEcPublicKey, sizeof kOidEcPublicKey - 1) || !oid_is(parameters, kOidP256, sizeof kOidP256 - 1)) {
    return MBEDTLS_ERR_ECP_FEATURE_UNAVAILABLE;
  }
  rc = mbedtls_asn1_get_bitstring_null(&p, end, &length);
  if (rc != 0) return rc;
  if (p + length != end) return MBEDTLS_ERR_ASN1_LENGTH_MISMATCH;
  rc = mbedtls_ecp_group_load(&c->group, MBEDTLS_ECP_DP_SECP256R1);
  if (rc != 0) return rc;
  rc = mbedtls_ecp_point_read_binary(&c->group, &c->public_key, p, length);
  if (rc != 0) return rc;
  return mbedtls_ecp_check_pubkey(&c->group, &c->public_key);
}

// Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }, with nothing after it.
int read_signature(const uint8_t* signature, size_t size, VerifyContext* c) {
  unsigned char* p = const_cast<unsigned char*>(signature);  // mbedTLS only reads
  const unsigned char* end = p + size;
  size_t length = 0;
  int rc = mbedtls_asn1_get_tag(&p, end, &length, MBEDTLS_ASN1_CONSTRUCTED | MBEDTLS_ASN1_SEQUENCE);
  if (rc != 0) return rc;
  if (p + length != end) return MBEDTLS_ERR_ASN1_LENGTH_MISMATCH;
  rc = mbedtls_asn1_get_mpi(&p, end, &c->r);
  if (rc != 0) return rc;
  rc = mbedtls_asn1_get_mpi(&p, end, &c->s);
  if (rc != 0) return rc;
  return p == end ? 0 : MBEDTLS_ERR_ASN1_LENGTH_MISMATCH;
}

}  // namespace

Sha256::Sha256() { mbedtls_sha256_init(&context_); }
Sha256::~Sha256() { mbedtls_sha256_free(&context_); }
bool Sha256::start() { return sha256_starts(&context_) == 0; }
bool Sha256::update(const uint8_t* data, size_t size) { return size == 0 || sha256_update(&context_, data, size) == 0; }
bool Sha256::finish(uint8_t digest[GRT_ENVELOPE_DIGEST_SIZE]) { return sha256_finish(&context_, digest) == 0; }

bool digests_equal(const uint8_t* a, const uint8_t* b) {
  uint8_t difference = 0;
  for (size_t i = 0; i < GRT_ENVELOPE_DIGEST_SIZE; ++i) difference = static_cast<uint8_t>(difference | (a[i] ^ b[i]));
  return difference == 0;
}

grt_status verify_signature(const grt_trusted_key& key, const uint8_t digest[GRT_ENVELOPE_DIGEST_SIZE],
                            const uint8_t* signature, size_t signature_size, grt_error* error) {
  VerifyContext c;
  int rc = read_public_key(key, &c);
  if (is_allocation_failure(rc)) return crypto_failure(key, rc, error);
  if (rc != 0) {
    return fail(error, GRT_ERR_KEY_INVALID, nullptr, "trusted key %q is not a DER P-256 public key", key.key_id);
  }
  rc = read_signature(signature, signature_size, &c);
  if (is_allocation_failure(rc)) return crypto_failure(key, rc, error);
  if (rc != 0) {
    return fail(error, GRT_ERR_SIGNATURE_INVALID, nullptr, "blob signature is not DER ECDSA for key %q", key.key_id);
  }
  rc = mbedtls_ecdsa_verify(&c.group, digest, GRT_ENVELOPE_DIGEST_SIZE, &c.public_key, &c.r, &c.s);
  if (is_allocation_failure(rc)) return crypto_failure(key, rc, error);
  if (rc != 0) {
    return fail(error, GRT_ERR_SIGNATURE_INVALID, nullptr, "blob signature does not verify with key %q", key.key_id);
  }
  return GRT_OK;
}

}  // namespace grt
