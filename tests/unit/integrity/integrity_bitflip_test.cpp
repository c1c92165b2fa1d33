// Every single-bit flip of a small signed envelope, header and model alike, is refused, by
// the in-memory and by the streaming check, with the same status.
#include <gtest/gtest.h>

#include <map>

#include "integrity_fixture.h"

namespace grt::test {
namespace {

TEST(EnvelopeBitFlips, EveryFlipIsRefused) {
  const tools::AlignedBytes original = signed_envelope(small_model(2), prod_key(), "prod-1", 7);
  const grt_trust_config* trust = standard_trust().get();
  ASSERT_EQ(open_envelope(original, trust).status, GRT_OK);
  tools::AlignedBytes flipped(original.size());
  std::map<std::string, int> by_status;  // for the failure message: what refused the flips
  for (size_t bit = 0; bit < original.size() * 8; ++bit) {
    std::memcpy(flipped.data(), original.data(), original.size());
    flipped.data()[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    const Verdict v = open_envelope(flipped, trust);
    ASSERT_NE(v.status, GRT_OK) << "flip of byte " << bit / 8 << " bit " << bit % 8 << " was accepted";
    ASSERT_EQ(v.model, nullptr);
    // The stream is slower, so it sees every flip of the header and a sample of the model.
    if (bit < GRT_ENVELOPE_HEADER_SIZE * 8 || bit % 13 == 0) {
      const Verdict s = stream_envelope(flipped.data(), flipped.size(), trust, 7);
      ASSERT_EQ(s.status, v.status) << "byte " << bit / 8 << " bit " << bit % 8 << ": " << s.message << " / " << v.message;
    }
    ++by_status[grt_status_name(v.status)];
  }
  // Flips of the model and header fields break the digest, of the signature the signature.
  EXPECT_GT(by_status["GRT_ERR_DIGEST_MISMATCH"], 0);
  EXPECT_GT(by_status["GRT_ERR_SIGNATURE_INVALID"], 0);
  EXPECT_GT(by_status["GRT_ERR_ENVELOPE_MALFORMED"], 0);
}

TEST(EnvelopeBitFlips, UnsignedEnvelopeFlipsAreRefusedToo) {
  const tools::AlignedBytes original = unsigned_envelope(small_model(1), 2);
  ASSERT_EQ(open_envelope(original, nullptr).status, GRT_OK);
  tools::AlignedBytes flipped(original.size());
  for (size_t bit = 0; bit < original.size() * 8; ++bit) {
    std::memcpy(flipped.data(), original.data(), original.size());
    flipped.data()[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    const Verdict v = open_envelope(flipped, nullptr);
    ASSERT_NE(v.status, GRT_OK) << "flip of byte " << bit / 8 << " bit " << bit % 8 << " was accepted";
  }
}

}  // namespace
}  // namespace grt::test
