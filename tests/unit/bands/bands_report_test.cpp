// `graphrt plan --report` and `--json` show the plan with bands beside the bound and the
// in-place plan: smaller than the plain plan on a chain bands can cut, with the halos'
// extra MACs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "band_chain_model.h"
#include "commands.h"
#include "graphrt/tools/memory_plan.h"

namespace grt::test {
namespace {

namespace fs = std::filesystem;

std::string planned_blob_file() {
  tools::ModelDef m = band_chain_model();
  std::string error;
  EXPECT_TRUE(tools::plan_model(&m, tools::PlanOptions{}, nullptr, &error)) << error;
  const std::vector<uint8_t> bytes = tools::serialize(m);
  const fs::path path = fs::temp_directory_path() / ("grt_bands_report_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".grt");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

TEST(BandsReport, TextShowsTheBandPlanAndItsExtraMacs) {
  const std::string input = planned_blob_file();
  ::testing::internal::CaptureStdout();
  ASSERT_EQ(run_plan_command({input, "--report"}), 0);
  const std::string text = ::testing::internal::GetCapturedStdout();
  fs::remove(input);
  EXPECT_NE(text.find("plan with bands"), std::string::npos) << text;
  EXPECT_NE(text.find(" cut into bands, "), std::string::npos) << text;
  EXPECT_EQ(text.find("(1 chains"), std::string::npos) << text;
  EXPECT_NE(text.find(" nodes instead of 6; halos "), std::string::npos) << text;
  EXPECT_NE(text.find(" % extra MACs, "), std::string::npos) << text;
  EXPECT_NE(text.find(" bytes of kept rows moved; ratio to the bound "), std::string::npos) << text;
}

TEST(BandsReport, JsonBandPlanIsSmallerWithinFifteenPercent) {
  const std::string input = planned_blob_file();
  ::testing::internal::CaptureStdout();
  ASSERT_EQ(run_plan_command({input, "--json"}), 0);
  const std::string text = ::testing::internal::GetCapturedStdout();
  fs::remove(input);
  const auto j = nlohmann::json::parse(text);
  ASSERT_TRUE(j.contains("band_size")) << text;
  EXPECT_LT(j["band_size"].get<uint64_t>(), j["plain_size"].get<uint64_t>()) << text;
  EXPECT_GE(j["band_chains"].get<uint64_t>(), 1u) << text;
  EXPECT_LE(j["band_extra_macs_percent"].get<double>(), 15.0) << text;
  EXPECT_GE(j["band_extra_macs_percent"].get<double>(), 0.0) << text;
  EXPECT_TRUE(j.contains("band_copied_bytes")) << text;
  EXPECT_EQ(j["plain_nodes"].get<uint64_t>(), 6u) << text;
  EXPECT_GT(j["band_nodes"].get<uint64_t>(), 6u) << text;
}

}  // namespace
}  // namespace grt::test
