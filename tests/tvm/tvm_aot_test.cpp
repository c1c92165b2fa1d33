// The tiny TVM model ahead of time: `graphrt aot` wrote tiny_aot.c at build time from the
// imported blob, and this test links it with the generated functions (ops/tiny_ops.c) and the
// AoT support runtime, no interpreter. Its outputs are the interpreter's bytes (`graphrt run
// --kernels`, in a child process: one image holds either runtime, not both) and what the
// model computes; blobs whose generated functions cannot be called unchecked are refused.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "tiny_aot.h"

extern "C" {
extern const float tiny_x[8];
extern const float tiny_expected[2][4];
}

namespace grt::test {
namespace {

using TvmAot = CliTest;

std::vector<uint8_t> tensor_bytes(const DLTensor* t, size_t bytes) {
  const auto* data = static_cast<const uint8_t*>(t->data);
  return {data, data + bytes};
}

TEST_F(TvmAot, TinyModelGivesTheInterpretersBytesAndTheExpectedOutputs) {
  ASSERT_EQ(TINY_AOT_INPUT_COUNT, 1u);
  ASSERT_EQ(TINY_AOT_OUTPUT_COUNT, 2u);
  ASSERT_EQ(TINY_AOT_INPUT0_BYTES, sizeof tiny_x);
  std::memcpy(tiny_aot_input(0)->data, tiny_x, sizeof tiny_x);
  const char* message = nullptr;
  ASSERT_EQ(tiny_aot_run(&message), 0) << (message != nullptr ? message : "");

  std::vector<uint8_t> x(sizeof tiny_x);
  std::memcpy(x.data(), tiny_x, sizeof tiny_x);
  write_bytes(path("x.bin"), x);
  const CliResult ran = run_graphrt({"run", GRT_TVM_TINY_BLOB, "--kernels", GRT_TVM_TINY_OPS_LIBRARY, "--input", path("x.bin").string(),
                                     "--output-dir", path("out").string()});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const size_t output_bytes[2] = {TINY_AOT_OUTPUT0_BYTES, TINY_AOT_OUTPUT1_BYTES};
  for (uint32_t o = 0; o < 2; ++o) {
    ASSERT_EQ(output_bytes[o], 16u);
    const std::vector<uint8_t> aot = tensor_bytes(tiny_aot_output(o), 16);
    EXPECT_EQ(aot, read_bytes(path("out") / ("out" + std::to_string(o) + ".bin"))) << "output " << o;
    float got[4];
    std::memcpy(got, aot.data(), sizeof got);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(got[i], tiny_expected[o][i], 1e-5f) << "output " << o << " element " << i;
  }
}

TEST_F(TvmAot, GeneratedFunctionsAreCalledByTheirSymbolsWithThePlannedWorkspace) {
  const std::vector<uint8_t> bytes = read_bytes(GRT_TVM_TINY_AOT_SOURCE);
  const std::string c(bytes.begin(), bytes.end());
  for (const char* call : {"tvmgen_default_fused_add_nn_relu((void*)tiny_aot_a0", "tvmgen_default_fused_nn_dense_add((void*)tiny_aot_a1",
                           "tvmgen_default_fused_multiply((void*)tiny_aot_a2"}) {
    EXPECT_NE(c.find(call), std::string::npos) << call;
  }
  EXPECT_EQ(c.find("grt_kernel_"), std::string::npos) << "no built-in kernel in this model";
  // The dense node's measured workspace (its two requests plus the interpreter's headers).
  EXPECT_NE(c.find(", 176);\n  if (tvmgen_default_fused_nn_dense_add("), std::string::npos);
}

TEST_F(TvmAot, RefusesGeneratedFunctionsItCannotCallUnchecked) {
  const std::vector<uint8_t> blob = read_bytes(GRT_TVM_TINY_BLOB);
  tools::ModelDef model;
  std::string error;
  ASSERT_TRUE(tools::parse(blob.data(), blob.size(), &model, &error)) << error;

  // An integer where a generated function takes tensors only: what `graphrt kernels` refuses.
  tools::ModelDef with_int = model;
  with_int.nodes[2].args.push_back(tools::ArgDef::integer(3));
  write_bytes(path("int.grt"), tools::serialize(with_int));
  const CliResult not_tensor = run_graphrt({"aot", path("int.grt").string(), "--symbol", "m", "-o", path("m.c").string()});
  EXPECT_EQ(not_tensor.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(not_tensor, "aot"));
  EXPECT_NE(not_tensor.err.find("an argument that is not a tensor"), std::string::npos) << not_tensor.err;
  EXPECT_FALSE(std::filesystem::exists(path("m.c")));

  // Not from TVM: a kernel that is not built in is somebody's own, with no known C name.
  tools::ModelDef own = model;
  own.producer = "hand-made";
  write_bytes(path("own.grt"), tools::serialize(own));
  const CliResult not_built_in = run_graphrt({"aot", path("own.grt").string(), "--symbol", "m"});
  EXPECT_EQ(not_built_in.exit_code, 1);
  EXPECT_NE(not_built_in.err.find("kernel 'tvmgen_default_fused_add_nn_relu' is not built in"), std::string::npos) << not_built_in.err;
}

}  // namespace
}  // namespace grt::test
