// Thousands of random multi-byte corruptions of a large signed model are all refused, by
// both forms of the check. The model is a real one from the zoo when the importer can read
// it (GRT_INTEGRITY_REAL_MODEL), else a builder model with a large constant.
#include <gtest/gtest.h>

#include <random>

#include "integrity_fixture.h"

#if GRT_INTEGRITY_REAL_MODEL
#include <fstream>
#include <iterator>

#include "graphrt/tools/importer.h"
#include "graphrt/tools/planner.h"
#include "zoo.h"
#endif

namespace grt::test {
namespace {

// Overwrites 1 to 16 bytes, scattered or in one run, each with a different value.
void corrupt(std::mt19937_64& random, tools::AlignedBytes* bytes) {
  std::uniform_int_distribution<size_t> position(0, bytes->size() - 1);
  std::uniform_int_distribution<int> count(1, 16);
  std::uniform_int_distribution<int> nonzero(1, 255);
  const int n = count(random);
  const bool run = random() % 2 == 0;
  size_t at = position(random);
  for (int i = 0; i < n; ++i) {
    const size_t where = run ? (at + static_cast<size_t>(i)) % bytes->size() : position(random);
    bytes->data()[where] = static_cast<uint8_t>(bytes->data()[where] ^ nonzero(random));
  }
}

void expect_all_corruptions_refused(const std::vector<uint8_t>& model, int rounds) {
  const tools::AlignedBytes original = signed_envelope(model, prod_key(), "prod-1", 11);
  const grt_trust_config* trust = standard_trust().get();
  const Verdict good = open_envelope(original, trust);
  ASSERT_EQ(good.status, GRT_OK) << good.message;
  std::mt19937_64 random(20240611);
  tools::AlignedBytes damaged(original.size());
  for (int round = 0; round < rounds; ++round) {
    std::memcpy(damaged.data(), original.data(), original.size());
    corrupt(random, &damaged);
    if (std::memcmp(damaged.data(), original.data(), original.size()) == 0) continue;  // xor cancelled out
    const Verdict v = open_envelope(damaged, trust);
    ASSERT_NE(v.status, GRT_OK) << "corruption round " << round << " was accepted";
    if (round % 100 == 0) {
      const size_t chunk = 1 + random() % 5000;
      EXPECT_EQ(stream_envelope(damaged.data(), damaged.size(), trust, chunk).status, v.status) << "round " << round;
    }
  }
}

TEST(EnvelopeCorruption, RandomCorruptionsOfALargeBuilderModelAreRefused) {
  const std::vector<uint8_t> model = large_model(256 * 1024);
  ASSERT_GT(model.size(), 256u * 1024);
  expect_all_corruptions_refused(model, 3000);
}

#if GRT_INTEGRITY_REAL_MODEL
TEST(EnvelopeCorruption, RandomCorruptionsOfARealModelAreRefused) {
  GRT_REQUIRE_ZOO(zoo);
  std::ifstream file(zoo / "models" / "person_detect.tflite", std::ios::binary);
  ASSERT_TRUE(file) << "person_detect.tflite missing from the zoo";
  const std::vector<uint8_t> tflite((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &def);
  if (!imported.ok) GTEST_SKIP() << "the importer cannot read person_detect yet: " << imported.error;
  tools::plan_default(&def);
  expect_all_corruptions_refused(tools::serialize(def), 2000);
}
#endif

}  // namespace
}  // namespace grt::test
