// grt_envelope_open: an accepted envelope yields a model that loads and runs; each way of
// being refused has its own status and a message that names the key and what failed.
#include <gtest/gtest.h>

#include <cstring>

#include "integrity_fixture.h"

namespace grt::test {
namespace {

using tools::AlignedBytes;

constexpr size_t kSignatureSizeOffset = 96;

TEST(EnvelopeOpen, AcceptedModelLoadsAndRunsInPlace) {
  const std::vector<uint8_t> model = small_model(3);
  const AlignedBytes envelope = signed_envelope(model, prod_key(), "prod-1", 7);
  const Verdict v = open_envelope(envelope, standard_trust().get());
  ASSERT_EQ(v.status, GRT_OK) << v.message;
  EXPECT_EQ(v.model, envelope.data() + GRT_ENVELOPE_HEADER_SIZE);
  ASSERT_EQ(v.model_size, model.size());
  EXPECT_EQ(std::memcmp(v.model, model.data(), model.size()), 0);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(v.model) % GRT_BLOB_ALIGNMENT, 0u);
  EXPECT_EQ(v.info.model_version, 7u);
  EXPECT_STREQ(v.info.key_id, "prod-1");
  EXPECT_EQ(v.info.signature_verified, 1);
  EXPECT_EQ(v.info.envelope_size, envelope.size());

  const RunResult run = run_in_place(v.model, v.model_size, 0x5a);
  ASSERT_EQ(run.status, GRT_OK) << run.message;
  EXPECT_EQ(run.output, std::vector<uint8_t>(16, 0x5a));
}

TEST(EnvelopeOpen, TheRuntimeRefusesAnEnvelopeGivenAsAModel) {
  const AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "prod-1", 7);
  const RunResult run = run_in_place(envelope.data(), envelope.size(), 0);
  EXPECT_EQ(run.status, GRT_ERR_INTEGRITY) << run.message;
}

TEST(EnvelopeOpen, WrongKeyDoesNotVerify) {
  const AlignedBytes envelope = signed_envelope(small_model(), other_key(), "prod-1", 7);
  const Verdict v = open_envelope(envelope, standard_trust().get());
  EXPECT_EQ(v.status, GRT_ERR_SIGNATURE_INVALID);
  EXPECT_EQ(v.message, "blob signature does not verify with key 'prod-1'");
  EXPECT_EQ(v.model, nullptr);
}

TEST(EnvelopeOpen, UnknownKeyIdIsNamed) {
  const AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "dev-7", 7);
  const Verdict v = open_envelope(envelope, standard_trust().get());
  EXPECT_EQ(v.status, GRT_ERR_UNKNOWN_KEY);
  EXPECT_EQ(v.message, "unknown key id 'dev-7'");
}

TEST(EnvelopeOpen, MissingSignatureWhenRequired) {
  const AlignedBytes envelope = unsigned_envelope(small_model(), 7);
  const Verdict v = open_envelope(envelope, standard_trust().get());
  EXPECT_EQ(v.status, GRT_ERR_SIGNATURE_MISSING);
  EXPECT_EQ(v.message, "signature required but absent");
}

TEST(EnvelopeOpen, UnsignedAcceptedWhenNotRequiredWithDigestOnly) {
  const AlignedBytes envelope = unsigned_envelope(small_model(), 1);
  const Verdict none = open_envelope(envelope, nullptr);
  ASSERT_EQ(none.status, GRT_OK) << none.message;
  EXPECT_EQ(none.info.signature_verified, 0);
  EXPECT_STREQ(none.info.key_id, "");
  const Trust lenient({{"prod-1", &prod_key()}}, false, 0);
  EXPECT_EQ(open_envelope(envelope, lenient.get()).status, GRT_OK);
}

