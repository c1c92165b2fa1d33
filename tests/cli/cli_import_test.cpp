// graphrt import: a real TensorFlow Lite model through import, inspect and run, compared
// byte for byte with TensorFlow Lite Micro's outputs; and the ways import refuses.
#include "cli_runner.h"
#include "json_reader.h"
#include "zoo.h"

namespace grt::test {
namespace {

using CliImport = CliTest;

TEST_F(CliImport, HelloWorldImportsInspectsAndRunsLikeTflm) {
  GRT_REQUIRE_ZOO(zoo);
  const auto tflite = zoo / "models" / "hello_world_int8.tflite";
  const auto golden = zoo / "golden" / "hello_world_int8";
  const std::string model = path("hello_world_int8.grt").string();
  const CliResult imported = run_graphrt({"import", tflite.string(), "-o", model});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;

  const CliResult inspected = run_graphrt({"inspect", model, "--json"});
  ASSERT_EQ(inspected.exit_code, 0) << inspected.err;
  std::string error;
  auto doc = parse_json(inspected.out, &error);
  ASSERT_TRUE(doc) << error;
  EXPECT_EQ((*doc)["name"], "hello_world_int8");  // the file's stem
  EXPECT_GE((*doc)["pools"][0]["size_bytes"], (*doc)["lower_bound_bytes"]);
  EXPECT_FALSE((*doc)["nodes"].empty());

  int cases = 0;
  for (int k = 1; std::filesystem::exists(golden / ("case" + std::to_string(k) + ".in0.bin")); ++k, ++cases) {
    const std::string stem = "case" + std::to_string(k);
    for (const std::string strategy : {"static", "page", "stack", "heap"}) {
      const auto dir = path(stem + "_" + strategy);
      const CliResult r = run_graphrt({"run", model, "--input", (golden / (stem + ".in0.bin")).string(), "--output-dir", dir.string(),
                                       "--strategy", strategy});
      ASSERT_EQ(r.exit_code, 0) << stem << " " << strategy << ": " << r.err;
      EXPECT_EQ(read_bytes(dir / "out0.bin"), read_bytes(golden / (stem + ".out0.bin"))) << stem << " under " << strategy;
    }
  }
  EXPECT_GT(cases, 0) << "no golden cases in " << golden;
}

TEST_F(CliImport, EveryAlgorithmGivesARunnableBlob) {
  GRT_REQUIRE_ZOO(zoo);
  const auto tflite = zoo / "models" / "hello_world_int8.tflite";
  for (const std::string algorithm : {"greedy_by_size", "greedy_by_conflicts", "search", "best"}) {
    const std::string model = path(algorithm + ".grt").string();
    const CliResult r = run_graphrt({"import", tflite.string(), "-o", model, "--algorithm", algorithm});
    ASSERT_EQ(r.exit_code, 0) << algorithm << ": " << r.err;
    const CliResult inspected = run_graphrt({"inspect", model});
    EXPECT_EQ(inspected.exit_code, 0) << inspected.err;
    EXPECT_NE(inspected.out.find("producer: graphrt import"), std::string::npos) << inspected.out;
    EXPECT_NE(inspected.out.find("(" + algorithm + ")"), std::string::npos) << inspected.out;
  }
}

// Refusals (operators graphrt does not know, or variants it does not convert) are one-line
// errors naming the operator: CliRefusals in cli_operators_test.cpp, no zoo needed. Every zoo
// model imports since integer LSTM converts.

TEST_F(CliImport, CommandLineMistakesAreUsageErrors) {
  const CliResult no_output = run_graphrt({"import", "m.tflite"});
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_TRUE(IsOneLineError(no_output, "import"));
  EXPECT_NE(no_output.err.find("-o OUT.grt is required"), std::string::npos) << no_output.err;
  const CliResult algorithm = run_graphrt({"import", "m.tflite", "-o", "x.grt", "--algorithm", "magic"});
  EXPECT_EQ(algorithm.exit_code, 2);
  EXPECT_NE(algorithm.err.find("--algorithm: 'magic' is not one of"), std::string::npos) << algorithm.err;
}

TEST_F(CliImport, GarbageAndMissingInputsFailWithoutWriting) {
  write_bytes(path("junk.tflite"), std::vector<uint8_t>(40, 0x11));
  const std::string out = path("out.grt").string();
  const CliResult junk = run_graphrt({"import", path("junk.tflite").string(), "-o", out});
  EXPECT_EQ(junk.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(junk, "import"));
  EXPECT_NE(junk.err.find("junk.tflite: "), std::string::npos) << junk.err;
  const CliResult missing = run_graphrt({"import", path("absent.tflite").string(), "-o", out});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("absent.tflite: cannot open"), std::string::npos) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace grt::test
