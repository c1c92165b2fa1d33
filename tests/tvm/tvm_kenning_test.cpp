// Antmicro's magic-wand models (TVM 0.18 output for Kenning's Zephyr runtime): their graph,
// params and samples from the shared folder, their generated C from a kenning-zephyr-runtime
// checkout (-DGRT_KENNING_PATH). Each of the ten samples must give its expected class, and
// each model's AoT twin (`graphrt aot`, built as a program) the interpreter's bytes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "blob_runner.h"
#include "cli_runner.h"
#include "kenning_support.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/tvm/kernel_library.h"
#include "graphrt/tools/tvm/tvm_import.h"
#include "zoo.h"

namespace grt::test::tvm {
namespace {

namespace tt = grt::tools::tvm;

class Kenning : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef GRT_KENNING_FLOAT_OPS
    GTEST_SKIP() << "no Kenning checkout: configure with -DGRT_KENNING_PATH=<antmicro/kenning-zephyr-runtime checkout> to build the "
                    "magic-wand models' generated C and run them";
#else
    const auto zoo = model_zoo();
    if (!zoo) GTEST_SKIP() << "model zoo not found: set GRT_MODEL_ZOO (the magic-wand artifacts are in its tvm/kenning_magic_wand)";
    dir_ = *zoo / "tvm" / "kenning_magic_wand";
    samples_ = wand_samples(dir_);
    ASSERT_EQ(samples_.size(), 10u);
#endif
  }
  std::filesystem::path dir_;
  std::vector<std::pair<std::string, size_t>> samples_;
};

#ifdef GRT_KENNING_FLOAT_OPS
template <typename T>
size_t argmax(const std::vector<uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return static_cast<size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

void report_memory(const char* model, const ImportedModel& m, const BlobRun& run) {
  uint64_t workspace = 0;
  for (const auto& n : m.model.nodes) workspace = std::max(workspace, n.workspace_bytes);
  std::printf("%s: graphrt pool %llu B (largest workspace %llu B inside) + bookkeeping %llu B; TVM storage ids: %llu B activations + %llu B params\n",
              model, static_cast<unsigned long long>(run.pool_bytes), static_cast<unsigned long long>(workspace),
              static_cast<unsigned long long>(run.bookkeeping_bytes), static_cast<unsigned long long>(m.report.tvm_storage_bytes),
              static_cast<unsigned long long>(m.report.tvm_param_bytes));
}

TEST_F(Kenning, FloatMagicWandGivesTheExpectedClassOnAllTenSamples) {
  tt::KernelLibrary library;
  std::string error;
  ASSERT_TRUE(library.open(GRT_KENNING_FLOAT_OPS, &error)) << error;
  const ImportedModel m = import_planned(file_bytes(dir_ / "magic_wand.graph_data"), {}, library);
  ASSERT_EQ(m.error, "");
  for (const auto& [file, want] : samples_) {
    const BlobRun run = run_blob(m.blob.data(), m.blob.size(), tt::kernel_entries(m.model, library.lookup()), nullptr, {file_bytes(dir_ / file)});
    ASSERT_EQ(run.status, GRT_OK) << run.message;
    EXPECT_EQ(argmax<float>(run.outputs[0]), want) << file;
    if (file == samples_.front().first) report_memory("magic_wand", m, run);
  }
}

TEST_F(Kenning, Int8MagicWandGivesTheExpectedClassOnAllTenSamples) {
  tt::KernelLibrary library;
  std::string error;
  ASSERT_TRUE(library.open(GRT_KENNING_INT8_OPS, &error)) << error;
  const ImportedModel m =
      import_planned(file_bytes(dir_ / "magic_wand_int8_graph.json"), file_bytes(dir_ / "magic_wand_int8_params.bin"), library);
  ASSERT_EQ(m.error, "");
  for (const auto& [file, want] : samples_) {
    const std::vector<uint8_t> q = quantize_wand_sample(file_bytes(dir_ / file));
    const BlobRun run = run_blob(m.blob.data(), m.blob.size(), tt::kernel_entries(m.model, library.lookup()), nullptr, {q});
    ASSERT_EQ(run.status, GRT_OK) << run.message;
    EXPECT_EQ(argmax<int8_t>(run.outputs[0]), want) << file;
    if (file == samples_.front().first) report_memory("magic_wand_int8", m, run);
  }
}
// The AoT program `runner` on each sample (through `prepare`): the interpreter's output bytes
// and the expected class.
template <typename T>
void expect_aot_twin(const char* runner, const char* operators, const std::vector<uint8_t>& graph, const std::vector<uint8_t>& params,
                     const std::filesystem::path& dir, const std::vector<std::pair<std::string, size_t>>& samples,
                     std::vector<uint8_t> (*prepare)(const std::vector<uint8_t>&)) {
  tt::KernelLibrary library;
  std::string error;
  ASSERT_TRUE(library.open(operators, &error)) << error;
  const ImportedModel m = import_planned(graph, params, library);
  ASSERT_EQ(m.error, "");
  const std::filesystem::path scratch = std::filesystem::temp_directory_path() / ("graphrt_aot_" + std::to_string(::getpid()));
  std::filesystem::create_directories(scratch);
  for (const auto& [file, want] : samples) {
    const std::vector<uint8_t> input = prepare(file_bytes(dir / file));
    const BlobRun interpreted = run_blob(m.blob.data(), m.blob.size(), tt::kernel_entries(m.model, library.lookup()), nullptr, {input});
    ASSERT_EQ(interpreted.status, GRT_OK) << interpreted.message;
    write_bytes(scratch / "in.bin", input);
    const CliResult ran = run_program(runner, {(scratch / "in.bin").string(), (scratch / "out.bin").string()});
    ASSERT_EQ(ran.exit_code, 0) << file << ": " << ran.err;
    const std::vector<uint8_t> aot = read_bytes(scratch / "out.bin");
    EXPECT_EQ(aot, interpreted.outputs[0]) << file;
    EXPECT_EQ(argmax<T>(aot), want) << file;
  }
  std::filesystem::remove_all(scratch);
}

std::vector<uint8_t> as_is(const std::vector<uint8_t>& bytes) { return bytes; }

TEST_F(Kenning, FloatMagicWandAotTwinGivesTheInterpretersBytes) {
  expect_aot_twin<float>(GRT_KENNING_FLOAT_AOT, GRT_KENNING_FLOAT_OPS, file_bytes(dir_ / "magic_wand.graph_data"), {}, dir_, samples_, as_is);
}

TEST_F(Kenning, Int8MagicWandAotTwinGivesTheInterpretersBytes) {
  expect_aot_twin<int8_t>(GRT_KENNING_INT8_AOT, GRT_KENNING_INT8_OPS, file_bytes(dir_ / "magic_wand_int8_graph.json"),
                          file_bytes(dir_ / "magic_wand_int8_params.bin"), dir_, samples_, quantize_wand_sample);
}
#else
TEST_F(Kenning, MagicWandModels) {}
#endif

}  // namespace
}  // namespace grt::test::tvm
