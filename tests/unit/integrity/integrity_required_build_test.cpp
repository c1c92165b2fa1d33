// Firmware built with GRT_INTEGRITY_REQUIRE_SIGNATURE=1 refuses unsigned envelopes even
// when its trust configuration would allow them. This executable links the runtime's
// build-policy file compiled with that option (see CMakeLists.txt).
#include <gtest/gtest.h>

#include "integrity_fixture.h"

namespace grt::test {
namespace {

TEST(EnvelopeRequiredByBuild, UnsignedIsRefusedWhateverTheTrustSays) {
  const tools::AlignedBytes envelope = unsigned_envelope(small_model(), 1);
  const Verdict none = open_envelope(envelope, nullptr);
  EXPECT_EQ(none.status, GRT_ERR_SIGNATURE_MISSING);
  EXPECT_EQ(none.message, "signature required (by this build) but absent");
  const Trust lenient({{"prod-1", &prod_key()}}, false, 0);
  EXPECT_EQ(open_envelope(envelope, lenient.get()).status, GRT_ERR_SIGNATURE_MISSING);
  EXPECT_EQ(stream_envelope(envelope.data(), envelope.size(), lenient.get(), 7).status, GRT_ERR_SIGNATURE_MISSING);
}

TEST(EnvelopeRequiredByBuild, SignedIsStillAccepted) {
  const Trust lenient({{"prod-1", &prod_key()}}, false, 0);
  const tools::AlignedBytes envelope = signed_envelope(small_model(), prod_key(), "prod-1", 1);
  EXPECT_EQ(open_envelope(envelope, lenient.get()).status, GRT_OK);
}

}  // namespace
}  // namespace grt::test
