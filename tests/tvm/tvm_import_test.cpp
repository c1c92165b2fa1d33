// The tiny model imported from each container format and run: outputs, names, constants,
// aliases, flatten_data, measured workspaces, and what TVM's storage ids imply.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/memory_plan.h"
#include "graphrt/tools/planner.h"
#include "blob_runner.h"
#include "tiny_model.h"

namespace grt::test::tvm {
namespace {

using tools::ModelDef;

ModelDef import_tiny(const tt::Artifacts& artifacts, tt::ImportReport* report = nullptr) {
  tt::ImportOptions options;
  options.kernels = tiny_kernel;
  ModelDef model;
  std::string error;
  EXPECT_TRUE(tt::import_graph(artifacts, options, &model, report, &error)) << error;
  return model;
}

uint32_t tensor_named(const ModelDef& m, const std::string& name) {
  for (uint32_t t = 0; t < m.tensors.size(); ++t) {
    if (m.tensors[t].name == name) return t;
  }
  ADD_FAILURE() << "no tensor " << name;
  return 0;
}

// Plans, loads with the tiny operators and runs x through the model; false with the
// runtime's message.
bool try_run(ModelDef model, const std::array<float, 8>& x, std::array<std::array<float, 4>, 2>* out, std::string* message) {
  if (model.pools.empty() && !tools::plan_model(&model, tools::PlanOptions{}, nullptr, message)) return false;
  const tools::AlignedBytes blob(tools::serialize(model));
  std::vector<uint8_t> input(sizeof x);
  std::memcpy(input.data(), x.data(), sizeof x);
  const BlobRun r = run_blob(blob.data(), blob.size(), tt::kernel_entries(model, tiny_kernel), nullptr, {input});
  *message = r.message;
  if (r.status != GRT_OK) return false;
  for (size_t o = 0; o < 2; ++o) std::memcpy((*out)[o].data(), r.outputs[o].data(), sizeof (*out)[o]);
  return true;
}

std::array<std::array<float, 4>, 2> run_tiny(const ModelDef& model, const std::array<float, 8>& x) {
  std::array<std::array<float, 4>, 2> out{};
  std::string message;
  EXPECT_TRUE(try_run(model, x, &out, &message)) << message;
  return out;
}

constexpr std::array<float, 8> kX = {1.0f, 0.5f, -3.0f, 0.25f, 2.0f, -0.75f, 1.5f, 4.0f};

void expect_outputs(const std::array<std::array<float, 4>, 2>& got) {
  const auto want = tiny_expected(kX);
  for (size_t o = 0; o < 2; ++o) {
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[o][i], want[o][i], 1e-5f) << "output " << o << " element " << i;
  }
}

TEST(TvmImport, TinyGraphJsonRunsAndGivesTheExpectedOutputs) { expect_outputs(run_tiny(import_tiny(tiny_artifacts()), kX)); }

TEST(TvmImport, InputAndOutputNamesComeFromTheGraph) {
  const ModelDef m = import_tiny(tiny_artifacts());
  ASSERT_EQ(m.inputs.size(), 1u);
  EXPECT_EQ(m.tensors[m.inputs[0]].name, "x");
  ASSERT_EQ(m.outputs.size(), 2u);  // heads, in order
  EXPECT_EQ(m.tensors[m.outputs[0]].name, "tvmgen_default_fused_multiply");
  EXPECT_EQ(m.tensors[m.outputs[1]].name, "tvmgen_default_fused_nn_dense_add");
}

TEST(TvmImport, ParamsBecomeConstantsBoundByNameNotFileOrder) {
  const ModelDef m = import_tiny(tiny_artifacts());
  const tools::TensorDef& p1 = m.tensors[tensor_named(m, "p1")];
  EXPECT_EQ(p1.kind, tools::TensorKind::Constant);
  EXPECT_EQ(p1.shape, (std::vector<int64_t>{4, 8}));
  const tools::TensorDef& p0 = m.tensors[tensor_named(m, "p0")];
  ASSERT_EQ(p0.kind, tools::TensorKind::Constant);
  float first = 0;
  std::memcpy(&first, m.buffers[p0.buffer].data(), sizeof first);
  EXPECT_EQ(first, 0.5f);
}

TEST(TvmImport, ConstantsAre16ByteAlignedInTheBlob) {
  ModelDef m = import_tiny(tiny_artifacts());
  std::string error;
  ASSERT_TRUE(tools::plan_model(&m, tools::PlanOptions{}, nullptr, &error)) << error;
  const std::vector<uint8_t> blob = tools::serialize(m);
  const auto* root = fb::GetModel(blob.data());
  ASSERT_EQ(root->buffers()->size(), 4u);
  for (const auto* buffer : *root->buffers()) EXPECT_EQ(static_cast<size_t>(buffer->data()->data() - blob.data()) % 16, 0u);
}

TEST(TvmImport, NopIsAnAliasOfItsInput) {
  const ModelDef m = import_tiny(tiny_artifacts());
  const tools::TensorDef& nop = m.tensors[tensor_named(m, "reshape_nop")];
  EXPECT_EQ(nop.kind, tools::TensorKind::Alias);
  EXPECT_EQ(nop.alias_of, tensor_named(m, "tvmgen_default_fused_nn_dense_add"));
  EXPECT_EQ(nop.shape, (std::vector<int64_t>{4}));
  EXPECT_EQ(m.nodes.size(), 3u);  // no node for __nop
}

TEST(TvmImport, FlattenDataHandsEveryArgumentAsOneDimension) {
  const ModelDef m = import_tiny(tiny_artifacts());
  const tools::NodeDef& multiply = m.nodes[2];
  ASSERT_EQ(m.kernels[multiply.kernel], "tvmgen_default_fused_multiply");
  for (const tools::ArgDef& a : multiply.args) {
    const tools::TensorDef& t = m.tensors[static_cast<size_t>(a.value)];
    EXPECT_EQ(t.kind, tools::TensorKind::Alias) << t.name;
    EXPECT_EQ(t.shape, (std::vector<int64_t>{4})) << t.name;
  }
  // The operator itself refuses anything but 1-D: the run proves the aliases reach it.
  expect_outputs(run_tiny(m, kX));
}

TEST(TvmImport, WorkspacesAreMeasuredExactly) {
  tt::ImportReport report;
  const ModelDef m = import_tiny(tiny_artifacts(), &report);
  EXPECT_EQ(report.workspace_source, "measured");
  ASSERT_EQ(m.nodes.size(), 3u);
  EXPECT_EQ(m.nodes[0].workspace_bytes, 0u);
  EXPECT_EQ(m.nodes[1].workspace_bytes, kDenseWorkspace);
  EXPECT_EQ(m.nodes[2].workspace_bytes, 0u);
  // 16 bytes less (the stack's granule) and the dense node fails: the least that works.
  ModelDef smaller = m;
  smaller.nodes[1].workspace_bytes = kDenseWorkspace - 16;
  std::array<std::array<float, 4>, 2> out{};
  std::string message;
  EXPECT_FALSE(try_run(smaller, kX, &out, &message));
  // Messages shorten names past 32 characters in the middle (the figures stay whole).
  EXPECT_NE(message.find("tvmgen_default...ed_nn_dense_add"), std::string::npos) << message;
}

TEST(TvmImport, EveryNodeTakingWorkspaceIsMeasuredNotOnlyTheFirst) {
  // The multiply, after the dense, asks for 32 bytes too: 16 + 32.
  tt::ImportOptions options;
  options.kernels = [](const std::string& name) -> TVMBackendPackedCFunc {
    if (name != "tvmgen_default_fused_multiply") return tiny_kernel(name);
    return [](TVMValue*, int*, int, TVMValue*, int*, void*) {
      void* scratch = TVMBackendAllocWorkspace(1, 0, 32, 2, 32);
      if (scratch == nullptr) return -1;
      return TVMBackendFreeWorkspace(1, 0, scratch);
    };
  };
  ModelDef m;
  std::string error;
  ASSERT_TRUE(tt::import_graph(tiny_artifacts(), options, &m, nullptr, &error)) << error;
  EXPECT_EQ(m.nodes[1].workspace_bytes, kDenseWorkspace);
  EXPECT_EQ(m.nodes[2].workspace_bytes, 48u);
  EXPECT_EQ(m.nodes[0].workspace_bytes, 0u);
}

TEST(TvmImport, WritesMaskIsTheNodesOutputs) {
  const ModelDef m = import_tiny(tiny_artifacts());
  for (const grt_kernel_entry& e : tt::kernel_entries(m, tiny_kernel)) {
    const std::string name = e.name;
    EXPECT_EQ(e.writes, name == "tvmgen_default_fused_nn_dense_add" ? GRT_WRITES_ARG(3) : GRT_WRITES_ARG(2)) << name;
  }
}

TEST(TvmImport, ReportsWhatTvmStorageIdsImply) {
  tt::ImportReport report;
  import_tiny(tiny_artifacts(), &report);
  // Storage ids 0 (x, 32 B), 2 (32), 5 (dense and the nop, 16), 7 (16): activations; 1, 3,
  // 4, 6 hold params (32 + 128 + 16 + 16).
  EXPECT_EQ(report.tvm_storage_bytes, 32u + 32u + 16u + 16u);
  EXPECT_EQ(report.tvm_param_bytes, 32u + 128u + 16u + 16u);
  EXPECT_EQ(report.functions, (std::vector<std::string>{"tvmgen_default_fused_add_nn_relu", "tvmgen_default_fused_multiply",
                                                        "tvmgen_default_fused_nn_dense_add"}));
}

TEST(TvmImport, GraphDataContainerIsRecognisedAndGivesTheSameBlob) {
  const tt::Artifacts json = tiny_artifacts();
  const std::vector<uint8_t> container = graph_data(json.graph_json, json.params);
  EXPECT_EQ(tt::detect_format(container.data(), container.size()), tt::Format::kGraphData);
  tt::Artifacts artifacts;
  std::string error;
  ASSERT_TRUE(tt::read_artifacts(container.data(), container.size(), {}, &artifacts, &error)) << error;
  EXPECT_EQ(tools::serialize(import_tiny(artifacts)), tools::serialize(import_tiny(json)));
}

// A ustar archive of (path, bytes) files, as Model Library Format is.
std::vector<uint8_t> tar(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<uint8_t> out;
  for (const auto& [path, bytes] : files) {
    std::array<char, 512> h{};
    std::memcpy(h.data(), path.data(), path.size());
    std::snprintf(h.data() + 100, 8, "%07o", 0644);
    std::snprintf(h.data() + 124, 12, "%011o", static_cast<unsigned>(bytes.size()));
    h[156] = '0';
    std::memcpy(h.data() + 257, "ustar", 6);
    out.insert(out.end(), h.begin(), h.end());
    out.insert(out.end(), bytes.begin(), bytes.end());
    out.resize((out.size() + 511) / 512 * 512);
  }
  out.resize(out.size() + 1024);
  return out;
}

std::string file_text(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> tiny_model_library_format(uint64_t dense_workspace) {
  const tt::Artifacts a = tiny_artifacts();
  const nlohmann::json metadata = {
      {"version", 7},
      {"modules",
       {{"default",
         {{"executors", {"graph"}},
          {"memory",
           {{"functions",
             {{"operator_functions",
               {{{"function_name", "tvmgen_default_fused_add_nn_relu"}, {"workspace", {{{"device", 1}, {"workspace_size_bytes", 0}}}}},
                {{"function_name", "tvmgen_default_fused_nn_dense_add"},
                 {"workspace", {{{"device", 1}, {"workspace_size_bytes", dense_workspace}}}}},
                {{"function_name", "tvmgen_default_fused_multiply"}, {"workspace", {{{"device", 1}, {"workspace_size_bytes", 0}}}}}}}}}}}}}}}};
  return tar({{"./metadata.json", metadata.dump()},
              {"./executor-config/graph/default.graph", a.graph_json},
              {"./parameters/default.params", std::string(a.params.begin(), a.params.end())},
              {"./codegen/host/src/default_lib1.c", file_text(GRT_TVM_TINY_OPS_SOURCE)}});
}

TEST(TvmImport, ModelLibraryFormatTakesWorkspacesFromMetadata) {
  // TVM's figure for the dense: its two requests, 128 + 16; graphrt's stack adds a header
  // to each, counted in the generated C the archive carries.
  const std::vector<uint8_t> archive = tiny_model_library_format(144);
  EXPECT_EQ(tt::detect_format(archive.data(), archive.size()), tt::Format::kModelLibraryFormat);
  tt::Artifacts artifacts;
  std::string error;
  ASSERT_TRUE(tt::read_artifacts(archive.data(), archive.size(), {}, &artifacts, &error)) << error;
  ModelDef m;
  tt::ImportReport report;
  ASSERT_TRUE(tt::import_graph(artifacts, tt::ImportOptions{}, &m, &report, &error)) << error;  // no operators needed
  EXPECT_EQ(report.workspace_source, "metadata.json");
  EXPECT_EQ(m.nodes[1].workspace_bytes, kDenseWorkspace);  // what the measurement finds too
  expect_outputs(run_tiny(m, kX));
}

TEST(TvmImport, ModelLibraryFormatWithoutTheGraphExecutorIsRefused) {
  const std::vector<uint8_t> archive = tar({{"./metadata.json", "{}"}, {"./parameters/default.params", ""}});
  tt::Artifacts artifacts;
  std::string error;
  EXPECT_FALSE(tt::read_artifacts(archive.data(), archive.size(), {}, &artifacts, &error));
  EXPECT_NE(error.find("executor-config/graph/"), std::string::npos) << error;
}

}  // namespace
}  // namespace grt::test::tvm
