// The tiny model built as firmware would be (graphrt_tvm_model: imported at build time, its
// operators linked, `graphrt kernels`' table with argument checks, `graphrt bin2c`'s blob):
// it runs, and init refuses any blob whose nodes call a generated function with other
// arguments than it was compiled for.
#include <gtest/gtest.h>

#include <cstring>

#include "graphrt/tools/aligned_bytes.h"
#include "blob_runner.h"
#include "tiny_model.h"

extern "C" {
extern const unsigned char tvm_tiny_model[];
extern const size_t tvm_tiny_model_size;
extern const grt_kernel_table tvm_tiny_kernels;
}

namespace grt::test::tvm {
namespace {

constexpr std::array<float, 8> kX = {-1.0f, 2.0f, 0.5f, 0.0f, 3.0f, -2.5f, 1.0f, 0.125f};

// init (and, when it succeeds, a run) of `blob` with the generated table as the only
// kernels: the status and message, and the outputs.
grt_status init_and_run(const uint8_t* blob, size_t size, std::string* message, std::array<std::array<float, 4>, 2>* out = nullptr) {
  std::vector<uint8_t> input(sizeof kX);
  std::memcpy(input.data(), kX.data(), sizeof kX);
  const BlobRun r = run_blob(blob, size, {}, &tvm_tiny_kernels, {input});
  *message = r.message;
  for (size_t o = 0; out != nullptr && r.status == GRT_OK && o < 2; ++o) std::memcpy((*out)[o].data(), r.outputs[o].data(), 16);
  return r.status;
}

tools::ModelDef built_model() {
  tools::ModelDef m;
  std::string error;
  EXPECT_TRUE(tools::parse(tvm_tiny_model, tvm_tiny_model_size, &m, &error)) << error;
  return m;
}

grt_status init_changed(const tools::ModelDef& m, std::string* message) {
  const tools::AlignedBytes blob(tools::serialize(m));
  return init_and_run(blob.data(), blob.size(), message);
}

uint32_t tensor_named(const tools::ModelDef& m, const std::string& name) {
  for (uint32_t t = 0; t < m.tensors.size(); ++t) {
    if (m.tensors[t].name == name) return t;
  }
  return UINT32_MAX;
}

TEST(TvmKernelTable, TheBuiltModelRunsWithTheGeneratedTable) {
  ASSERT_EQ(reinterpret_cast<uintptr_t>(tvm_tiny_model) % 16, 0u);
  std::array<std::array<float, 4>, 2> out{};
  std::string message;
  ASSERT_EQ(init_and_run(tvm_tiny_model, tvm_tiny_model_size, &message, &out), GRT_OK) << message;
  const auto want = tiny_expected(kX);
  for (size_t o = 0; o < 2; ++o) {
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(out[o][i], want[o][i], 1e-5f);
  }
  EXPECT_EQ(built_model().nodes[1].workspace_bytes, kDenseWorkspace);  // measured at build time
}

TEST(TvmKernelTable, TableIsSortedAndDeclaresWhatEachFunctionWrites) {
  ASSERT_EQ(tvm_tiny_kernels.count, 3u);
  for (size_t i = 1; i < tvm_tiny_kernels.count; ++i) EXPECT_LT(std::strcmp(tvm_tiny_kernels.entries[i - 1].name, tvm_tiny_kernels.entries[i].name), 0);
  for (size_t i = 0; i < tvm_tiny_kernels.count; ++i) {
    const grt_kernel_entry& e = tvm_tiny_kernels.entries[i];
    EXPECT_NE(e.check, nullptr) << e.name;
    EXPECT_EQ(e.writes, std::strcmp(e.name, "tvmgen_default_fused_nn_dense_add") == 0 ? GRT_WRITES_ARG(3) : GRT_WRITES_ARG(2)) << e.name;
  }
}

TEST(TvmKernelTable, InitRefusesAShapeTheFunctionWasNotCompiledFor) {
  tools::ModelDef m = built_model();
  m.tensors[tensor_named(m, "p1")].shape = {8, 4};  // the same bytes and rank: the loader has no objection
  std::string message;
  EXPECT_EQ(init_changed(m, &message), GRT_ERR_KERNEL_ARGS);
  // Messages shorten names past 32 characters in the middle (the figures stay whole).
  EXPECT_NE(message.find("tvmgen_default...ed_nn_dense_add"), std::string::npos) << message;
  EXPECT_NE(message.find("shape differs from what the generated function was compiled for"), std::string::npos) << message;
}

TEST(TvmKernelTable, InitRefusesAnotherDtype) {
  tools::ModelDef m = built_model();
  m.tensors[tensor_named(m, "p1")].dtype = tools::DType::Int32;  // 4 bytes per element as float32
  std::string message;
  EXPECT_EQ(init_changed(m, &message), GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(message.find("dtype or rank differs"), std::string::npos) << message;
}

TEST(TvmKernelTable, InitRefusesAnotherArgumentCount) {
  tools::ModelDef m = built_model();
  m.nodes[0].args.insert(m.nodes[0].args.begin(), tools::ArgDef::input(tensor_named(m, "p0")));
  std::string message;
  EXPECT_EQ(init_changed(m, &message), GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(message.find("argument count differs"), std::string::npos) << message;
}

TEST(TvmKernelTable, InitRefusesANodeThatWouldWriteWhatIsNotItsOutput) {
  tools::ModelDef m = built_model();
  m.nodes[0].args[2].kind = tools::ArgKind::Input;  // the relu's output passed as an input
  std::string message;
  EXPECT_NE(init_changed(m, &message), GRT_OK);
  EXPECT_NE(message.find("tvmgen_default_fused_add_nn_relu"), std::string::npos) << message;
}

}  // namespace
}  // namespace grt::test::tvm
