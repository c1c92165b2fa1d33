#include "integrity_header.h"

#include <string.h>

#include "message.h"

namespace grt {
namespace {

namespace f = envelope_field;

uint16_t read_u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t read_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}
uint64_t read_u64(const uint8_t* p) { return static_cast<uint64_t>(read_u32(p)) | (static_cast<uint64_t>(read_u32(p + 4)) << 32); }

bool all_zero(const uint8_t* p, size_t n) {
  uint8_t any = 0;
  for (size_t i = 0; i < n; ++i) any = static_cast<uint8_t>(any | p[i]);
  return any == 0;
}

grt_status refuse_magic(grt_error* error) {
  return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "not a graphrt envelope (magic is not 'GRTE')");
}

// Printable ASCII, then NUL padding to the end of the field; the id has at most 31 chars.
bool key_id_is_canonical(const uint8_t* field, size_t* length) {
  size_t n = 0;
  while (n < GRT_ENVELOPE_KEY_ID_SIZE && field[n] != 0) {
    if (field[n] < 0x20 || field[n] > 0x7e || field[n] == '\'') return false;
    ++n;
  }
  if (n == GRT_ENVELOPE_KEY_ID_SIZE) return false;
  *length = n;
  return all_zero(field + n, GRT_ENVELOPE_KEY_ID_SIZE - n);
}

bool key_id_matches(const char* trusted, const EnvelopeHeader& header) {
  if (trusted == nullptr) return false;
  size_t n = 0;
  while (n < GRT_ENVELOPE_KEY_ID_SIZE && trusted[n] != '\0') ++n;
  return n == header.key_id_length && memcmp(trusted, header.key_id(), n) == 0;
}

}  // namespace

grt_status refuse_short_envelope(const uint8_t* bytes, size_t size, grt_error* error) {
  const size_t magic_bytes = size < 4 ? size : 4;
  if (magic_bytes != 0 && memcmp(bytes, GRT_ENVELOPE_MAGIC, magic_bytes) != 0) return refuse_magic(error);
  return fail(error, GRT_ERR_ENVELOPE_TRUNCATED, nullptr, "truncated envelope: %u bytes, its header alone is %u", size, GRT_ENVELOPE_HEADER_SIZE);
}

grt_status parse_envelope_header(const uint8_t* raw, EnvelopeHeader* out, grt_error* error) {
  if (memcmp(raw + f::kMagic, GRT_ENVELOPE_MAGIC, 4) != 0) return refuse_magic(error);
  const uint16_t header_version = read_u16(raw + f::kHeaderVersion);
  if (header_version != GRT_ENVELOPE_HEADER_VERSION) {
    return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope header version %u is not supported: this runtime reads version %u", header_version, GRT_ENVELOPE_HEADER_VERSION);
  }
  const uint16_t header_size = read_u16(raw + f::kHeaderSize);
  if (header_size != GRT_ENVELOPE_HEADER_SIZE) {
    return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope header size %u, version 1 headers have %u", header_size, GRT_ENVELOPE_HEADER_SIZE);
  }
  const uint32_t flags = read_u32(raw + f::kFlags);
  if (flags != 0) {
    return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope flags %u are not supported (must be 0)", flags);
  }
  const uint64_t model_offset = read_u32(raw + f::kModelOffset);
  if (model_offset < GRT_ENVELOPE_HEADER_SIZE || model_offset % GRT_ENVELOPE_MODEL_ALIGNMENT != 0) {
    return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope model offset %u is not a multiple of 16 at or after the header's end (%u)", model_offset, GRT_ENVELOPE_HEADER_SIZE);
  }
  const uint64_t model_size = read_u64(raw + f::kModelSize);
  // model_offset < 2^32, so the sum cannot wrap once model_size is below this bound, and
  // the result must also be addressable on this machine.
  const uint64_t max_model_size = (SIZE_MAX < UINT64_MAX / 2 ? static_cast<uint64_t>(SIZE_MAX) : UINT64_MAX / 2) - model_offset;
  if (model_size == 0 || model_size > max_model_size) {
    return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope model size %u is zero or more than this machine can address", model_size);
  }
  size_t key_id_length = 0;
  if (!key_id_is_canonical(raw + f::kKeyId, &key_id_length)) {
    return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope key id is not printable ASCII (at most 31 characters, no quote) padded with zeros");
  }
  const uint16_t signature_size = read_u16(raw + f::kSignatureSize);
  if (signature_size > GRT_ENVELOPE_SIGNATURE_MAX) {
    return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope signature size %u exceeds the maximum %u", signature_size, GRT_ENVELOPE_SIGNATURE_MAX);
  }
  // Not covered by the digest, so they must have exactly one value.
  if (!all_zero(raw + f::kSignature + signature_size, GRT_ENVELOPE_HEADER_SIZE - f::kSignature - signature_size)) {
    return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope bytes after the signature are not zero");
  }
  if ((signature_size == 0) != (key_id_length == 0)) {
    // The key id field is canonical by now: NUL-padded, so it reads as a string.
    const char* key_id = reinterpret_cast<const char*>(raw + f::kKeyId);
    if (signature_size == 0) {
      return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope names key %q but carries no signature", key_id);
    }
    return fail(error, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope is signed but names no key %q", key_id);
  }
  out->raw = raw;
  out->model_offset = model_offset;
  out->model_size = model_size;
  out->model_version = read_u64(raw + f::kModelVersion);
  out->envelope_size = model_offset + model_size;
  out->key_id_length = key_id_length;
  out->signature_size = signature_size;
  return GRT_OK;
}

grt_status check_envelope_policy(const EnvelopeHeader& header, const grt_trust_config* trust,
                                 const grt_trusted_key** key, grt_error* error) {
  *key = nullptr;
  if (header.signature_size != 0) {
    const size_t count = trust == nullptr || trust->keys == nullptr ? 0 : trust->key_count;
    for (size_t i = 0; i < count && *key == nullptr; ++i) {
      if (key_id_matches(trust->keys[i].key_id, header)) *key = &trust->keys[i];
    }
    if (*key == nullptr) {
      return fail(error, GRT_ERR_UNKNOWN_KEY, nullptr, "unknown key id %q", header.key_id());
    }
  } else if (build_requires_signature() || (trust != nullptr && trust->require_signature != 0)) {
    return fail(error, GRT_ERR_SIGNATURE_MISSING, nullptr, "%s", build_requires_signature() ? "signature required (by this build) but absent" : "signature required but absent");
  }
  const uint64_t minimum = trust == nullptr ? 0 : trust->minimum_model_version;
  if (header.model_version < minimum) {
    return fail(error, GRT_ERR_MODEL_ROLLBACK, nullptr, "model version %u is below the minimum %u", header.model_version, minimum);
  }
  return GRT_OK;
}

void fill_envelope_info(const EnvelopeHeader& header, const grt_trusted_key* key, grt_envelope_info* info) {
  if (info == nullptr) return;
  info->model_version = header.model_version;
  info->model_offset = header.model_offset;
  info->model_size = header.model_size;
  info->envelope_size = header.envelope_size;
  memset(info->key_id, 0, sizeof info->key_id);
  memcpy(info->key_id, header.key_id(), header.key_id_length);
  info->signature_verified = key != nullptr ? 1 : 0;
}

}  // namespace grt
