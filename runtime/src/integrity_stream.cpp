// The streaming check: the envelope arrives in chunks (external flash, a download), and only
// the header is kept. The same checks as grt_envelope_open, in the same order.
#include <new>
#include <string.h>

#include "message.h"
#include "graphrt/integrity.h"
#include "integrity_crypto.h"
#include "integrity_header.h"
#include "integrity_verdict.h"

namespace grt {
namespace {

constexpr uint32_t kLiveTag = 0x47525453;  // "GRTS": init ran on this stream

struct StreamState {
  uint32_t tag;
  bool header_done;
  bool finished;
  grt_status failure_status;
  const grt_trust_config* trust;
  const grt_trusted_key* key;
  uint64_t received;
  EnvelopeHeader header;
  Sha256 sha;
  grt_error failure;  // replayed by every call after the first failure
  uint8_t header_bytes[GRT_ENVELOPE_HEADER_SIZE];
};

static_assert(sizeof(StreamState) <= GRT_ENVELOPE_STREAM_SIZE,
              "grt_envelope_stream is too small for this mbedTLS SHA-256 context: raise GRT_ENVELOPE_STREAM_SIZE");
static_assert(alignof(StreamState) <= alignof(grt_envelope_stream), "grt_envelope_stream alignment");

StreamState* state_of(grt_envelope_stream* stream) {
  if (stream == nullptr) return nullptr;
  StreamState* state = reinterpret_cast<StreamState*>(stream->opaque.bytes);
  if (state->tag != kLiveTag) return nullptr;
  state->header.raw = state->header_bytes;  // in case the caller moved the stream
  return state;
}

// Records the first failure so that later calls repeat it, and reports it.
grt_status remember_failure(StreamState* state, grt_status status, grt_error* error) {
  state->failure_status = status;
  state->failure.status = status;
  if (error != nullptr) *error = state->failure;
  return status;
}

grt_status replay(const StreamState* state, grt_error* error) {
  if (error != nullptr) *error = state->failure;
  return state->failure_status;
}

grt_status refuse_unusable(grt_envelope_stream* stream, grt_error* error) {
  StreamState* state = state_of(stream);
  if (state == nullptr) {
    return fail(error, GRT_ERR_ARGUMENT, nullptr, "envelope stream not initialised (call grt_envelope_stream_init)");
  }
  if (state->failure_status != GRT_OK) return replay(state, error);
  return fail(error, GRT_ERR_ARGUMENT, nullptr, "envelope stream already finished");
}

bool usable(grt_envelope_stream* stream) {
  const StreamState* state = state_of(stream);
  return state != nullptr && state->failure_status == GRT_OK && !state->finished;
}

grt_status complete_header(StreamState* state) {
  grt_status status = parse_envelope_header(state->header_bytes, &state->header, &state->failure);
  if (status == GRT_OK) status = check_envelope_policy(state->header, state->trust, &state->key, &state->failure);
  if (status != GRT_OK) return status;
  if (!state->sha.start() || !state->sha.update(state->header_bytes, envelope_field::kDigestedPrefix)) {
    return fail(&state->failure, GRT_ERR_INTEGRITY, nullptr, "mbedTLS SHA-256 failed");
  }
  state->header_done = true;
  return GRT_OK;
}

}  // namespace
}  // namespace grt

extern "C" grt_status grt_envelope_stream_init(grt_envelope_stream* stream, const grt_trust_config* trust, grt_error* error) {
  grt::clear_error(error);
  if (stream == nullptr) return grt::fail(error, GRT_ERR_ARGUMENT, nullptr, "grt_envelope_stream_init: stream is NULL");
  // The state is a C++ object (it owns an mbedTLS context) living in the caller's storage.
  grt::StreamState* state = new (stream->opaque.bytes) grt::StreamState();
  state->tag = grt::kLiveTag;
  state->header_done = false;
  state->finished = false;
  state->failure_status = GRT_OK;
  state->trust = trust;
  state->key = nullptr;
  state->received = 0;
  grt::clear_error(&state->failure);
  return GRT_OK;
}

extern "C" grt_status grt_envelope_stream_update(grt_envelope_stream* stream, const void* chunk, size_t size, grt_error* error) {
  grt::clear_error(error);
  if (!grt::usable(stream)) return grt::refuse_unusable(stream, error);
  grt::StreamState* state = grt::state_of(stream);
  if (chunk == nullptr && size != 0) {
    return grt::fail(error, GRT_ERR_ARGUMENT, nullptr, "grt_envelope_stream_update: chunk is NULL");
  }
  const uint8_t* p = static_cast<const uint8_t*>(chunk);
  if (!state->header_done && size != 0) {
    const size_t wanted = GRT_ENVELOPE_HEADER_SIZE - static_cast<size_t>(state->received);
    const size_t taken = size < wanted ? size : wanted;
    memcpy(state->header_bytes + state->received, p, taken);
    state->received += taken;
    p += taken;
    size -= taken;
    if (state->received == GRT_ENVELOPE_HEADER_SIZE) {
      const grt_status status = grt::complete_header(state);
      if (status != GRT_OK) return grt::remember_failure(state, status, error);
    }
  }
  if (size == 0) return GRT_OK;
  // size_t and uint64_t: neither sum can wrap, received <= envelope_size < 2^63.
  if (static_cast<uint64_t>(size) > state->header.envelope_size - state->received) {
    grt::fail(&state->failure, GRT_ERR_ENVELOPE_MALFORMED, nullptr, "envelope has more than %u bytes, as its header says",
              state->header.envelope_size);
    return grt::remember_failure(state, GRT_ERR_ENVELOPE_MALFORMED, error);
  }
  if (!state->sha.update(p, size)) {
    grt::fail(&state->failure, GRT_ERR_INTEGRITY, nullptr, "mbedTLS SHA-256 failed");
    return grt::remember_failure(state, GRT_ERR_INTEGRITY, error);
  }
  state->received += size;
  return GRT_OK;
}

extern "C" grt_status grt_envelope_stream_finish(grt_envelope_stream* stream, grt_envelope_info* info, grt_error* error) {
  grt::clear_error(error);
  if (!grt::usable(stream)) return grt::refuse_unusable(stream, error);
  grt::StreamState* state = grt::state_of(stream);
  state->finished = true;
  if (!state->header_done) {
    const grt_status status = grt::refuse_short_envelope(state->header_bytes, static_cast<size_t>(state->received), &state->failure);
    return grt::remember_failure(state, status, error);
  }
  if (state->received < state->header.envelope_size) {
    grt::fail(&state->failure, GRT_ERR_ENVELOPE_TRUNCATED, nullptr, "truncated envelope: %u bytes, header says %u",
              state->received, state->header.envelope_size);
    return grt::remember_failure(state, GRT_ERR_ENVELOPE_TRUNCATED, error);
  }
  uint8_t digest[GRT_ENVELOPE_DIGEST_SIZE];
  if (!state->sha.finish(digest)) {
    grt::fail(&state->failure, GRT_ERR_INTEGRITY, nullptr, "mbedTLS SHA-256 failed");
    return grt::remember_failure(state, GRT_ERR_INTEGRITY, error);
  }
  const grt_status status = grt::check_digest_and_signature(state->header, state->key, digest, &state->failure);
  if (status != GRT_OK) return grt::remember_failure(state, status, error);
  grt::fill_envelope_info(state->header, state->key, info);
  return GRT_OK;
}
