#include "tiny_model.h"

#include <cstring>

#include "ops/tiny_ops.h"

namespace grt::test::tvm {
namespace {

using nlohmann::json;

json null_node(const std::string& name) { return {{"op", "null"}, {"name", name}, {"inputs", json::array()}}; }

json op_node(const std::string& func, int inputs, const json& refs, bool flatten = false) {
  return {{"op", "tvm_op"},
          {"name", func},
          {"attrs",
           {{"num_outputs", "1"}, {"num_inputs", std::to_string(inputs)}, {"flatten_data", flatten ? "1" : "0"}, {"func_name", func},
            {"hash", "0123456789abcdef"}}},
          {"inputs", refs}};
}

constexpr std::array<float, 8> kP0 = {0.5f, -1.0f, 0.25f, 2.0f, -0.5f, 1.0f, 0.0f, -2.0f};
constexpr std::array<float, 4> kP2 = {0.1f, -0.2f, 0.3f, -0.4f};
constexpr std::array<float, 4> kP3 = {2.0f, -1.0f, 0.5f, 3.0f};

float weight(int o, int k) { return static_cast<float>((o * 8 + k) % 7 - 3) * 0.25f; }

template <typename T>
tt::Param param(const std::string& name, std::vector<int64_t> shape, const T* values, size_t count) {
  tt::Param p;
  p.name = name;
  p.dtype = {kDLFloat, 32, 1};
  p.shape = std::move(shape);
  p.bytes.resize(count * sizeof(T));
  std::memcpy(p.bytes.data(), values, p.bytes.size());
  return p;
}

}  // namespace

json tiny_graph() {
  json nodes = json::array();
  nodes.push_back(null_node("x"));                                                                        // 0
  nodes.push_back(null_node("p0"));                                                                       // 1
  nodes.push_back(op_node("tvmgen_default_fused_add_nn_relu", 2, {{0, 0, 0}, {1, 0, 0}}));                // 2
  nodes.push_back(null_node("p1"));                                                                       // 3
  nodes.push_back(null_node("p2"));                                                                       // 4
  nodes.push_back(op_node("tvmgen_default_fused_nn_dense_add", 3, {{2, 0, 0}, {3, 0, 0}, {4, 0, 0}}));    // 5
  json nop = op_node("__nop", 1, {{5, 0, 0}});
  nop["name"] = "reshape_nop";
  nodes.push_back(nop);                                                                                   // 6
  nodes.push_back(null_node("p3"));                                                                       // 7
  nodes.push_back(op_node("tvmgen_default_fused_multiply", 2, {{6, 0, 0}, {7, 0, 0}}, true));             // 8
  const json shapes = json::array({json::array({1, 8}), json::array({8}), json::array({1, 8}), json::array({4, 8}), json::array({4}),
                                   json::array({1, 4}), json::array({4}), json::array({2, 2}), json::array({2, 2})});
  json dltypes = json::array();
  for (size_t i = 0; i < shapes.size(); ++i) dltypes.push_back("float32");
  return {{"nodes", nodes},
          {"arg_nodes", {0, 1, 3, 4, 7}},
          {"heads", {{8, 0, 0}, {5, 0, 0}}},
          {"attrs",
           {{"dltype", {"list_str", dltypes}},
            {"device_index", {"list_int", {1, 1, 1, 1, 1, 1, 1, 1, 1}}},
            {"storage_id", {"list_int", {0, 1, 2, 3, 4, 5, 5, 6, 7}}},
            {"shape", {"list_shape", shapes}}}},
          {"node_row_ptr", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}};
}

std::vector<tt::Param> tiny_params() {
  std::array<float, 32> p1{};
  for (int o = 0; o < 4; ++o) {
    for (int k = 0; k < 8; ++k) p1[static_cast<size_t>(o * 8 + k)] = weight(o, k);
  }
  // Not in graph order, as TVM's files are not.
  return {param("p3", {2, 2}, kP3.data(), 4), param("p0", {8}, kP0.data(), 8), param("p1", {4, 8}, p1.data(), 32),
          param("p2", {4}, kP2.data(), 4)};
}

TVMBackendPackedCFunc tiny_kernel(const std::string& name) {
  // Generated code spells the parameters void* and int32_t*: the same ABI.
  if (name == "tvmgen_default_fused_add_nn_relu") return reinterpret_cast<TVMBackendPackedCFunc>(tvmgen_default_fused_add_nn_relu);
  if (name == "tvmgen_default_fused_nn_dense_add") return reinterpret_cast<TVMBackendPackedCFunc>(tvmgen_default_fused_nn_dense_add);
  if (name == "tvmgen_default_fused_multiply") return reinterpret_cast<TVMBackendPackedCFunc>(tvmgen_default_fused_multiply);
  return nullptr;
}

std::string graph_text(const json& graph) { return graph.dump(2); }

std::vector<uint8_t> params_bytes(const std::vector<tt::Param>& params) { return tt::write_params(params); }

tt::Artifacts tiny_artifacts() {
  tt::Artifacts a;
  a.graph_json = graph_text(tiny_graph());
  a.params = params_bytes(tiny_params());
  return a;
}

std::vector<uint8_t> graph_data(const std::string& json_text, const std::vector<uint8_t>& params) {
  std::vector<uint8_t> out;
  out.reserve(8 + json_text.size() + params.size());
  const auto put = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  put(static_cast<uint32_t>(json_text.size()));
  put(static_cast<uint32_t>(params.size()));
  out.insert(out.end(), json_text.begin(), json_text.end());
  out.insert(out.end(), params.begin(), params.end());
  return out;
}

std::array<std::array<float, 4>, 2> tiny_expected(const std::array<float, 8>& x) {
  std::array<float, 8> h{};
  for (size_t i = 0; i < 8; ++i) h[i] = std::max(x[i] + kP0[i], 0.0f);
  std::array<std::array<float, 4>, 2> out{};
  for (int o = 0; o < 4; ++o) {
    float acc = kP2[static_cast<size_t>(o)];
    for (int k = 0; k < 8; ++k) acc += h[static_cast<size_t>(k)] * weight(o, k);
    out[1][static_cast<size_t>(o)] = acc;
    out[0][static_cast<size_t>(o)] = acc * kP3[static_cast<size_t>(o)];
  }
  return out;
}

}  // namespace grt::test::tvm