TEST(EnvelopeOpen, SignatureCheckedEvenWhenNotRequired) {
  const Trust lenient({{"prod-1", &prod_key()}}, false, 0);
  EXPECT_EQ(open_envelope(signed_envelope(small_model(), other_key(), "prod-1", 1), lenient.get()).status,
            GRT_ERR_SIGNATURE_INVALID);
  EXPECT_EQ(open_envelope(signed_envelope(small_model(), prod_key(), "dev-7", 1), lenient.get()).status, GRT_ERR_UNKNOWN_KEY);
  EXPECT_EQ(open_envelope(signed_envelope(small_model(), prod_key(), "prod-1", 1), nullptr).status, GRT_ERR_UNKNOWN_KEY);
}

TEST(EnvelopeOpen, RolledBackVersionIsRefused) {
  const AlignedBytes old = signed_envelope(small_model(), prod_key(), "prod-1", 3);
  const Verdict v = open_envelope(old, standard_trust().get());
  EXPECT_EQ(v.status, GRT_ERR_MODEL_ROLLBACK);
  EXPECT_EQ(v.message, "model version 3 is below the minimum 5");
  const AlignedBytes at_minimum = signed_envelope(small_model(), prod_key(), "prod-1", 5);
  EXPECT_EQ(open_envelope(at_minimum, standard_trust().get()).status, GRT_OK);
}

TEST(EnvelopeOpen, TruncatedEnvelopeSaysHowMuchIsMissing) {
  const AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "prod-1", 7);
  const Verdict v = open_envelope(envelope.data(), envelope.size() - 1, standard_trust().get());
  EXPECT_EQ(v.status, GRT_ERR_ENVELOPE_TRUNCATED);
  EXPECT_EQ(v.message, "truncated envelope: " + std::to_string(envelope.size() - 1) + " bytes, header says " +
                           std::to_string(envelope.size()));
  const Verdict header_only = open_envelope(envelope.data(), 100, standard_trust().get());
  EXPECT_EQ(header_only.status, GRT_ERR_ENVELOPE_TRUNCATED);
  EXPECT_EQ(header_only.message, "truncated envelope: 100 bytes, its header alone is 176");
  EXPECT_EQ(open_envelope(envelope.data(), 0, standard_trust().get()).status, GRT_ERR_ENVELOPE_TRUNCATED);
}

TEST(EnvelopeOpen, BytesAfterTheEndAreRefused) {
  const AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "prod-1", 7);
  AlignedBytes longer(envelope.size() + 16);
  std::memcpy(longer.data(), envelope.data(), envelope.size());
  const Verdict v = open_envelope(longer, standard_trust().get());
  EXPECT_EQ(v.status, GRT_ERR_ENVELOPE_MALFORMED);
}

TEST(EnvelopeOpen, DigestMismatchNamesTheKey) {
  AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "prod-1", 7);
  envelope.data()[envelope.size() - 1] ^= 1;
  const Verdict v = open_envelope(envelope, standard_trust().get());
  EXPECT_EQ(v.status, GRT_ERR_DIGEST_MISMATCH);
  EXPECT_NE(v.message.find("digest mismatch"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("'prod-1'"), std::string::npos) << v.message;
}

TEST(EnvelopeOpen, NotAnEnvelope) {
  const AlignedBytes model(small_model());
  const Verdict v = open_envelope(model, standard_trust().get());
  EXPECT_EQ(v.status, GRT_ERR_ENVELOPE_MALFORMED);
  EXPECT_EQ(v.message, "not a graphrt envelope (magic is not 'GRTE')");
  const uint8_t three[3] = {'G', 'R', 'X'};
  EXPECT_EQ(open_envelope(three, 3, nullptr).status, GRT_ERR_ENVELOPE_MALFORMED);
}

TEST(EnvelopeOpen, InvalidTrustedKeyIsReportedAsSuch) {
  const std::vector<uint8_t> garbage(91, 0x30);
  Trust trust({{"prod-1", &prod_key()}}, true, 0);
  trust.keys[0].public_key_der = garbage.data();
  const Verdict v = open_envelope(signed_envelope(small_model(), prod_key(), "prod-1", 7), trust.get());
  EXPECT_EQ(v.status, GRT_ERR_KEY_INVALID);
  EXPECT_EQ(v.message, "trusted key 'prod-1' is not a DER P-256 public key");
}

