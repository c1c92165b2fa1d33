// graphrt kernels: the cut-down kernel table as C: only the kernels the nodes use, sorted,
// with the built-in table's entries, compiling as strict C99. The firmware images of
// tests/target register it, so a wrong table fails them under qemu too.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "graphrt/kernels.h"
#include "graphrt/tools/planner.h"
#include "test_models.h"

namespace grt::test {
namespace {

using CliKernels = CliTest;

// x -> relu_s8 -> copy -> y, plus a kernel name no node uses and one that is not built in.
tools::ModelDef three_kernel_model() {
  tools::ModelDef m;
  const uint32_t x = m.add_activation("x", tools::DType::Int8, {1, 8});
  const uint32_t t = m.add_activation("t", tools::DType::Int8, {1, 8});
  const uint32_t u = m.add_activation("u", tools::DType::Int8, {1, 8});
  const uint32_t y = m.add_activation("y", tools::DType::Int8, {1, 8});
  m.inputs.push_back(x);
  m.outputs.push_back(y);
  m.add_node("copy", {tools::ArgDef::input(x), tools::ArgDef::output(t)});
  m.add_node("my_own_kernel", {tools::ArgDef::input(t), tools::ArgDef::output(u)});
  m.add_node("copy", {tools::ArgDef::input(u), tools::ArgDef::output(y)});
  m.add_node("noop", {});
  m.kernels.push_back("softmax_s8");  // named by the blob, used by no node
  tools::plan_default(&m);
  return m;
}

const grt_kernel_entry* builtin(const char* name) {
  const grt_kernel_table* table = grt_builtin_kernels();
  for (size_t i = 0; i < table->count; ++i) {
    if (std::strcmp(table->entries[i].name, name) == 0) return &table->entries[i];
  }
  return nullptr;
}

TEST_F(CliKernels, ListsTheUsedBuiltInKernelsSortedWithTheirEntries) {
  write_bytes(path("m.grt"), tools::serialize(three_kernel_model()));
  const CliResult r = run_graphrt({"kernels", path("m.grt").string(), "--symbol", "fw_kernels"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("not built in, register them yourself: my_own_kernel"), std::string::npos) << r.err;
  const size_t copy = r.out.find("{\"copy\", grt_kernel_copy, grt_check_copy, 0x2u, 0x0u},");
  const size_t noop = r.out.find("{\"noop\", grt_kernel_noop, grt_check_noop, 0x0u, 0x0u},");
  ASSERT_NE(copy, std::string::npos) << r.out;
  ASSERT_NE(noop, std::string::npos) << r.out;
  EXPECT_LT(copy, noop);  // strcmp order
  EXPECT_EQ(builtin("copy")->writes, 0x2u);
  EXPECT_EQ(r.out.find("softmax_s8"), std::string::npos) << "a kernel no node uses";
  EXPECT_EQ(r.out.find("my_own_kernel"), std::string::npos);
  EXPECT_NE(r.out.find("const grt_kernel_table fw_kernels = {fw_kernels_entries, 2};"), std::string::npos) << r.out;
}

TEST_F(CliKernels, OutputCompilesAsStrictC99) {
  write_bytes(path("m.grt"), tools::serialize(three_kernel_model()));
  const auto c_file = path("kernels.c");
  const CliResult r = run_graphrt({"kernels", path("m.grt").string(), "--symbol", "fw_kernels", "-o", c_file.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const CliResult cc = run_program(GRT_HOST_C_COMPILER, {"-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-c",
                                                         "-I" GRT_RUNTIME_INCLUDE_DIR, "-I" GRT_ALLOCATORS_INCLUDE_DIR,
                                                         "-o", path("kernels.o").string(), c_file.string()});
  EXPECT_EQ(cc.exit_code, 0) << cc.out << cc.err;
}

TEST_F(CliKernels, RefusesBadSymbolsAndBadBlobs) {
  write_bytes(path("m.grt"), tools::serialize(copy_chain(1)));
  const CliResult no_symbol = run_graphrt({"kernels", path("m.grt").string()});
  EXPECT_EQ(no_symbol.exit_code, 2);
  EXPECT_TRUE(IsOneLineError(no_symbol, "kernels"));
  const CliResult bad_symbol = run_graphrt({"kernels", path("m.grt").string(), "--symbol", "9x"});
  EXPECT_EQ(bad_symbol.exit_code, 2);
  EXPECT_NE(bad_symbol.err.find("is not a C identifier"), std::string::npos) << bad_symbol.err;
  write_bytes(path("junk.grt"), std::vector<uint8_t>(64, 0x11));
  const CliResult junk = run_graphrt({"kernels", path("junk.grt").string(), "--symbol", "k", "-o", path("k.c").string()});
  EXPECT_EQ(junk.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(junk, "kernels"));
  EXPECT_FALSE(std::filesystem::exists(path("k.c")));
}

}  // namespace
}  // namespace grt::test
