// The envelope header: its byte layout (see graphrt/integrity.h), the structural checks that
// come before anything else is believed, and the trust policy checks that need only the
// header. Shared by the in-memory and the streaming checks so both give the same verdicts.
#ifndef GRAPHRT_INTEGRITY_HEADER_H_
#define GRAPHRT_INTEGRITY_HEADER_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/integrity.h"

namespace grt {

// Byte offsets of the version 1 header fields.
namespace envelope_field {
constexpr size_t kMagic = 0;
constexpr size_t kHeaderVersion = 4;
constexpr size_t kHeaderSize = 6;
constexpr size_t kModelOffset = 8;
constexpr size_t kFlags = 12;
constexpr size_t kModelSize = 16;
constexpr size_t kModelVersion = 24;
constexpr size_t kKeyId = 32;
constexpr size_t kDigest = 64;
constexpr size_t kSignatureSize = 96;
constexpr size_t kSignature = 98;
constexpr size_t kReserved = kSignature + GRT_ENVELOPE_SIGNATURE_MAX;
// The digest covers [0, kDigestedPrefix) of the header, then everything after the header.
constexpr size_t kDigestedPrefix = kDigest;
}  // namespace envelope_field

static_assert(envelope_field::kReserved + 6 == GRT_ENVELOPE_HEADER_SIZE, "header layout");

// Numeric fields of a structurally valid header; the rest is read in place from `raw`,
// which points at the GRT_ENVELOPE_HEADER_SIZE header bytes.
struct EnvelopeHeader {
  const uint8_t* raw = nullptr;
  uint64_t model_offset = 0;
  uint64_t model_size = 0;
  uint64_t model_version = 0;
  uint64_t envelope_size = 0;
  size_t key_id_length = 0;
  size_t signature_size = 0;

  const char* key_id() const { return reinterpret_cast<const char*>(raw + envelope_field::kKeyId); }
  const uint8_t* digest() const { return raw + envelope_field::kDigest; }
  const uint8_t* signature() const { return raw + envelope_field::kSignature; }
};

// A truncated envelope (fewer than a header's bytes): "not an envelope" if the bytes there
// already contradict the magic, else "truncated".
grt_status refuse_short_envelope(const uint8_t* bytes, size_t size, grt_error* error);

// Magic, header version and size, offsets and sizes (overflow-safe), key id text, and that
// unused bytes are zero. `raw` must hold GRT_ENVELOPE_HEADER_SIZE bytes.
grt_status parse_envelope_header(const uint8_t* raw, EnvelopeHeader* out, grt_error* error);

// Key known, signature present when required, model version not rolled back. Yields the
// trusted key for a signed envelope (NULL when unsigned).
grt_status check_envelope_policy(const EnvelopeHeader& header, const grt_trust_config* trust,
                                 const grt_trusted_key** key, grt_error* error);

// Whether this firmware was built to require signatures (GRT_INTEGRITY_REQUIRE_SIGNATURE).
bool build_requires_signature();

void fill_envelope_info(const EnvelopeHeader& header, const grt_trusted_key* key, grt_envelope_info* info);

}  // namespace grt

#endif  // GRAPHRT_INTEGRITY_HEADER_H_
