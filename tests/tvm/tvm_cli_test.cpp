// `graphrt import`, `run --kernels` and `kernels` on the tiny model's files, as users run them.
#include <gtest/gtest.h>

#include <cstring>

#include "cli_runner.h"
#include "tiny_model.h"

namespace grt::test::tvm {
namespace {

class TvmCli : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    const tt::Artifacts a = tiny_artifacts();
    write_bytes(path("graph.json"), std::vector<uint8_t>(a.graph_json.begin(), a.graph_json.end()));
    write_bytes(path("params.bin"), a.params);
    write_bytes(path("model.graph_data"), graph_data(a.graph_json, a.params));
    const std::array<float, 8> x = {1, 2, 3, 4, -1, -2, -3, -4};
    std::vector<uint8_t> bytes(sizeof x);
    std::memcpy(bytes.data(), x.data(), sizeof x);
    write_bytes(path("x.bin"), bytes);
  }

  // graph.json + params.bin -> m.grt, workspaces measured with the tiny operators.
  CliResult import_graph_json() {
    return run_graphrt({"import", path("graph.json").string(), "--params", path("params.bin").string(), "--kernels", GRT_TVM_TINY_OPS_LIBRARY,
                        "-o", path("m.grt").string()});
  }

  void expect_outputs(const std::string& dir) {
    const auto want = tiny_expected({1, 2, 3, 4, -1, -2, -3, -4});
    for (size_t o = 0; o < 2; ++o) {
      const std::vector<uint8_t> bytes = read_bytes(path(dir) / ("out" + std::to_string(o) + ".bin"));
      ASSERT_EQ(bytes.size(), 16u);
      std::array<float, 4> got{};
      std::memcpy(got.data(), bytes.data(), 16);
      for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[i], want[o][i], 1e-5f);
    }
  }
};

TEST_F(TvmCli, ImportsGraphJsonWithParamsAndRunsWithTheOperatorsLibrary) {
  const CliResult imported = import_graph_json();
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.out.find("3 nodes calling 3 generated functions, workspaces measured (largest 176 B)"), std::string::npos) << imported.out;
  EXPECT_NE(imported.out.find("TVM's storage ids imply 96 B"), std::string::npos) << imported.out;
  const CliResult ran = run_graphrt({"run", path("m.grt").string(), "--kernels", GRT_TVM_TINY_OPS_LIBRARY, "--input", path("x.bin").string(),
                                     "--output-dir", path("out").string()});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  expect_outputs("out");
}

TEST_F(TvmCli, ImportsKenningsContainerByItsContent) {
  const CliResult imported =
      run_graphrt({"import", path("model.graph_data").string(), "--kernels", GRT_TVM_TINY_OPS_LIBRARY, "-o", path("m.grt").string()});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const CliResult inspected = run_graphrt({"inspect", path("m.grt").string()});
  EXPECT_NE(inspected.out.find("from TVM Kenning .graph_data"), std::string::npos) << inspected.out;
}

TEST_F(TvmCli, RunWithoutTheOperatorsSaysWhichKernelIsMissing) {
  ASSERT_EQ(import_graph_json().exit_code, 0);
  const CliResult ran = run_graphrt({"run", path("m.grt").string(), "--input", path("x.bin").string()});
  EXPECT_EQ(ran.exit_code, 1);
  EXPECT_NE(ran.err.find("tvmgen_default_fused_add_nn_relu"), std::string::npos) << ran.err;
  EXPECT_TRUE(IsOneLineError(ran, "run"));
}

TEST_F(TvmCli, ImportWithoutOperatorsRefusesToGuessWorkspaces) {
  const CliResult r = run_graphrt({"import", path("graph.json").string(), "--params", path("params.bin").string(), "-o", path("m.grt").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--kernels"), std::string::npos) << r.err;
  EXPECT_TRUE(IsOneLineError(r, "import"));
  EXPECT_FALSE(std::filesystem::exists(path("m.grt")));
}

TEST_F(TvmCli, AMalformedGraphIsRefusedInOneLine) {
  write_bytes(path("bad.json"), {'{', '"', 'n'});
  const CliResult r = run_graphrt({"import", path("bad.json").string(), "--kernels", GRT_TVM_TINY_OPS_LIBRARY, "-o", path("m.grt").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("graph: not valid JSON"), std::string::npos) << r.err;
}

TEST_F(TvmCli, KernelsWritesTheGeneratedFunctionsWithChecks) {
  ASSERT_EQ(import_graph_json().exit_code, 0);
  const CliResult r = run_graphrt({"kernels", path("m.grt").string(), "--symbol", "tiny_kernels"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("static int grt_check_tvmgen_default_fused_nn_dense_add("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"tvmgen_default_fused_nn_dense_add\", (TVMBackendPackedCFunc)(void (*)(void))tvmgen_default_fused_nn_dense_add, "
                       "grt_check_tvmgen_default_fused_nn_dense_add, 0x8u, 0x0u},"),
            std::string::npos)
      << r.out;
}

TEST_F(TvmCli, TheOperatorsLibraryMustLoad) {
  const CliResult r = run_graphrt({"import", path("graph.json").string(), "--params", path("params.bin").string(), "--kernels",
                                   path("missing.so").string(), "-o", path("m.grt").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot load the operators"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace grt::test::tvm
