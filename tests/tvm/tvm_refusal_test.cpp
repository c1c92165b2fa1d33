// Malformed TVM artifacts are refused with a message naming the node or param at fault.
#include <gtest/gtest.h>

#include "tiny_model.h"

namespace grt::test::tvm {
namespace {

using nlohmann::json;

// The import's message, or "" when it succeeded.
std::string refusal(const std::string& graph, const std::vector<uint8_t>& params) {
  tt::Artifacts artifacts;
  artifacts.graph_json = graph;
  artifacts.params = params;
  tt::ImportOptions options;
  options.kernels = tiny_kernel;
  tools::ModelDef model;
  std::string error;
  return tt::import_graph(artifacts, options, &model, nullptr, &error) ? "" : error;
}

std::string refusal(const json& graph) { return refusal(graph_text(graph), params_bytes(tiny_params())); }
std::string refusal(const std::vector<tt::Param>& params) { return refusal(graph_text(tiny_graph()), params_bytes(params)); }

void expect_mentions(const std::string& message, const std::string& what) {
  EXPECT_NE(message.find(what), std::string::npos) << "message: '" << message << "' does not mention '" << what << "'";
}

TEST(TvmRefusal, TheTinyModelItselfImports) { EXPECT_EQ(refusal(tiny_graph()), ""); }

TEST(TvmRefusal, TruncatedJson) {
  const std::string text = graph_text(tiny_graph());
  expect_mentions(refusal(text.substr(0, text.size() / 2), params_bytes(tiny_params())), "not valid JSON");
}

TEST(TvmRefusal, IllTypedAttributesNameTheNode) {
  json g = tiny_graph();
  g["nodes"][5]["attrs"]["num_outputs"] = json::array({1});
  expect_mentions(refusal(g), "node 5 'tvmgen_default_fused_nn_dense_add'");
  g = tiny_graph();
  g["nodes"][2]["inputs"][0] = "x";
  expect_mentions(refusal(g), "node 2 'tvmgen_default_fused_add_nn_relu': an input is not [node, index, version]");
  g = tiny_graph();
  g["attrs"]["shape"][1][3] = {4, "8"};
  expect_mentions(refusal(g), "attrs.shape item 3");
  g = tiny_graph();
  g["nodes"][8]["attrs"].erase("func_name");
  expect_mentions(refusal(g), "node 8 'tvmgen_default_fused_multiply': no \"func_name\"");
}

TEST(TvmRefusal, AttributeListsOfTheWrongLength) {
  json g = tiny_graph();
  g["attrs"]["dltype"][1].erase(0);
  expect_mentions(refusal(g), "attrs.dltype has 8 items for 9 entries");
}

TEST(TvmRefusal, ParamsWithAWrongMagic) {
  std::vector<uint8_t> params = params_bytes(tiny_params());
  params[0] ^= 1;
  expect_mentions(refusal(graph_text(tiny_graph()), params), "params: magic is");
}

TEST(TvmRefusal, TruncatedParamsNameTheArray) {
  const std::vector<uint8_t> params = params_bytes(tiny_params());
  // The last array in the file is p2 (16 data bytes): cut into its data.
  expect_mentions(refusal(graph_text(tiny_graph()), {params.begin(), params.end() - 5}), "params: 'p2': truncated data");
  // Cut into p0's header (its array starts after p3's).
  const size_t names = 8 + 8 + 8 + 4 * (8 + 2) + 8;
  const size_t p3_array = 8 + 8 + 8 + 4 + 4 + 2 * 8 + 8 + 16;
  expect_mentions(refusal(graph_text(tiny_graph()), {params.begin(), params.begin() + static_cast<long>(names + p3_array + 12)}),
                  "params: 'p0': truncated array header");
}

TEST(TvmRefusal, ArrayByteSizeDisagreeingWithItsShape) {
  std::vector<tt::Param> params = tiny_params();
  params[1].bytes.pop_back();  // p0: 31 bytes for float32[8]
  expect_mentions(refusal(params), "params: 'p0': holds 31 data bytes, its dtype and shape make 32");
}

TEST(TvmRefusal, MissingParamIsNamed) {
  std::vector<tt::Param> params = tiny_params();
  params.erase(params.begin() + 2);  // p1
  expect_mentions(refusal(params), "param 'p1' (node 3 'p1') is missing from the params");
}

TEST(TvmRefusal, ParamOfTheWrongShapeOrDtypeIsNamed) {
  std::vector<tt::Param> params = tiny_params();
  params[1].shape = {2, 4};  // p0, same bytes
  expect_mentions(refusal(params), "param 'p0' has shape [2,4], the graph says [8]");
  params = tiny_params();
  params[1].dtype = {kDLInt, 32, 1};
  expect_mentions(refusal(params), "param 'p0': its dtype (code 0, 32 bits) is not the graph's float32");
}

TEST(TvmRefusal, NodeReadingAMissingEntry) {
  json g = tiny_graph();
  g["nodes"][5]["inputs"][0] = {2, 1, 0};
  expect_mentions(refusal(g), "node 5 'tvmgen_default_fused_nn_dense_add' reads output 1 of node 2 'tvmgen_default_fused_add_nn_relu', which has 1");
  g = tiny_graph();
  g["nodes"][5]["inputs"][0] = {42, 0, 0};
  expect_mentions(refusal(g), "node 5 'tvmgen_default_fused_nn_dense_add' reads node 42, but the graph has 9");
}

TEST(TvmRefusal, CycleIsNamed) {
  json g = tiny_graph();
  g["nodes"][2]["inputs"][0] = {5, 0, 0};  // relu reads the dense that reads it
  expect_mentions(refusal(g), "node 2 'tvmgen_default_fused_add_nn_relu' reads node 5 'tvmgen_default_fused_nn_dense_add', which is not before it: a cycle");
  g = tiny_graph();
  g["nodes"][2]["inputs"][0] = {2, 0, 0};  // itself
  expect_mentions(refusal(g), "which is not before it");
}

TEST(TvmRefusal, OneFunctionCalledWithTwoSignatures) {
  json g = tiny_graph();
  g["nodes"][8]["attrs"]["func_name"] = "tvmgen_default_fused_add_nn_relu";
  g["nodes"][8]["name"] = "second_relu";
  expect_mentions(refusal(g), "node 8 'second_relu' calls tvmgen_default_fused_add_nn_relu with other arguments than node 2");
}

TEST(TvmRefusal, UnsupportedDtypeIsNamed) {
  json g = tiny_graph();
  g["attrs"]["dltype"][1][0] = "float16";
  expect_mentions(refusal(g), "node 0 'x': dtype 'float16' is not supported");
}

TEST(TvmRefusal, OutputThatIsAParamOrAnInput) {
  json g = tiny_graph();
  g["heads"][1] = {1, 0, 0};
  expect_mentions(refusal(g), "graph output node 1 'p0' is a param or an input");
}

TEST(TvmRefusal, WithoutOperatorsOrMetadataWorkspacesAreNotGuessed) {
  tools::ModelDef model;
  std::string error;
  EXPECT_FALSE(tt::import_graph(tiny_artifacts(), tt::ImportOptions{}, &model, nullptr, &error));
  expect_mentions(error, "--kernels");
}

TEST(TvmRefusal, AFailingOperatorStopsTheMeasurementWithItsNode) {
  tt::ImportOptions options;
  options.kernels = [](const std::string& name) -> TVMBackendPackedCFunc {
    if (name != "tvmgen_default_fused_multiply") return tiny_kernel(name);
    return [](TVMValue*, int*, int, TVMValue*, int*, void*) {
      TVMAPISetLastError("multiply refuses");
      return -1;
    };
  };
  tools::ModelDef model;
  std::string error;
  EXPECT_FALSE(tt::import_graph(tiny_artifacts(), options, &model, nullptr, &error));
  expect_mentions(error, "measuring workspaces");
  expect_mentions(error, "multiply refuses");
}

TEST(TvmRefusal, ContainerFormatsAreToldApartByContent) {
  const std::vector<uint8_t> params = params_bytes(tiny_params());
  EXPECT_EQ(tt::detect_format(params.data(), params.size()), tt::Format::kUnknown);
  const std::string text = graph_text(tiny_graph());
  EXPECT_EQ(tt::detect_format(reinterpret_cast<const uint8_t*>(text.data()), text.size()), tt::Format::kGraphJson);
  std::vector<uint8_t> container = graph_data(text, params);
  container.pop_back();  // lengths no longer add up
  EXPECT_EQ(tt::detect_format(container.data(), container.size()), tt::Format::kUnknown);
}

}  // namespace
}  // namespace grt::test::tvm
