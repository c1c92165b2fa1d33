// graphrt import's memory options on a real model: --in-place, --inputs-outside and
// --memory-budget each give a blob that loads, runs TFLM's cases byte for byte and is as
// small as promised; inspect --json says whether inputs are outside; a budget nothing
// reaches fails with one line naming the smallest figure.
#include <string>
#include <vector>

#include "cli_runner.h"
#include "json_reader.h"
#include "zoo.h"

namespace grt::test {
namespace {

using CliMemoryOptions = CliTest;

// The blob's pools from inspect --json: all of them, and those besides the caller's inputs pool.
struct Pools {
  uint64_t total = 0;
  uint64_t besides_inputs = 0;
  bool inputs_outside = false;
  std::string producer;
};

Pools inspect_pools(const std::string& model) {
  const CliResult r = run_graphrt({"inspect", model, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string error;
  auto doc = parse_json(r.out, &error);
  EXPECT_TRUE(doc) << error;
  Pools p;
  if (!doc) return p;
  for (auto& pool : (*doc)["pools"]) {
    const uint64_t size = pool["size_bytes"].get<uint64_t>();
    p.total += size;
    if (pool["name"] != "inputs") p.besides_inputs += size;
  }
  p.inputs_outside = (*doc)["inputs_outside"].get<bool>();
  p.producer = (*doc)["producer"].get<std::string>();
  return p;
}

// Runs TFLM's first two cases of `name` on the blob and compares the outputs.
// `work`: the test's directory, where each run writes its outputs.
void expect_golden_outputs(const std::filesystem::path& work, const std::filesystem::path& zoo, const std::string& name,
                           const std::string& model) {
  const auto golden = zoo / "golden" / name;
  for (int k = 1; k <= 2; ++k) {
    const std::string stem = "case" + std::to_string(k);
    const auto dir = work / (stem + "_" + std::filesystem::path(model).stem().string());
    const CliResult r = run_graphrt({"run", model, "--input", (golden / (stem + ".in0.bin")).string(), "--output-dir", dir.string()});
    ASSERT_EQ(r.exit_code, 0) << model << " " << stem << ": " << r.err;
    EXPECT_EQ(read_bytes(dir / "out0.bin"), read_bytes(golden / (stem + ".out0.bin"))) << model << " " << stem;
  }
}

TEST_F(CliMemoryOptions, InPlaceIsNoLargerAndRunsLikeTflm) {
  GRT_REQUIRE_ZOO(zoo);
  const auto tflite = (zoo / "models" / "mlperf_kws_dscnn_int8.tflite").string();
  const std::string plain = path("plain.grt").string();
  const std::string in_place = path("in_place.grt").string();
  ASSERT_EQ(run_graphrt({"import", tflite, "-o", plain}).exit_code, 0);
  const CliResult r = run_graphrt({"import", tflite, "-o", in_place, "--in-place"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LE(inspect_pools(in_place).total, inspect_pools(plain).total);
  expect_golden_outputs(path(""), zoo, "mlperf_kws_dscnn_int8", in_place);
}

TEST_F(CliMemoryOptions, InputsOutsideGetAPoolOfTheirOwnThatInspectNames) {
  GRT_REQUIRE_ZOO(zoo);
  const auto tflite = (zoo / "models" / "person_detect.tflite").string();
  const std::string plain = path("plain.grt").string();
  const std::string outside = path("outside.grt").string();
  ASSERT_EQ(run_graphrt({"import", tflite, "-o", plain}).exit_code, 0);
  const CliResult r = run_graphrt({"import", tflite, "-o", outside, "--inputs-outside"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Pools p = inspect_pools(plain);
  const Pools o = inspect_pools(outside);
  EXPECT_FALSE(p.inputs_outside);
  EXPECT_TRUE(o.inputs_outside);
  EXPECT_EQ(o.total - o.besides_inputs, 96u * 96u);  // the 96x96 grey image, alone in its pool
  EXPECT_LE(o.besides_inputs, p.total);
  expect_golden_outputs(path(""), zoo, "person_detect", outside);
}

TEST_F(CliMemoryOptions, MemoryBudgetTakesBandsOnlyWhenNeeded) {
  GRT_REQUIRE_ZOO(zoo);
  const auto tflite = (zoo / "models" / "person_detect.tflite").string();
  const std::string plain = path("plain.grt").string();
  ASSERT_EQ(run_graphrt({"import", tflite, "-o", plain}).exit_code, 0);
  const Pools p = inspect_pools(plain);

  // A budget the plain plan meets: the same plan, no bands.
  const std::string roomy = path("roomy.grt").string();
  ASSERT_EQ(run_graphrt({"import", tflite, "-o", roomy, "--memory-budget", std::to_string(p.total)}).exit_code, 0);
  EXPECT_EQ(inspect_pools(roomy).total, p.total);
  EXPECT_EQ(read_bytes(roomy), read_bytes(plain));

  // Three quarters of it: bands, within the budget, still TFLM's outputs.
  const uint64_t budget = p.total * 3 / 4;
  const std::string tight = path("tight.grt").string();
  const CliResult r = run_graphrt({"import", tflite, "-o", tight, "--memory-budget", std::to_string(budget)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Pools t = inspect_pools(tight);
  EXPECT_LE(t.total, budget);
  EXPECT_NE(t.producer.find("cut into bands"), std::string::npos) << t.producer;
  expect_golden_outputs(path(""), zoo, "person_detect", tight);
}

// KWS, not person_detect: an unreachable budget makes the CLI search every rung of the ladder,
// which takes minutes on person_detect under the sanitizers.
TEST_F(CliMemoryOptions, AnUnreachableBudgetNamesTheSmallestFigure) {
  GRT_REQUIRE_ZOO(zoo);
  const auto tflite = (zoo / "models" / "mlperf_kws_dscnn_int8.tflite").string();
  const std::string out = path("never.grt").string();
  const CliResult r = run_graphrt({"import", tflite, "-o", out, "--memory-budget", "1000"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--memory-budget 1000: the smallest plan reachable needs "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" nodes, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("% extra MACs, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" bytes of kept rows moved)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;  // one line
  EXPECT_FALSE(std::filesystem::exists(out));
  const CliResult bad = run_graphrt({"import", tflite, "-o", out, "--memory-budget", "lots"});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--memory-budget: 'lots' is not a whole number of bytes"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace grt::test
