// The in-memory check: the whole envelope is addressable (RAM or memory-mapped flash).
#include <string.h>

#include "message.h"
#include "graphrt/integrity.h"
#include "integrity_crypto.h"
#include "integrity_header.h"
#include "integrity_verdict.h"

namespace grt {
namespace {

grt_status hash_envelope(const uint8_t* bytes, const EnvelopeHeader& header, uint8_t digest[GRT_ENVELOPE_DIGEST_SIZE],
                         grt_error* error) {
  Sha256 sha;
  const size_t after_header = static_cast<size_t>(header.envelope_size) - GRT_ENVELOPE_HEADER_SIZE;
  if (!sha.start() || !sha.update(bytes, envelope_field::kDigestedPrefix) ||
      !sha.update(bytes + GRT_ENVELOPE_HEADER_SIZE, after_header) || !sha.finish(digest)) {
    return fail(error, GRT_ERR_INTEGRITY, nullptr, "mbedTLS SHA-256 failed");
  }
  return GRT_OK;
}

grt_status check_envelope_size(size_t size, const EnvelopeHeader& header, grt_error* error) {
  if (size == header.envelope_size) return GRT_OK;
  return fail(error, size < header.envelope_size ? GRT_ERR_ENVELOPE_TRUNCATED : GRT_ERR_ENVELOPE_MALFORMED, nullptr, "%s%u bytes, header says %u", size < header.envelope_size ? "truncated envelope: " : "envelope has ", size, header.envelope_size);
}

}  // namespace
}  // namespace grt

extern "C" grt_status grt_envelope_peek(const void* header, size_t header_size, grt_envelope_info* info, grt_error* error) {
  grt::clear_error(error);
  if (header == nullptr || info == nullptr) {
    return grt::fail(error, GRT_ERR_ARGUMENT, nullptr, "grt_envelope_peek: header and info must not be NULL");
  }
  const uint8_t* bytes = static_cast<const uint8_t*>(header);
  if (header_size < GRT_ENVELOPE_HEADER_SIZE) return grt::refuse_short_envelope(bytes, header_size, error);
  grt::EnvelopeHeader parsed;
  const grt_status status = grt::parse_envelope_header(bytes, &parsed, error);
  if (status != GRT_OK) return status;
  grt::fill_envelope_info(parsed, nullptr, info);
  return GRT_OK;
}

extern "C" grt_status grt_envelope_open(const void* envelope, size_t envelope_size, const grt_trust_config* trust,
                                        const void** model, size_t* model_size, grt_envelope_info* info, grt_error* error) {
  grt::clear_error(error);
  if (model == nullptr || model_size == nullptr || (envelope == nullptr && envelope_size != 0)) {
    return grt::fail(error, GRT_ERR_ARGUMENT, nullptr, "grt_envelope_open: envelope, model and model_size must not be NULL");
  }
  *model = nullptr;
  *model_size = 0;
  const uint8_t* bytes = static_cast<const uint8_t*>(envelope);
  if (envelope_size < GRT_ENVELOPE_HEADER_SIZE) return grt::refuse_short_envelope(bytes, envelope_size, error);

  grt::EnvelopeHeader header;
  grt_status status = grt::parse_envelope_header(bytes, &header, error);
  if (status != GRT_OK) return status;
  const grt_trusted_key* key = nullptr;
  status = grt::check_envelope_policy(header, trust, &key, error);
  if (status != GRT_OK) return status;
  status = grt::check_envelope_size(envelope_size, header, error);
  if (status != GRT_OK) return status;
  uint8_t digest[GRT_ENVELOPE_DIGEST_SIZE];
  status = grt::hash_envelope(bytes, header, digest, error);
  if (status != GRT_OK) return status;
  status = grt::check_digest_and_signature(header, key, digest, error);
  if (status != GRT_OK) return status;

  *model = bytes + header.model_offset;
  *model_size = static_cast<size_t>(header.model_size);
  grt::fill_envelope_info(header, key, info);
  return GRT_OK;
}
