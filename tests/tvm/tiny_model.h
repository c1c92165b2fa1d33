// The tests' own model in TVM's graph-executor format: x[1,8] -> add+relu (p0) -> dense (p1,
// p2, two workspace allocations) -> __nop reshape to [4] -> multiply by p3[2,2] with
// flatten_data; outputs: the multiply and the dense. Graph JSON and params are written here,
// the operators by hand in ops/tiny_ops.c.
#ifndef GRAPHRT_TESTS_TVM_TINY_MODEL_H_
#define GRAPHRT_TESTS_TVM_TINY_MODEL_H_

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "graphrt/tools/tvm/params.h"
#include "graphrt/tools/tvm/tvm_import.h"

namespace grt::test::tvm {

namespace tt = grt::tools::tvm;

// The workspace the dense node needs from graphrt's stack: (16 + 128) + (16 + 16).
constexpr uint64_t kDenseWorkspace = 176;

nlohmann::json tiny_graph();
std::vector<tt::Param> tiny_params();
// The linked operators by name.
TVMBackendPackedCFunc tiny_kernel(const std::string& name);

// Graph JSON text and params bytes as TVM writes them.
std::string graph_text(const nlohmann::json& graph);
std::vector<uint8_t> params_bytes(const std::vector<tt::Param>& params);
tt::Artifacts tiny_artifacts();

// Kenning's container of a graph and params.
std::vector<uint8_t> graph_data(const std::string& json, const std::vector<uint8_t>& params);

// What the model computes for x: {multiply output [4], dense output [4]}.
std::array<std::array<float, 4>, 2> tiny_expected(const std::array<float, 8>& x);

}  // namespace grt::test::tvm

#endif  // GRAPHRT_TESTS_TVM_TINY_MODEL_H_
