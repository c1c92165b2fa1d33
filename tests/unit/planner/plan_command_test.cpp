// `graphrt plan`: exit codes (0 planned, 1 failure, 2 usage), the written blob loads and
// runs, and the report formats.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "commands.h"
#include "graphrt/tools/planner.h"
#include "plan_checks.h"
#include "test_models.h"

namespace grt::test {
namespace {

namespace fs = std::filesystem;

class PlanCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("grt_plan_command_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                        "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    tools::ModelDef m = random_copy_model(11);
    tools::plan_default(&m);
    write(input(), tools::serialize(m));
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string input() const { return (dir_ / "in.grt").string(); }
  std::string output() const { return (dir_ / "out.grt").string(); }
  static void write(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  static std::vector<uint8_t> read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
  }

  fs::path dir_;
};

TEST_F(PlanCommand, WritesABlobTheRuntimeLoads) {
  ::testing::internal::CaptureStdout();
  const int code = run_plan_command({input(), "--algorithm", "search", "-o", output()});
  const std::string out = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(code, 0);
  EXPECT_NE(out.find("lower bound"), std::string::npos) << out;
  const tools::AlignedBytes blob(read(output()));
  StaticRun run(blob);
  EXPECT_EQ(run.status, GRT_OK) << run.error.message;
}

TEST_F(PlanCommand, PoolsFromTheCommandLine) {
  ::testing::internal::CaptureStdout();
  const int code = run_plan_command({input(), "--pool", "tcm:256:fast", "--pool", "ram:0:sram:32", "-o", output()});
  ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(code, 0);
  const std::vector<uint8_t> bytes = read(output());
  tools::ModelDef m;
  std::string error;
  ASSERT_TRUE(tools::parse(bytes.data(), bytes.size(), &m, &error)) << error;
  ASSERT_EQ(m.pools.size(), 2u);
  EXPECT_EQ(m.pools[0].name, "tcm");
  EXPECT_EQ(m.pools[0].placement, "fast");
  EXPECT_LE(m.pools[0].size, 256u);
  EXPECT_EQ(m.pools[1].alignment, 32u);
  const tools::AlignedBytes blob(bytes);
  StaticRun run(blob);
  EXPECT_EQ(run.status, GRT_OK) << run.error.message;
}

TEST_F(PlanCommand, JsonAndReport) {
  ::testing::internal::CaptureStdout();
  ASSERT_EQ(run_plan_command({input(), "--json"}), 0);
  const std::string json = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(json.front(), '{');
  EXPECT_NE(json.find("\"sizes\":{\"greedy_by_size\":"), std::string::npos) << json;
  ::testing::internal::CaptureStdout();
  ASSERT_EQ(run_plan_command({input(), "--report"}), 0);
  const std::string text = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(text.find("greedy_by_conflicts"), std::string::npos) << text;
  EXPECT_NE(text.find("tensor 0 'x'"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists(output()));
}

TEST_F(PlanCommand, UsageErrorsExitTwo) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run_plan_command({input(), "--algorithm", "fastest"}), 2);
  EXPECT_EQ(run_plan_command({input(), "--pool", "nocapacity"}), 2);
  EXPECT_EQ(run_plan_command({input(), "--pool", "p:12:x:3:extra"}), 2);
  EXPECT_EQ(run_plan_command({input(), "--json", "--report"}), 2);
  EXPECT_EQ(run_plan_command({}), 2);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("fastest"), std::string::npos) << err;
}

TEST_F(PlanCommand, FailuresExitOne) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run_plan_command({(dir_ / "missing.grt").string()}), 1);
  EXPECT_EQ(run_plan_command({input(), "--pool", "tiny:16", "--pool", "small:32"}), 1);
  write(output(), {1, 2, 3, 4, 5, 6, 7, 8, 9});
  EXPECT_EQ(run_plan_command({output()}), 1);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("fits in no pool"), std::string::npos) << err;
}

}  // namespace
}  // namespace grt::test