TEST(EnvelopeOpen, KeysAreMatchedByExactId) {
  const Trust trust({{"prod", &other_key()}, {"prod-10", &other_key()}, {"prod-1", &prod_key()}}, true, 0);
  EXPECT_EQ(open_envelope(signed_envelope(small_model(), prod_key(), "prod-1", 7), trust.get()).status, GRT_OK);
}

TEST(EnvelopeOpen, SignatureLongerThanDerSaysIsRefused) {
  // One trailing zero byte inside the signature: DER that does not end where the size says.
  // DER signatures are 70 to 72 bytes; find a model version whose signature has room.
  AlignedBytes envelope;
  for (uint64_t version = 7; version < 40; ++version) {
    envelope = signed_envelope(small_model(), prod_key(), "prod-1", version);
    if (envelope.data()[kSignatureSizeOffset] < GRT_ENVELOPE_SIGNATURE_MAX) break;
  }
  const uint8_t size = envelope.data()[kSignatureSizeOffset];
  ASSERT_LT(size, GRT_ENVELOPE_SIGNATURE_MAX);
  envelope.data()[kSignatureSizeOffset] = static_cast<uint8_t>(size + 1);
  EXPECT_EQ(open_envelope(envelope, standard_trust().get()).status, GRT_ERR_SIGNATURE_INVALID);
}

TEST(EnvelopeOpen, NullArgumentsAreRefused) {
  const AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "prod-1", 7);
  const void* model = nullptr;
  size_t size = 0;
  grt_error error{};
  EXPECT_EQ(grt_envelope_open(envelope.data(), envelope.size(), nullptr, nullptr, &size, nullptr, &error), GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_envelope_open(nullptr, 10, nullptr, &model, &size, nullptr, &error), GRT_ERR_ARGUMENT);
  EXPECT_EQ(grt_envelope_open(envelope.data(), envelope.size(), standard_trust().get(), &model, &size, nullptr, nullptr), GRT_OK);
}

TEST(EnvelopePeek, ReadsTheHeaderWithoutTrustingIt) {
  const AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "prod-1", 9);
  grt_envelope_info info{};
  grt_error error{};
  ASSERT_EQ(grt_envelope_peek(envelope.data(), GRT_ENVELOPE_HEADER_SIZE, &info, &error), GRT_OK) << error.message;
  EXPECT_EQ(info.envelope_size, envelope.size());
  EXPECT_EQ(info.model_version, 9u);
  EXPECT_STREQ(info.key_id, "prod-1");
  EXPECT_EQ(info.signature_verified, 0);
}

TEST(EnvelopeStatus, NamesAreStable) {
  EXPECT_STREQ(grt_status_name(GRT_ERR_ENVELOPE_MALFORMED), "GRT_ERR_ENVELOPE_MALFORMED");
  EXPECT_STREQ(grt_status_name(GRT_ERR_ENVELOPE_TRUNCATED), "GRT_ERR_ENVELOPE_TRUNCATED");
  EXPECT_STREQ(grt_status_name(GRT_ERR_DIGEST_MISMATCH), "GRT_ERR_DIGEST_MISMATCH");
  EXPECT_STREQ(grt_status_name(GRT_ERR_SIGNATURE_MISSING), "GRT_ERR_SIGNATURE_MISSING");
  EXPECT_STREQ(grt_status_name(GRT_ERR_SIGNATURE_INVALID), "GRT_ERR_SIGNATURE_INVALID");
  EXPECT_STREQ(grt_status_name(GRT_ERR_UNKNOWN_KEY), "GRT_ERR_UNKNOWN_KEY");
  EXPECT_STREQ(grt_status_name(GRT_ERR_KEY_INVALID), "GRT_ERR_KEY_INVALID");
  EXPECT_STREQ(grt_status_name(GRT_ERR_MODEL_ROLLBACK), "GRT_ERR_MODEL_ROLLBACK");
}

}  // namespace
}  // namespace grt::test
