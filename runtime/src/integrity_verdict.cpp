#include "integrity_verdict.h"

#include "error_text.h"
#include "integrity_crypto.h"

namespace grt {

grt_status check_digest_and_signature(const EnvelopeHeader& header, const grt_trusted_key* key,
                                      const uint8_t computed_digest[GRT_ENVELOPE_DIGEST_SIZE], grt_error* error) {
  if (!digests_equal(computed_digest, header.digest())) {
    ErrorText e(error);
    e.text("digest mismatch: the envelope's contents are not what was hashed (");
    if (header.signature_size == 0) {
      e.text("unsigned");
    } else {
      e.text("key ").quoted(header.key_id(), header.key_id_length);
    }
    return e.text(", model version ").number(header.model_version).text(")").status(GRT_ERR_DIGEST_MISMATCH);
  }
  if (key == nullptr) return GRT_OK;
  return verify_signature(*key, header.digest(), header.signature(), header.signature_size, error);
}

}  // namespace grt
