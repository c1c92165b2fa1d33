// The only two things the integrity check asks of mbedTLS: SHA-256 and ECDSA P-256
// verification. Everything here lives on the caller's stack.
#ifndef GRAPHRT_INTEGRITY_CRYPTO_H_
#define GRAPHRT_INTEGRITY_CRYPTO_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/integrity.h"
#include "mbedtls/sha256.h"

namespace grt {

// Incremental SHA-256. The hardware-accelerated variants may fail, so each step says so.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  bool start();
  bool update(const uint8_t* data, size_t size);
  bool finish(uint8_t digest[GRT_ENVELOPE_DIGEST_SIZE]);

 private:
  mbedtls_sha256_context context_;
};

// Compares two digests in time that does not depend on where they differ.
bool digests_equal(const uint8_t* a, const uint8_t* b);

// Verifies a DER ECDSA signature over `digest` with a trusted key (DER SubjectPublicKeyInfo,
// P-256). GRT_ERR_KEY_INVALID, GRT_ERR_SIGNATURE_INVALID or GRT_ERR_INTEGRITY (mbedTLS
// failed, e.g. out of memory), each with a message naming the key.
grt_status verify_signature(const grt_trusted_key& key, const uint8_t digest[GRT_ENVELOPE_DIGEST_SIZE],
                            const uint8_t* signature, size_t signature_size, grt_error* error);

}  // namespace grt

#endif  // GRAPHRT_INTEGRITY_CRYPTO_H_
