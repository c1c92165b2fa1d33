// The host signing library: keys, envelopes it writes, and its report of a verification.
#include <gtest/gtest.h>

#include "graphrt/tools/signing.h"
#include "integrity_fixture.h"

namespace grt::test {
namespace {

TEST(Signing, KeysArePemAndTheirDerIsASubjectPublicKeyInfo) {
  const TestKey& key = prod_key();
  EXPECT_NE(key.pair.private_key_pem.find("-----BEGIN EC PRIVATE KEY-----"), std::string::npos);
  EXPECT_NE(key.pair.public_key_pem.find("-----BEGIN PUBLIC KEY-----"), std::string::npos);
  ASSERT_EQ(key.der.size(), 91u);  // SEQUENCE { id-ecPublicKey, prime256v1 }, 65-byte point
  EXPECT_EQ(key.der[0], 0x30);
  std::vector<uint8_t> from_private;
  std::string error;
  ASSERT_TRUE(signing::public_key_der(key.pair.private_key_pem, &from_private, &error)) << error;
  EXPECT_EQ(from_private, key.der);
  EXPECT_NE(prod_key().der, other_key().der);
}

TEST(Signing, RefusesBadKeysAndKeyIds) {
  std::vector<uint8_t> envelope;
  std::string error;
  EXPECT_FALSE(signing::sign_model(small_model(), "not a key", "prod-1", 1, &envelope, &error));
  EXPECT_NE(error.find("not a private key"), std::string::npos) << error;
  EXPECT_FALSE(signing::sign_model(small_model(), prod_key().pair.private_key_pem, "", 1, &envelope, &error));
  EXPECT_FALSE(signing::sign_model(small_model(), prod_key().pair.private_key_pem, std::string(32, 'k'), 1, &envelope, &error));
  EXPECT_FALSE(signing::sign_model(small_model(), prod_key().pair.private_key_pem, "it's", 1, &envelope, &error));
  EXPECT_TRUE(signing::sign_model(small_model(), prod_key().pair.private_key_pem, std::string(31, 'k'), 1, &envelope, &error));
  EXPECT_FALSE(signing::public_key_der("garbage", &envelope, &error));
}

TEST(Signing, EnvelopeLayoutIsAsDocumented) {
  const std::vector<uint8_t> model = small_model();
  const tools::AlignedBytes e = signed_envelope(model, prod_key(), "prod-1", 0x0102030405060708ull);
  ASSERT_EQ(e.size(), GRT_ENVELOPE_HEADER_SIZE + model.size());
  const uint8_t* b = e.data();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(b), 4), "GRTE");
  EXPECT_EQ(b[4] | (b[5] << 8), 1);
  EXPECT_EQ(b[6] | (b[7] << 8), 176);
  EXPECT_EQ(b[8] | (b[9] << 8), 176);
  EXPECT_EQ(b[24], 0x08);
  EXPECT_EQ(b[31], 0x01);
  EXPECT_STREQ(reinterpret_cast<const char*>(b + 32), "prod-1");
  const int signature_size = b[96] | (b[97] << 8);
  EXPECT_GE(signature_size, 8);
  EXPECT_LE(signature_size, GRT_ENVELOPE_SIGNATURE_MAX);
  EXPECT_EQ(b[98], 0x30);  // DER SEQUENCE
  EXPECT_EQ(std::memcmp(b + GRT_ENVELOPE_HEADER_SIZE, model.data(), model.size()), 0);
}

TEST(Signing, VerifyReportsEachCheck) {
  const std::vector<uint8_t> model = small_model();
  const tools::AlignedBytes e = signed_envelope(model, prod_key(), "prod-1", 6);
  signing::VerifyRequest request;
  request.public_key_pem = prod_key().pair.public_key_pem;
  request.minimum_model_version = 5;
  signing::VerifyReport report = signing::verify_envelope({e.data(), e.size()}, request);
  ASSERT_EQ(report.status, GRT_OK) << report.message;
  ASSERT_EQ(report.checked.size(), 6u);
  EXPECT_NE(report.checked[4].find("verifies with key 'prod-1'"), std::string::npos) << report.checked[4];

  request.key_id = "prod-2";
  report = signing::verify_envelope({e.data(), e.size()}, request);
  EXPECT_EQ(report.status, GRT_ERR_UNKNOWN_KEY);
  request.key_id.reset();
  request.minimum_model_version = 7;
  EXPECT_EQ(signing::verify_envelope({e.data(), e.size()}, request).status, GRT_ERR_MODEL_ROLLBACK);
  request.minimum_model_version = 0;
  request.public_key_pem = other_key().pair.public_key_pem;
  EXPECT_EQ(signing::verify_envelope({e.data(), e.size()}, request).status, GRT_ERR_SIGNATURE_INVALID);
}

TEST(Signing, VerifyRefusesAnEnvelopeWhoseModelDoesNotLoad) {
  const std::vector<uint8_t> not_a_model(64, 0xab);
  const tools::AlignedBytes e = signed_envelope(not_a_model, prod_key(), "prod-1", 6);
  signing::VerifyRequest request;
  request.public_key_pem = prod_key().pair.public_key_pem;
  const signing::VerifyReport report = signing::verify_envelope({e.data(), e.size()}, request);
  EXPECT_NE(report.status, GRT_OK);
  EXPECT_NE(report.message.find("does not load"), std::string::npos) << report.message;
}

}  // namespace
}  // namespace grt::test
