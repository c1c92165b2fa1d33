// What the integrity tests share: key pairs made once per test binary, envelopes of builder
// models, the in-memory and streaming checks as one-line calls, and running a yielded model.
#ifndef GRAPHRT_TESTS_INTEGRITY_FIXTURE_H_
#define GRAPHRT_TESTS_INTEGRITY_FIXTURE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/integrity.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"
#include "graphrt/tools/signing.h"

namespace grt::test {

// A signing key and the DER public key firmware would hold for it.
struct TestKey {
  signing::KeyPair pair;
  std::vector<uint8_t> der;
};

// Two distinct P-256 keys, generated on first use.
const TestKey& prod_key();
const TestKey& other_key();

// A trust configuration over keys the test owns.
struct Trust {
  std::vector<std::string> ids;
  std::vector<grt_trusted_key> keys;
  grt_trust_config config{};

  Trust(std::vector<std::pair<std::string, const TestKey*>> trusted, bool require_signature, uint64_t minimum_version);
  const grt_trust_config* get() const { return &config; }
};

// The standard trust of these tests: 'prod-1' -> prod_key(), signatures required, minimum 5.
const Trust& standard_trust();

// A signed envelope of `model` in 16-byte aligned memory.
tools::AlignedBytes signed_envelope(const std::vector<uint8_t>& model, const TestKey& key, const std::string& key_id,
                                    uint64_t model_version);
tools::AlignedBytes unsigned_envelope(const std::vector<uint8_t>& model, uint64_t model_version);

struct Verdict {
  grt_status status = GRT_ERR_ARGUMENT;
  std::string message;
  const void* model = nullptr;
  size_t model_size = 0;
  grt_envelope_info info{};
};

Verdict open_envelope(const uint8_t* bytes, size_t size, const grt_trust_config* trust);
inline Verdict open_envelope(const tools::AlignedBytes& envelope, const grt_trust_config* trust) {
  return open_envelope(envelope.data(), envelope.size(), trust);
}
// The streaming form, fed `chunk` bytes at a time.
Verdict stream_envelope(const uint8_t* bytes, size_t size, const grt_trust_config* trust, size_t chunk);

// grt_model_requirements + grt_init (static strategy) + grt_run on model bytes in place,
// with an input of `fill` bytes; returns the first output's bytes, or an error message.
struct RunResult {
  grt_status status = GRT_ERR_ARGUMENT;
  std::string message;
  std::vector<uint8_t> output;
};
RunResult run_in_place(const void* model, size_t size, uint8_t fill);

// The 0-based model bytes of a builder model (copy chain of `copies` nodes over n bytes).
std::vector<uint8_t> small_model(int copies = 2, int64_t n = 16);
// A model of at least `constant_bytes` bytes: a copy chain plus one large constant.
std::vector<uint8_t> large_model(size_t constant_bytes);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_INTEGRITY_FIXTURE_H_
