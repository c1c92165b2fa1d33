// grt_runtime_minimal (GRT_DYNAMIC_MEMORY=OFF, GRT_PREPARED_ARGUMENTS=OFF): the defaults
// still work, and what the build left out is refused by name instead of misbehaving.
#include <gtest/gtest.h>

#include <string.h>
#include <string>
#include <vector>

#include "graphrt/graphrt.h"
#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"
#include "graphrt/tools/planner.h"

namespace {

// y = x + 1 over int8, as a user kernel: this executable links no kernel table.
int add_one(TVMValue* values, int* codes, int count, TVMValue*, int*, void*) {
  if (count != 2 || codes[0] != kTVMDLTensorHandle || codes[1] != kTVMDLTensorHandle) return -1;
  const auto* x = static_cast<const DLTensor*>(values[0].v_handle);
  auto* y = static_cast<DLTensor*>(values[1].v_handle);
  const size_t n = grt_tensor_bytes(x);
  for (size_t i = 0; i < n; ++i) static_cast<int8_t*>(y->data)[i] = static_cast<int8_t>(static_cast<int8_t*>(x->data)[i] + 1);
  return 0;
}

class MinimalRuntime : public ::testing::Test {
 protected:
  void SetUp() override {
    grt::tools::ModelDef m;
    m.name = "add_two";
    const uint32_t x = m.add_activation("x", grt::tools::DType::Int8, {1, 8});
    const uint32_t t = m.add_activation("t", grt::tools::DType::Int8, {1, 8});
    const uint32_t y = m.add_activation("y", grt::tools::DType::Int8, {1, 8});
    m.inputs.push_back(x);
    m.outputs.push_back(y);
    m.add_node("add_one", {grt::tools::ArgDef::input(x), grt::tools::ArgDef::output(t)});
    m.add_node("add_one", {grt::tools::ArgDef::input(t), grt::tools::ArgDef::output(y)});
    grt::tools::plan_default(&m);
    blob_ = grt::tools::AlignedBytes(grt::tools::serialize(m));
    grt_registry_init(&registry_, entries_, 1, nullptr);
    ASSERT_EQ(grt_registry_add(&registry_, "add_one", add_one, nullptr), GRT_OK);
  }

  grt_status init(grt_strategy strategy, grt_arguments arguments) {
    grt_options options{};
    options.registry = &registry_;
    options.arguments = arguments;
    options.memory.strategy = strategy;
    options.memory.pool_buffers = pool_pointers_;
    options.memory.pool_sizes = pool_sizes_;
    options.memory.pool_count = 1;
    return grt_init(&executor_, storage_, sizeof storage_, blob_.data(), blob_.size(), &options, &error_);
  }

  grt::tools::AlignedBytes blob_;
  grt_kernel_entry entries_[1];
  grt_registry registry_;
  alignas(16) uint8_t pool_[256] = {};
  void* pool_pointers_[1] = {pool_};
  size_t pool_sizes_[1] = {sizeof pool_};
  alignas(8) uint8_t storage_[4096] = {};
  grt_executor* executor_ = nullptr;
  grt_error error_{};
};

TEST_F(MinimalRuntime, RunsOnTheStaticPoolWithLeanArguments) {
  ASSERT_EQ(init(GRT_STRATEGY_STATIC, GRT_ARGUMENTS_LEAN), GRT_OK) << error_.message;
  auto* input = static_cast<int8_t*>(grt_input(executor_, 0)->data);
  for (int i = 0; i < 8; ++i) input[i] = static_cast<int8_t>(i * 10);
  ASSERT_EQ(grt_run(executor_), GRT_OK) << grt_last_error(executor_)->message;
  const auto* output = static_cast<const int8_t*>(grt_output(executor_, 0)->data);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(output[i], i * 10 + 2) << i;
}

TEST_F(MinimalRuntime, RefusesTheMemoryStrategiesItLeftOut) {
  for (const grt_strategy strategy : {GRT_STRATEGY_DYNAMIC, GRT_STRATEGY_STACK}) {
    const std::string name = strategy == GRT_STRATEGY_DYNAMIC ? "GRT_STRATEGY_DYNAMIC" : "GRT_STRATEGY_STACK";
    EXPECT_EQ(init(strategy, GRT_ARGUMENTS_LEAN), GRT_ERR_ARGUMENT);
    EXPECT_NE(std::string(error_.message).find(name + " is not in this build of graphrt (GRT_DYNAMIC_MEMORY=OFF)"),
              std::string::npos)
        << error_.message;
    grt_requirements requirements;
    EXPECT_EQ(grt_model_requirements(blob_.data(), blob_.size(), strategy, &requirements, &error_), GRT_ERR_ARGUMENT);
    EXPECT_NE(std::string(error_.message).find("GRT_DYNAMIC_MEMORY=OFF"), std::string::npos) << error_.message;
  }
}

TEST_F(MinimalRuntime, RefusesPreparedArguments) {
  EXPECT_EQ(init(GRT_STRATEGY_STATIC, GRT_ARGUMENTS_PREPARED), GRT_ERR_ARGUMENT);
  EXPECT_NE(std::string(error_.message).find("GRT_ARGUMENTS_PREPARED is not in this build of graphrt (GRT_PREPARED_ARGUMENTS=OFF)"),
            std::string::npos)
      << error_.message;
}

}  // namespace

namespace {

// Without a control-flow kernel the subgraph checks are the core's weak defaults: a blob with
// subgraphs is refused by name, and none of the control-flow code is in the executable.
TEST(MinimalRuntimeSubgraphs, ABlobWithSubgraphsIsRefusedByName) {
  grt::tools::ModelDef m;
  const uint32_t cond = m.add_activation("cond", grt::tools::DType::Bool, {1});
  const uint32_t x = m.add_activation("x", grt::tools::DType::Int8, {1, 8});
  const uint32_t y = m.add_activation("y", grt::tools::DType::Int8, {1, 8});
  m.inputs = {cond, x};
  m.outputs = {y};
  m.add_node("if_else", {grt::tools::ArgDef::subgraph(0), grt::tools::ArgDef::subgraph(0), grt::tools::ArgDef::input(cond),
                         grt::tools::ArgDef::input(x), grt::tools::ArgDef::output(y)});
  m.begin_subgraph("branch");
  const uint32_t in = m.add_activation("in", grt::tools::DType::Int8, {1, 8});
  const uint32_t out = m.add_activation("out", grt::tools::DType::Int8, {1, 8});
  m.add_node("add_one", {grt::tools::ArgDef::input(in), grt::tools::ArgDef::output(out)});
  m.subgraphs.back().inputs = {in};
  m.subgraphs.back().outputs = {out};
  m.end_subgraph();
  grt::tools::plan_default(&m);
  const grt::tools::AlignedBytes blob(grt::tools::serialize(m));
  grt_requirements requirements{};
  grt_error error{};
  EXPECT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &requirements, &error), GRT_ERR_GRAPH);
  EXPECT_STREQ(error.message, "blob has 1 subgraphs (IF, WHILE); this program links no control-flow kernel");
}

}  // namespace
