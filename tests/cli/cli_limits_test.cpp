// What the command line spends on one input: files are read up to --max-input-bytes (pipes
// and devices too), a blob's memory is checked against --max-memory before it is allocated,
// every command refuses what the loader refuses before anything else, and --symbol refuses
// names that would not compile.
#include <chrono>

#include "cli_runner.h"
#include "test_models.h"

namespace grt::test {
namespace {

using CliLimits = CliTest;

constexpr uint64_t kPoolOf16GiB = uint64_t{1} << 34;

// copy_chain(2) whose one pool claims 16 GiB: the loader accepts it (a pool may be larger
// than its slots need), so only the CLI's memory limit stands between it and the host.
tools::ModelDef pool_of_16_gib() {
  tools::ModelDef def = copy_chain(2);
  def.pools[0].size = kPoolOf16GiB;
  return def;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST_F(CliLimits, RunRefusesAPoolPastTheMemoryLimitByNameAndNumbersBeforeAllocating) {
  const std::string model = write_model("big.grt", pool_of_16_gib());
  write_bytes(path("x.bin"), std::vector<uint8_t>(16, 1));
  const auto start = std::chrono::steady_clock::now();
  const CliResult r = run_graphrt({"run", model, "--input", path("x.bin").string()});
  EXPECT_LT(seconds_since(start), 5.0) << "zero-filled 16 GiB first?";
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "run"));
  EXPECT_NE(r.err.find("pool 'activations' needs 17179869184 B (16.0 GiB)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("past the host memory limit of 1073741824 B"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max-memory"), std::string::npos) << r.err;
  // The stack strategy does not use the plan's pools: the same blob runs in a few bytes.
  EXPECT_EQ(run_graphrt({"run", model, "--input", path("x.bin").string(), "--strategy", "stack"}).exit_code, 0);
}

TEST_F(CliLimits, MaxMemoryLowersAndRaisesTheLimit) {
  const std::string model = write_model("chain.grt", copy_chain(2));
  write_bytes(path("x.bin"), std::vector<uint8_t>(16, 1));
  const std::string input = path("x.bin").string();
  EXPECT_EQ(run_graphrt({"run", model, "--input", input}).exit_code, 0);
  for (const std::string strategy : {"static", "page", "stack", "heap"}) {
    const CliResult r = run_graphrt({"run", model, "--input", input, "--strategy", strategy, "--max-memory", "64"});
    EXPECT_EQ(r.exit_code, 1) << strategy << ": " << r.out;
    EXPECT_NE(r.err.find("past the host memory limit of 64 B"), std::string::npos) << strategy << ": " << r.err;
  }
  const CliResult bench = run_graphrt({"bench", "dispatch", "--nodes", "10", "--batches", "1", "--max-memory", "64"});
  EXPECT_EQ(bench.exit_code, 1);
  EXPECT_NE(bench.err.find("past the host memory limit of 64 B"), std::string::npos) << bench.err;
  const CliResult bad = run_graphrt({"run", model, "--input", input, "--max-memory", "lots"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--max-memory: 'lots' is not a whole number"), std::string::npos) << bad.err;
}

TEST_F(CliLimits, EveryCommandReadsAtMostMaxInputBytes) {
  const std::string model = write_model("chain.grt", copy_chain(2));
  const std::vector<std::vector<std::string>> commands = {
      {"inspect", model},
      {"plan", model},
      {"bin2c", model, "--symbol", "m"},
      {"kernels", model, "--symbol", "k"},
      {"sign", model, "--key", model, "--key-id", "k", "--model-version", "1", "-o", path("s.grt").string()},
      {"verify", model, "--pubkey", model},
      {"import", model, "-o", path("o.grt").string()},
  };
  for (std::vector<std::string> command : commands) {
    command.push_back("--max-input-bytes");
    command.push_back("100");
    const CliResult r = run_graphrt(command);
    EXPECT_EQ(r.exit_code, 1) << command[0] << ": " << r.err;
    EXPECT_TRUE(IsOneLineError(r, command[0]));
    EXPECT_NE(r.err.find("chain.grt: more than 100 bytes, the input limit (raise it with --max-input-bytes)"), std::string::npos)
        << command[0] << ": " << r.err;
  }
}

TEST_F(CliLimits, RunReadsInputFilesUpToTheLimit) {
  const std::string model = write_model("chain.grt", copy_chain(2));
  write_bytes(path("x.bin"), std::vector<uint8_t>(1000000, 1));
  const CliResult r = run_graphrt({"run", model, "--input", path("x.bin").string(), "--max-input-bytes", "100000"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("x.bin: more than 100000 bytes"), std::string::npos) << r.err;  // the model fits, the input does not
  const CliResult read = run_graphrt({"run", model, "--input", path("x.bin").string()});
  EXPECT_NE(read.err.find("needs 16 bytes, the file has 1000000"), std::string::npos) << read.err;
}

TEST_F(CliLimits, DevicesAndPipesStopAtTheDefaultLimit) {
  const auto start = std::chrono::steady_clock::now();
  const CliResult zero = run_graphrt({"inspect", "/dev/zero"});
  EXPECT_LT(seconds_since(start), 10.0);
  EXPECT_EQ(zero.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(zero, "inspect"));
  EXPECT_NE(zero.err.find("/dev/zero: more than 268435456 bytes, the input limit"), std::string::npos) << zero.err;

  const CliResult pipe = run_program("/bin/sh", {"-c", "head -c 5000 /dev/zero | \"$0\" inspect /dev/stdin --max-input-bytes 4096", GRT_CLI_BINARY});
  EXPECT_EQ(pipe.exit_code, 1);
  EXPECT_NE(pipe.err.find("/dev/stdin: more than 4096 bytes"), std::string::npos) << pipe.err;
}

TEST_F(CliLimits, PlanRefusesWhatTheLoaderRefusesInsteadOfReplanningIt) {
  tools::ModelDef def = copy_chain(2);
  def.pools[0].size = 1;  // the loader refuses it; planning it again would have "fixed" it
  const CliResult r = run_graphrt({"plan", write_model("small.grt", def), "-o", path("out.grt").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "plan"));
  EXPECT_NE(r.err.find("small.grt: "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("planned blob"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(path("out.grt")));
}

TEST_F(CliLimits, SymbolsThatWouldNotCompileAreRefused) {
  const std::string model = write_model("chain.grt", copy_chain(2));
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"int", "C keyword"},        {"static", "C keyword"},    {"_Bool", "starts with '_'"}, {"_model", "starts with '_'"},
      {"__x", "starts with '_'"},  {"a__b", "contains '__'"}, {"size_t", "stddef.h"},       {"NULL", "stddef.h"},
      {"constexpr", "C keyword"},  {"typeof", "C keyword"},
  };
  for (const char* command : {"bin2c", "kernels"}) {
    for (const auto& [symbol, reason] : refused) {
      const CliResult r = run_graphrt({command, model, "--symbol", symbol});
      EXPECT_EQ(r.exit_code, 2) << command << " " << symbol;
      EXPECT_NE(r.err.find("--symbol: '" + symbol + "' "), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
    }
    EXPECT_EQ(run_graphrt({command, model, "--symbol", "my_model_2"}).exit_code, 0) << command;
  }
}

}  // namespace
}  // namespace grt::test
