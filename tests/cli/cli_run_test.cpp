// graphrt run: inputs from files, outputs to files or stdout, strategies, profile, JSON,
// and every way the command line or the files can be wrong.
#include "cli_models.h"
#include "cli_runner.h"
#include "json_reader.h"
#include "test_models.h"

namespace grt::test {
namespace {

class CliRun : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    model_ = write_model("chain.grt", copy_chain(3));
    input_bytes_.resize(16);
    for (size_t i = 0; i < input_bytes_.size(); ++i) input_bytes_[i] = static_cast<uint8_t>(i * 7 - 40);
    write_bytes(path("x.bin"), input_bytes_);
    input_ = path("x.bin").string();
  }
  std::string model_;
  std::string input_;
  std::vector<uint8_t> input_bytes_;
};

TEST_F(CliRun, PrintsOutputsTimeAndMemory) {
  const CliResult r = run_graphrt({"run", model_, "--input", input_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // The chain copies its input: int8 values i*7-40.
  EXPECT_NE(r.out.find("output 0 'y' int8 [1, 16]: -40 -33 -26 -19 -12 -5 2 9 16 23 30 37 44 51 58 65\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("time per run: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(median of 1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("memory: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("strategy static"), std::string::npos) << r.out;
}

TEST_F(CliRun, EveryRepeatedRunStartsFromTheInitialState) {
  const std::string model = write_model("remembers.grt", remembers_last_input());
  write_bytes(path("nines.bin"), {9, 9, 9, 9});
  for (const std::string strategy : {"static", "page", "stack"}) {
    for (const char* repeat : {"1", "3"}) {
      const auto dir = path("out_" + strategy + repeat);
      const CliResult r = run_graphrt({"run", model, "--input", path("nines.bin").string(), "--output-dir", dir.string(), "--repeat",
                                       repeat, "--strategy", strategy});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(read_bytes(dir / "out0.bin"), (std::vector<uint8_t>{1, 2, 3, 4})) << strategy << " --repeat " << repeat;
    }
  }
}

TEST_F(CliRun, WritesOutputsUnderEveryStrategy) {
  for (const std::string strategy : {"static", "page", "stack", "heap"}) {
    const auto dir = path("out_" + strategy);
    const CliResult r = run_graphrt({"run", model_, "--input", input_, "--output-dir", dir.string(), "--strategy", strategy});
    ASSERT_EQ(r.exit_code, 0) << strategy << ": " << r.err;
    EXPECT_EQ(read_bytes(dir / "out0.bin"), input_bytes_) << strategy;
    EXPECT_NE(r.out.find("-> " + (dir / "out0.bin").string() + " (16 bytes)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("strategy " + strategy), std::string::npos) << r.out;
  }
}

TEST_F(CliRun, JsonReportsOutputPathsTimeAndPeakMemory) {
  const auto dir = path("out");
  const CliResult r = run_graphrt({"run", model_, "--input=" + input_, "--output-dir=" + dir.string(), "--json", "--repeat", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string error;
  auto doc = parse_json(r.out, &error);
  ASSERT_TRUE(doc) << error << "\n" << r.out;
  Json& j = *doc;
  ASSERT_EQ(j["outputs"].size(), 1u);
  EXPECT_EQ(j["outputs"][0]["path"], (dir / "out0.bin").string());
  EXPECT_EQ(j["outputs"][0]["name"], "y");
  EXPECT_EQ(j["outputs"][0]["bytes"], 16);
  EXPECT_EQ(j["runs"], 3);
  EXPECT_GT(j["time_per_run_ns"], 0);
  const grt_requirements req = requirements_of(copy_chain(3), GRT_STRATEGY_STATIC);
  EXPECT_EQ(j["peak_memory_bytes"], req.bookkeeping_bytes + req.pool_bytes[0]);
  EXPECT_EQ(j["memory"]["bookkeeping_bytes"], req.bookkeeping_bytes);
}

TEST_F(CliRun, JsonUnderStackStrategyCountsTheAllocatorBuffer) {
  const CliResult r = run_graphrt({"run", model_, "--input", input_, "--json", "--strategy", "stack"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string error;
  auto doc = parse_json(r.out, &error);
  ASSERT_TRUE(doc) << error;
  const grt_requirements req = requirements_of(copy_chain(3), GRT_STRATEGY_STACK);
  EXPECT_EQ((*doc)["memory"]["allocator_buffer_bytes"], req.allocator_bytes);
  EXPECT_EQ((*doc)["peak_memory_bytes"], req.bookkeeping_bytes + req.allocator_bytes);
  EXPECT_GT((*doc)["memory"]["allocator_peak_bytes"], 0);
  EXPECT_TRUE((*doc)["outputs"][0]["path"].is_null());  // nothing written without --output-dir
}

TEST_F(CliRun, PageStrategyUsesAPageAllocatorOfExactlyTheBudgetedSize) {
  for (const uint64_t page_size : {16u, 256u}) {
    const CliResult r = run_graphrt({"run", model_, "--input", input_, "--json", "--strategy", "page", "--page-size", std::to_string(page_size)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string error;
    auto doc = parse_json(r.out, &error);
    ASSERT_TRUE(doc) << error;
    const grt_page_budget budget = page_budget_of(copy_chain(3), page_size);
    EXPECT_EQ((*doc)["memory"]["allocator_buffer_bytes"], budget.buffer_bytes) << page_size;
    // Whole pages: the peak is the most pages live at once.
    EXPECT_EQ((*doc)["memory"]["allocator_peak_bytes"], budget.peak_pages * page_size) << page_size;
  }
}

TEST_F(CliRun, BadPageSizeIsAUsageError) {
  for (const char* page_size : {"100", "8", "big"}) {
    const CliResult r = run_graphrt({"run", model_, "--input", input_, "--strategy", "page", "--page-size", page_size});
    EXPECT_EQ(r.exit_code, 2) << page_size;
    EXPECT_TRUE(IsOneLineError(r, "run"));
    EXPECT_NE(r.err.find("--page-size: '" + std::string(page_size) + "'"), std::string::npos) << r.err;
  }
}

TEST_F(CliRun, ProfileListsEveryNodeAndEveryKernel) {
  const CliResult r = run_graphrt({"run", model_, "--input", input_, "--profile", "--repeat", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t per_node = r.out.find("profile per node");
  const size_t per_kernel = r.out.find("profile per kernel");
  ASSERT_NE(per_node, std::string::npos) << r.out;
  ASSERT_NE(per_kernel, std::string::npos) << r.out;
  // Nodes in order, each with its kernel, share and the 16 bytes it writes.
  size_t at = per_node;
  for (const char* node : {"copy0", "copy1", "copy2"}) {
    const size_t found = r.out.find(node, at);
    ASSERT_NE(found, std::string::npos) << node << "\n" << r.out;
    const std::string line = r.out.substr(found, r.out.find('\n', found) - found);
    EXPECT_NE(line.find("copy "), std::string::npos) << line;
    EXPECT_NE(line.find("%"), std::string::npos) << line;
    EXPECT_EQ(line.substr(line.size() - 3), " 16") << line;
    at = found;
  }
  const std::string kernels = r.out.substr(per_kernel);
  EXPECT_NE(kernels.find("copy "), std::string::npos) << kernels;
  EXPECT_NE(kernels.find(" 3 "), std::string::npos) << kernels;  // three nodes use copy
}

TEST_F(CliRun, WrongInputSizeNamesInputAndBothSizes) {
  write_bytes(path("short.bin"), std::vector<uint8_t>(15, 1));
  const CliResult r = run_graphrt({"run", model_, "--input", path("short.bin").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "run"));
  EXPECT_NE(r.err.find("short.bin: input 0 'x' needs 16 bytes, the file has 15"), std::string::npos) << r.err;
}

TEST_F(CliRun, WrongNumberOfInputsIsRefused) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"run", model_}, {"run", model_, "--input", input_, "--input", input_}}) {
    const CliResult r = run_graphrt(args);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(IsOneLineError(r, "run"));
    EXPECT_NE(r.err.find("has 1 input(s)"), std::string::npos) << r.err;
  }
}

TEST_F(CliRun, MissingInputFileIsNamed) {
  const CliResult r = run_graphrt({"run", model_, "--input", path("absent.bin").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "run"));
  EXPECT_NE(r.err.find("absent.bin: cannot open"), std::string::npos) << r.err;
}

TEST_F(CliRun, BadRepeatAndStrategyAreUsageErrors) {
  for (const char* repeat : {"abc", "0", "-1", "2.5", ""}) {
    const CliResult r = run_graphrt({"run", model_, "--input", input_, "--repeat", repeat});
    EXPECT_EQ(r.exit_code, 2) << repeat;
    EXPECT_TRUE(IsOneLineError(r, "run"));
    EXPECT_NE(r.err.find("--repeat: '" + std::string(repeat) + "' is not a whole number"), std::string::npos) << r.err;
  }
  const CliResult missing = run_graphrt({"run", model_, "--input", input_, "--repeat"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("option '--repeat' needs a value"), std::string::npos) << missing.err;
  const CliResult strategy = run_graphrt({"run", model_, "--input", input_, "--strategy", "pool"});
  EXPECT_EQ(strategy.exit_code, 2);
  EXPECT_NE(strategy.err.find("--strategy: 'pool' is not one of static, page, stack, heap"), std::string::npos) << strategy.err;
}

TEST_F(CliRun, GarbageModelSaysWhatIsWrongWithIt) {
  std::vector<uint8_t> tflite(64, 0);
  const char id[] = "TFL3";
  std::copy(id, id + 4, tflite.begin() + 4);
  write_bytes(path("model.grt"), tflite);
  const CliResult r = run_graphrt({"run", path("model.grt").string(), "--input", input_});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "run"));
  EXPECT_NE(r.err.find("model.grt: not a graphrt model: file identifier is 'TFL3', expected 'GRT1'"), std::string::npos) << r.err;
}

TEST_F(CliRun, TruncatedModelIsRefused) {
  std::vector<uint8_t> blob = tools::serialize(copy_chain(3));
  blob.resize(blob.size() - 9);
  write_bytes(path("cut.grt"), blob);
  const CliResult r = run_graphrt({"run", path("cut.grt").string(), "--input", input_});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "run"));
  EXPECT_NE(r.err.find("cut.grt: "), std::string::npos) << r.err;
}

TEST_F(CliRun, UnregisteredKernelFailsAtInit) {
  tools::ModelDef def = copy_chain(1);
  def.kernels[0] = "no_such_kernel";
  const CliResult r = run_graphrt({"run", write_model("k.grt", def), "--input", input_});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "run"));
  EXPECT_NE(r.err.find("no_such_kernel"), std::string::npos) << r.err;
}

TEST_F(CliRun, NoProgressNoiseWhenStderrIsNotATerminal) {
  const CliResult r = run_graphrt({"run", model_, "--input", input_, "--repeat", "2000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("(median of 2000)"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace grt::test
