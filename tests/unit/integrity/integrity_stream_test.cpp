// The streaming check gives the in-memory check's verdict for any chunking, refuses what
// comes after a failure the same way, and needs no copy of the model.
#include <gtest/gtest.h>

#include "integrity_fixture.h"

namespace grt::test {
namespace {

using tools::AlignedBytes;

struct Case {
  std::string name;
  AlignedBytes envelope;
  size_t size;  // bytes given (less than the envelope: truncated)
  grt_status expected;
};

std::vector<Case> cases() {
  const std::vector<uint8_t> model = small_model(3, 40);
  std::vector<Case> all;
  auto add = [&](std::string name, AlignedBytes envelope, grt_status expected) {
    const size_t size = envelope.size();
    all.push_back({std::move(name), std::move(envelope), size, expected});
  };
  add("good", signed_envelope(model, prod_key(), "prod-1", 9), GRT_OK);
  add("wrong key", signed_envelope(model, other_key(), "prod-1", 9), GRT_ERR_SIGNATURE_INVALID);
  add("unknown key", signed_envelope(model, prod_key(), "dev-7", 9), GRT_ERR_UNKNOWN_KEY);
  add("unsigned", unsigned_envelope(model, 9), GRT_ERR_SIGNATURE_MISSING);
  add("rolled back", signed_envelope(model, prod_key(), "prod-1", 4), GRT_ERR_MODEL_ROLLBACK);
  AlignedBytes corrupt = signed_envelope(model, prod_key(), "prod-1", 9);
  corrupt.data()[corrupt.size() / 2 + 100] ^= 0x10;
  add("corrupt model", std::move(corrupt), GRT_ERR_DIGEST_MISMATCH);
  AlignedBytes bad_magic = signed_envelope(model, prod_key(), "prod-1", 9);
  bad_magic.data()[1] = 'X';
  add("bad magic", std::move(bad_magic), GRT_ERR_ENVELOPE_MALFORMED);
  AlignedBytes truncated = signed_envelope(model, prod_key(), "prod-1", 9);
  all.push_back({"truncated", AlignedBytes(std::vector<uint8_t>(truncated.data(), truncated.data() + truncated.size() - 5)),
                 truncated.size() - 5, GRT_ERR_ENVELOPE_TRUNCATED});
  all.push_back({"header only", AlignedBytes(std::vector<uint8_t>(truncated.data(), truncated.data() + 120)), 120,
                 GRT_ERR_ENVELOPE_TRUNCATED});
  AlignedBytes longer(truncated.size() + 3);
  std::memcpy(longer.data(), truncated.data(), truncated.size());
  const size_t longer_size = longer.size();
  all.push_back({"trailing bytes", std::move(longer), longer_size, GRT_ERR_ENVELOPE_MALFORMED});
  return all;
}

TEST(EnvelopeStream, SameVerdictForEveryChunkSize) {
  const grt_trust_config* trust = standard_trust().get();
  for (const Case& c : cases()) {
    const Verdict whole = open_envelope(c.envelope.data(), c.size, trust);
    ASSERT_EQ(whole.status, c.expected) << c.name << ": " << whole.message;
    for (const size_t chunk : {size_t{1}, size_t{2}, size_t{7}, size_t{64}, size_t{175}, size_t{176}, size_t{177},
                               size_t{4096}, c.size + 1}) {
      const Verdict streamed = stream_envelope(c.envelope.data(), c.size, trust, chunk);
      EXPECT_EQ(streamed.status, c.expected) << c.name << ", chunk " << chunk << ": " << streamed.message;
      if (c.expected == GRT_OK) {
        EXPECT_EQ(streamed.info.model_version, whole.info.model_version);
        EXPECT_EQ(streamed.info.model_size, whole.model_size);
        EXPECT_EQ(streamed.info.model_offset, uint64_t{GRT_ENVELOPE_HEADER_SIZE});
        EXPECT_EQ(streamed.info.signature_verified, 1);
        EXPECT_STREQ(streamed.info.key_id, "prod-1");
      }
    }
  }
}

TEST(EnvelopeStream, FailsEarlyOnHeaderAndRepeatsTheFailure) {
  const AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "dev-7", 9);
  grt_envelope_stream stream;
  grt_error error{};
  ASSERT_EQ(grt_envelope_stream_init(&stream, standard_trust().get(), &error), GRT_OK);
  EXPECT_EQ(grt_envelope_stream_update(&stream, envelope.data(), GRT_ENVELOPE_HEADER_SIZE, &error), GRT_ERR_UNKNOWN_KEY);
  EXPECT_STREQ(error.message, "unknown key id 'dev-7'");
  error = {};
  EXPECT_EQ(grt_envelope_stream_update(&stream, envelope.data() + GRT_ENVELOPE_HEADER_SIZE, 4, &error), GRT_ERR_UNKNOWN_KEY);
  EXPECT_STREQ(error.message, "unknown key id 'dev-7'");
  EXPECT_EQ(grt_envelope_stream_finish(&stream, nullptr, &error), GRT_ERR_UNKNOWN_KEY);
  EXPECT_STREQ(error.message, "unknown key id 'dev-7'");
}

TEST(EnvelopeStream, RefusesUseBeforeInitAndAfterFinish) {
  grt_envelope_stream stream{};
  grt_error error{};
  EXPECT_EQ(grt_envelope_stream_update(&stream, "x", 1, &error), GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_envelope_stream_finish(nullptr, nullptr, &error), GRT_ERR_ARGUMENT);
  const AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "prod-1", 9);
  ASSERT_EQ(grt_envelope_stream_init(&stream, standard_trust().get(), &error), GRT_OK);
  ASSERT_EQ(grt_envelope_stream_update(&stream, envelope.data(), envelope.size(), &error), GRT_OK);
  ASSERT_EQ(grt_envelope_stream_finish(&stream, nullptr, &error), GRT_OK) << error.message;
  EXPECT_EQ(grt_envelope_stream_finish(&stream, nullptr, &error), GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_envelope_stream_update(&stream, envelope.data(), 1, &error), GRT_ERR_ARGUMENT);
}

TEST(EnvelopeStream, AStreamCanBeCopiedMidway) {
  const AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "prod-1", 9);
  grt_envelope_stream first;
  grt_error error{};
  ASSERT_EQ(grt_envelope_stream_init(&first, standard_trust().get(), &error), GRT_OK);
  ASSERT_EQ(grt_envelope_stream_update(&first, envelope.data(), 200, &error), GRT_OK);
  grt_envelope_stream second = first;  // e.g. saved across a task switch
  ASSERT_EQ(grt_envelope_stream_update(&second, envelope.data() + 200, envelope.size() - 200, &error), GRT_OK);
  EXPECT_EQ(grt_envelope_stream_finish(&second, nullptr, &error), GRT_OK) << error.message;
}

}  // namespace
}  // namespace grt::test
