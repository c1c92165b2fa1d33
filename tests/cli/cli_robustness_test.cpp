// The reproducers of zoo/robustness, run as their README runs them: each is refused with
// one line and exit status 1, quickly, where before it overflowed, aborted or took
// gigabytes and seconds.
#include <chrono>

#include "cli_runner.h"
#include "zoo.h"

namespace grt::test {
namespace {

using CliRobustness = CliTest;

struct Reproducer {
  std::vector<std::string> args;  // "{R}" is the robustness folder, "{G}" golden/, "{T}" the scratch folder
  std::string says;               // a part of the one-line refusal
};

std::string expand(std::string text, const std::filesystem::path& zoo, const std::filesystem::path& scratch) {
  const std::pair<std::string, std::string> names[] = {
      {"{R}", (zoo / "robustness").string()}, {"{G}", (zoo / "golden").string()}, {"{T}", scratch.string()}};
  for (const auto& [name, value] : names) {
    if (const size_t at = text.find(name); at != std::string::npos) text.replace(at, name.size(), value);
  }
  return text;
}

TEST_F(CliRobustness, ReproducersAreRefusedInOneLineQuickly) {
  GRT_REQUIRE_ZOO(zoo);
  if (!std::filesystem::exists(zoo / "robustness")) GTEST_SKIP() << zoo / "robustness" << " is absent";
  const std::string kws_input = "{G}/mlperf_kws_dscnn_int8/case1.in0.bin";
  const std::vector<Reproducer> reproducers = {
      // The loader refuses it: plan must not plan it (the planner overflowed on 2^63).
      {{"plan", "{R}/plan_ws2e63.grt"}, "workspace of 9223372036854775808 bytes"},
      {{"run", "{R}/pool2e40.grt", "--input", kws_input}, "past the host memory limit"},
      {{"run", "{R}/pool2e34.grt", "--input", kws_input}, "past the host memory limit"},
      {{"import", "{R}/import_w40.tflite", "-o", "{T}/w40.grt"}, "graphrt's kernels take at most 2147483647"},
      {{"import", "{R}/import_dim_2e31.tflite", "-o", "{T}/dim.grt"}, "graphrt's kernels take at most 2147483647"},
      // Refused cheaply even when the memory limit would allow the pools.
      {{"import", "{R}/import_w40.tflite", "-o", "{T}/w40.grt", "--max-memory", "1000000000000"}, "at most 2147483647"},
  };
  for (const Reproducer& reproducer : reproducers) {
    std::vector<std::string> args;
    for (const std::string& a : reproducer.args) args.push_back(expand(a, zoo, dir_));
    const auto start = std::chrono::steady_clock::now();
    const CliResult r = run_graphrt(args);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.exit_code, 1) << args[1] << ": " << r.err;
    EXPECT_TRUE(IsOneLineError(r, args[0])) << args[1];
    EXPECT_NE(r.err.find(reproducer.says), std::string::npos) << args[1] << ": " << r.err;
    EXPECT_LT(seconds, 5.0) << args[1];  // under 0.01 s on the build machine; generous for sanitizers
  }
}

}  // namespace
}  // namespace grt::test
