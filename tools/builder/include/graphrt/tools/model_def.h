// A host-side, mutable picture of a graphrt model: what the importer produces, the
// planner rewrites, the tests break on purpose, and serialize() turns into a blob.
#ifndef GRAPHRT_TOOLS_MODEL_DEF_H_
#define GRAPHRT_TOOLS_MODEL_DEF_H_

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graphrt_generated.h"

namespace grt::tools {

using DType = fb::DType;
using TensorKind = fb::TensorKind;
using ArgKind = fb::ArgKind;

size_t dtype_bytes(DType dtype);
const char* dtype_name(DType dtype);

struct QuantDef {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t axis = 0;
};

struct TensorDef {
  std::string name;
  DType dtype = DType::Int8;
  std::vector<int64_t> shape;
  std::optional<QuantDef> quantization;
  TensorKind kind = TensorKind::Activation;
  uint32_t buffer = 0;    // Constant; State: initial bytes (empty: zeros)
  uint32_t pool = 0;      // Activation, State
  uint64_t offset = 0;    // Activation, State: offset in pool; Alias: offset into target
  uint32_t alias_of = 0;  // Alias

  uint64_t elements() const;
  uint64_t bytes() const { return elements() * dtype_bytes(dtype); }
};

struct ArgDef {
  ArgKind kind = ArgKind::None;
  int64_t value = 0;

  static ArgDef input(uint32_t tensor) { return {ArgKind::Input, tensor}; }
  static ArgDef output(uint32_t tensor) { return {ArgKind::Output, tensor}; }
  static ArgDef int_array(uint32_t tensor) { return {ArgKind::IntArray, tensor}; }
  static ArgDef integer(int64_t v) { return {ArgKind::Int, v}; }
  static ArgDef real(double v);
  static ArgDef none() { return {ArgKind::None, 0}; }
  static ArgDef subgraph(uint32_t index) { return {ArgKind::Subgraph, index}; }
  double as_real() const;
};

struct NodeDef {
  uint32_t kernel = 0;
  std::vector<ArgDef> args;
  uint64_t workspace_bytes = 0;
  uint32_t workspace_pool = 0;
  uint64_t workspace_offset = 0;
  std::string name;
};

struct PoolDef {
  std::string name;
  uint64_t size = 0;
  uint32_t alignment = 16;
  std::string placement;
};

// A graph control nodes invoke (schema 1.2): its nodes and tensors are ranges of the model's
// lists that follow the main graph's (and the previous subgraph's) in order.
struct SubgraphDef {
  std::string name;
  uint32_t first_node = 0;
  uint32_t node_count = 0;
  uint32_t first_tensor = 0;
  uint32_t tensor_count = 0;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

struct ModelDef {
  uint16_t version_major = 1;
  uint16_t version_minor = 2;  // 1.1: TensorKind State; 1.2: subgraphs
  std::string name;
  std::string producer;
  std::vector<std::string> kernels;
  std::vector<TensorDef> tensors;
  std::vector<NodeDef> nodes;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<PoolDef> pools;
  std::vector<SubgraphDef> subgraphs;

  // The nodes the main graph runs (those before the first subgraph's).
  uint32_t main_node_count() const {
    return subgraphs.empty() ? static_cast<uint32_t>(nodes.size()) : subgraphs.front().first_node;
  }
  // Starts a subgraph at the current end of the node and tensor lists: what is added until
  // the next call (or the end) belongs to it. Returns its index.
  uint32_t begin_subgraph(std::string subgraph_name);
  // Closes the last subgraph's ranges at the current ends of the lists.
  void end_subgraph();

  // Index of a kernel name, added if new.
  uint32_t kernel_index(std::string_view kernel);
  uint32_t add_activation(std::string tensor_name, DType dtype, std::vector<int64_t> shape,
                          std::optional<QuantDef> quantization = std::nullopt);
  uint32_t add_constant(std::string tensor_name, DType dtype, std::vector<int64_t> shape,
                        std::vector<uint8_t> bytes, std::optional<QuantDef> quantization = std::nullopt);
  template <typename T>
  uint32_t add_constant_values(std::string tensor_name, DType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
    std::vector<uint8_t> bytes(values.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return add_constant(std::move(tensor_name), dtype, std::move(shape), std::move(bytes));
  }
  // A State tensor (kept across runs) starting from `initial`: its bytes, or empty for zeros.
  uint32_t add_state(std::string tensor_name, DType dtype, std::vector<int64_t> shape, std::vector<uint8_t> initial,
                     std::optional<QuantDef> quantization = std::nullopt);
  // A 1-D int32 constant, for IntArray arguments.
  uint32_t add_int_array(std::string tensor_name, const std::vector<int32_t>& values);
  uint32_t add_alias(std::string tensor_name, uint32_t target, std::vector<int64_t> shape, uint64_t offset = 0);
  uint32_t add_node(std::string_view kernel, std::vector<ArgDef> args, std::string name = {});

  // The tensor whose bytes `tensor` uses (itself unless an alias) and the offset into it.
  uint32_t root_of(uint32_t tensor, uint64_t* offset = nullptr) const;
};

struct SerializeOptions {
  // Constants on 16-byte boundaries, as the runtime requires. Off only to test the loader.
  bool align_constants = true;
};

// The blob. Constants are 16-byte aligned inside it; load it from 16-byte aligned memory.
std::vector<uint8_t> serialize(const ModelDef& model, const SerializeOptions& options = {});

// Reads a blob back. The bytes must already have passed FlatBuffers' verifier (see
// verify_blob); returns false with a message otherwise.
bool parse(const uint8_t* data, size_t size, ModelDef* out, std::string* error);

// Identifier and FlatBuffers verification, with the reason on failure.
bool verify_blob(const uint8_t* data, size_t size, std::string* error);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_MODEL_DEF_H_
