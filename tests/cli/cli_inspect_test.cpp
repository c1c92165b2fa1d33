// graphrt inspect: text and JSON views of a blob, and refusals of broken files.
#include "cli_models.h"
#include "cli_runner.h"
#include "graphrt/target_requirements.h"
#include "graphrt/tools/planner.h"
#include "json_reader.h"
#include "test_models.h"

namespace grt::test {
namespace {

using CliInspect = CliTest;

TEST_F(CliInspect, TextShowsTensorsNodesKernelsPoolsAndMemory) {
  const std::string model = write_model("m.grt", every_kind_model());
  const CliResult r = run_graphrt({"inspect", model});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  for (const char* text : {"model 'every_kind'", "producer: graphrt cli tests", "tensors (4)", "nodes (2)", "kernels (2): noop copy",
                           "pools (1)", "'activations'", "pool 'activations' @ ", "alias of tensor 0 + 0",
                           "buffer 0, 12 constant bytes", "inspect_me", "reshape_copy", "in:1 out:2", "7 0.5 none",
                           "static", "dynamic", "stack", "arm32 prepared", "liveness lower bound: 32 B"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << "'" << text << "' missing from\n" << r.out;
  }
}

TEST_F(CliInspect, JsonHasPoolsRuntimeBytesLowerBoundNodesAndTensors) {
  const tools::ModelDef def = every_kind_model();
  const std::string model = write_model("m.grt", def);
  const CliResult r = run_graphrt({"inspect", model, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string error;
  auto doc = parse_json(r.out, &error);
  ASSERT_TRUE(doc) << error << "\n" << r.out;
  Json& j = *doc;
  EXPECT_EQ(j["name"], "every_kind");
  ASSERT_EQ(j["pools"].size(), 1u);
  EXPECT_EQ(j["pools"][0]["name"], "activations");
  EXPECT_EQ(j["pools"][0]["size_bytes"], def.pools[0].size);

  const grt_requirements fixed = requirements_of(def, GRT_STRATEGY_STATIC);
  EXPECT_EQ(j["runtime_bytes"], fixed.bookkeeping_bytes);
  EXPECT_EQ(j["lower_bound_bytes"], tools::liveness_lower_bound(tools::planning_blocks(def)));
  EXPECT_EQ(j["memory"]["static"]["pool_bytes"][0], fixed.pool_bytes[0]);
  // What Cortex-M firmware reserves at build time.
  const tools::AlignedBytes blob = to_blob(def);
  grt_options options{};
  grt_requirements arm32{};
  grt_error error_record{};
  ASSERT_EQ(grt_model_requirements_abi(blob.data(), blob.size(), &options, GRT_ABI_ARM32, &arm32, &error_record), GRT_OK);
  EXPECT_EQ(j["memory"]["static"]["arm32_bookkeeping_bytes"], arm32.bookkeeping_bytes);
  options.arguments = GRT_ARGUMENTS_PREPARED;
  ASSERT_EQ(grt_model_requirements_abi(blob.data(), blob.size(), &options, GRT_ABI_ARM32, &arm32, &error_record), GRT_OK);
  EXPECT_EQ(j["memory"]["static"]["arm32_prepared_bookkeeping_bytes"], arm32.bookkeeping_bytes);
  EXPECT_EQ(j["memory"]["stack"]["allocator_bytes"], requirements_of(def, GRT_STRATEGY_STACK).allocator_bytes);
  EXPECT_EQ(j["memory"]["dynamic"]["allocator_bytes"], requirements_of(def, GRT_STRATEGY_DYNAMIC).allocator_bytes);

  ASSERT_EQ(j["tensors"].size(), 4u);
  Json& x = j["tensors"][0];
  EXPECT_EQ(x["name"], "x");
  EXPECT_EQ(x["dtype"], "int8");
  EXPECT_EQ(x["kind"], "activation");
  EXPECT_EQ(x["input"], true);
  EXPECT_EQ(x["pool"], "activations");
  EXPECT_EQ(x["offset"], def.tensors[0].offset);
  EXPECT_EQ(x["shape"].size(), 2u);
  EXPECT_EQ(j["tensors"][1]["kind"], "alias");
  EXPECT_EQ(j["tensors"][1]["alias_of"], 0);
  EXPECT_EQ(j["tensors"][2]["output"], true);
  EXPECT_EQ(j["tensors"][3]["kind"], "constant");
  EXPECT_EQ(j["tensors"][3]["constant_bytes"], 12);

  ASSERT_EQ(j["nodes"].size(), 2u);
  EXPECT_EQ(j["nodes"][0]["kernel"], "noop");
  EXPECT_EQ(j["nodes"][0]["name"], "inspect_me");
  EXPECT_EQ(j["nodes"][0]["args"][1]["kind"], "int");
  EXPECT_EQ(j["nodes"][0]["args"][1]["value"], 7);
  EXPECT_EQ(j["nodes"][0]["args"][2]["value"], 0.5);
  EXPECT_EQ(j["nodes"][1]["args"][1]["kind"], "output");
  EXPECT_EQ(j["nodes"][1]["args"][1]["tensor"], 2);
  EXPECT_EQ(j["nodes"][1]["workspace_bytes"], 0);
}

TEST_F(CliInspect, JsonEscapesAwkwardNames) {
  tools::ModelDef def = copy_chain(1);
  def.name = "quote\" back\\slash \n newline";
  def.tensors[0].name = "tab\there";
  const CliResult r = run_graphrt({"inspect", write_model("m.grt", def), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string error;
  auto doc = parse_json(r.out, &error);
  ASSERT_TRUE(doc) << error << "\n" << r.out;
  EXPECT_EQ((*doc)["name"], def.name);
  EXPECT_EQ((*doc)["tensors"][0]["name"], "tab\there");
}

TEST_F(CliInspect, GarbageIsNotAModel) {
  write_bytes(path("garbage.grt"), std::vector<uint8_t>(64, 0xab));
  const CliResult r = run_graphrt({"inspect", path("garbage.grt").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "inspect"));
  EXPECT_NE(r.err.find("garbage.grt: not a graphrt model"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(CliInspect, TruncatedAndEmptyFilesAreRefused) {
  std::vector<uint8_t> blob = tools::serialize(copy_chain(2));
  blob.resize(blob.size() / 2);
  write_bytes(path("half.grt"), blob);
  write_bytes(path("empty.grt"), {});
  for (const char* name : {"half.grt", "empty.grt"}) {
    const CliResult r = run_graphrt({"inspect", path(name).string()});
    EXPECT_EQ(r.exit_code, 1) << name;
    EXPECT_TRUE(IsOneLineError(r, "inspect"));
    EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
  }
}

TEST_F(CliInspect, MissingFileNamesFileAndReason) {
  const CliResult r = run_graphrt({"inspect", path("nope.grt").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "inspect"));
  EXPECT_NE(r.err.find("nope.grt: cannot open (No such file or directory)"), std::string::npos) << r.err;
}

TEST_F(CliInspect, RefusesABlobTheRuntimeRefusesBeforeShowingAnything) {
  tools::ModelDef def = copy_chain(2);
  def.pools[0].size = 1;  // the plan's slots no longer fit: the loader refuses it
  const CliResult r = run_graphrt({"inspect", write_model("small.grt", def), "--json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(IsOneLineError(r, "inspect"));
  EXPECT_NE(r.err.find("small.grt: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("pool 'activations'"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");  // nothing of a refused blob is shown: its sizes and indices are unchecked
}

// A blob with subgraphs (IF's then and else): both views list them with their node and tensor
// ranges and their inputs and outputs; a blob without any has an empty list.
TEST_F(CliInspect, SubgraphsAreListedWithTheirRanges) {
  const std::string model = write_model("if.grt", if_else_copy());
  const CliResult text = run_graphrt({"inspect", model});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  for (const char* expected : {"subgraphs (2):", "then", "else", "1..1", "3..4", "2..3", "5..7", "subgraph:0 subgraph:1 in:0 in:1 out:2"}) {
    EXPECT_NE(text.out.find(expected), std::string::npos) << "'" << expected << "' missing from\n" << text.out;
  }
  const CliResult json = run_graphrt({"inspect", model, "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  std::string error;
  auto doc = parse_json(json.out, &error);
  ASSERT_TRUE(doc) << error;
  Json& subgraphs = (*doc)["subgraphs"];
  ASSERT_EQ(subgraphs.size(), 2u);
  EXPECT_EQ(subgraphs[1]["name"], "else");
  EXPECT_EQ(subgraphs[1]["first_node"], 2);
  EXPECT_EQ(subgraphs[1]["node_count"], 2);
  EXPECT_EQ(subgraphs[1]["first_tensor"], 5);
  EXPECT_EQ(subgraphs[1]["tensor_count"], 3);
  EXPECT_EQ(subgraphs[1]["inputs"], Json::array({5}));
  EXPECT_EQ(subgraphs[1]["outputs"], Json::array({7}));

  const CliResult plain = run_graphrt({"inspect", write_model("plain.grt", every_kind_model()), "--json"});
  auto plain_doc = parse_json(plain.out, &error);
  ASSERT_TRUE(plain_doc) << error;
  EXPECT_TRUE((*plain_doc)["subgraphs"].empty());
  EXPECT_EQ(run_graphrt({"inspect", write_model("plain2.grt", every_kind_model())}).out.find("subgraphs"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
