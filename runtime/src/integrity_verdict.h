// The last two checks of an envelope, once every byte has been hashed: the digest, then the
// signature. One implementation for the in-memory and the streaming form.
#ifndef GRAPHRT_INTEGRITY_VERDICT_H_
#define GRAPHRT_INTEGRITY_VERDICT_H_

#include "integrity_header.h"

namespace grt {

// `key` is NULL for an unsigned envelope (its policy check already allowed that).
grt_status check_digest_and_signature(const EnvelopeHeader& header, const grt_trusted_key* key,
                                      const uint8_t computed_digest[GRT_ENVELOPE_DIGEST_SIZE], grt_error* error);

}  // namespace grt

#endif  // GRAPHRT_INTEGRITY_VERDICT_H_
