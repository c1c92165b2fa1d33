// graphrt bench dispatch: runs and reports nanoseconds per node.
#include <cstdlib>

#include "cli_runner.h"

namespace grt::test {
namespace {

TEST(CliBench, DispatchReportsMinAndMedianNanosecondsPerNode) {
  const CliResult r = run_graphrt({"bench", "dispatch", "--nodes", "200", "--batches", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("dispatch: 200 nodes, 3 batches of "), std::string::npos) << r.out;
  const size_t at = r.out.find("ns per node: min ");
  ASSERT_NE(at, std::string::npos) << r.out;
  char* end = nullptr;
  const double fastest = std::strtod(r.out.c_str() + at + 17, &end);
  ASSERT_EQ(std::string(end, 9), ", median ") << r.out;
  const double middle = std::strtod(end + 9, nullptr);
  EXPECT_GT(fastest, 0);
  EXPECT_LE(fastest, middle);
}

TEST(CliBench, RefusesUnknownBenchmarksAndBadCounts) {
  EXPECT_EQ(run_graphrt({"bench", "matmul"}).exit_code, 2);
  for (const char* nodes : {"0", "ten", "-5"}) {
    const CliResult r = run_graphrt({"bench", "dispatch", "--nodes", nodes});
    EXPECT_EQ(r.exit_code, 2) << nodes;
    EXPECT_TRUE(IsOneLineError(r, "bench"));
    EXPECT_NE(r.err.find("--nodes: '" + std::string(nodes) + "'"), std::string::npos) << r.err;
  }
}

TEST(CliBench, ShowsProgressOnlyOnATerminalAndErasesIt) {
  // 25 batches of about 20 ms: long enough for the indicator's first redraw.
  const CliResult r = run_graphrt_with_terminal({"bench", "dispatch", "--nodes", "1000", "--batches", "25"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("\rbatch "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/25"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.substr(r.err.size() - 4), "\r\033[K") << r.err;  // the line is cleared at the end
}

}  // namespace
}  // namespace grt::test
