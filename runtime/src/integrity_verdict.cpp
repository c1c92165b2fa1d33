#include "integrity_verdict.h"

#include "message.h"
#include "integrity_crypto.h"

namespace grt {

grt_status check_digest_and_signature(const EnvelopeHeader& header, const grt_trusted_key* key,
                                      const uint8_t computed_digest[GRT_ENVELOPE_DIGEST_SIZE], grt_error* error) {
  if (!digests_equal(computed_digest, header.digest())) {
    if (header.signature_size == 0) {
      return fail(error, GRT_ERR_DIGEST_MISMATCH, nullptr,
                  "digest mismatch: the envelope's contents are not what was hashed (unsigned, model version %u)",
                  header.model_version);
    }
    return fail(error, GRT_ERR_DIGEST_MISMATCH, nullptr,
                "digest mismatch: the envelope's contents are not what was hashed (key %q, model version %u)",
                header.key_id(), header.model_version);
  }
  if (key == nullptr) return GRT_OK;
  return verify_signature(*key, header.digest(), header.signature(), header.signature_size, error);
}

}  // namespace grt
