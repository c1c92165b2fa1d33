// What an operator converter sees: the TFLite operator being converted and the graphrt
// model being built. One converter per TFLite builtin operator, in tools/importer/ops/.
#ifndef GRAPHRT_TOOLS_IMPORT_CONTEXT_H_
#define GRAPHRT_TOOLS_IMPORT_CONTEXT_H_

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graphrt/tools/model_def.h"
#include "tflite_generated.h"

namespace grt::tools {

// The blob dtype of a TFLite tensor type, or none when graphrt has no such type. With
// `unsigned_words`, uint32/uint64 are carried as int32/int64 words (the signal operators').
std::optional<DType> blob_dtype(tflite::TensorType type, bool unsigned_words = false);

// The bytes the importer writes into a blob itself, beyond the file's size, over the whole
// model: variables' initial values (one byte per element when they start at a non-zero
// zero point) and the converters' tables. A file's own constants are bounded by its size;
// these only by the shapes and counts it declares, so a few bytes could otherwise ask for
// gigabytes. Real models' state and tables are kilobytes.
inline constexpr uint64_t kMaxWrittenBytes = uint64_t{64} << 20;

// What an import has written itself, shared by the contexts of all its subgraphs.
struct WrittenBytes {
  uint64_t limit = kMaxWrittenBytes;  // the import's: the file's size + kMaxWrittenBytes
  uint64_t used = 0;
};

class ImportContext {
 public:
  // `written`: the import's budget for what it writes itself, shared by its subgraphs'
  // contexts.
  ImportContext(const tflite::Model* model, const tflite::SubGraph* subgraph, ModelDef* graph, WrittenBytes* written);

  // ---- The operator being converted (set by the importer before each converter runs) ----
  const tflite::Operator& op() const { return *op_; }
  void set_operator(const tflite::Operator* op, uint32_t index) {
    op_ = op;
    op_index_ = index;
    unsigned_words_ = false;
  }
  uint32_t op_index() const { return op_index_; }
  std::string op_name() const;  // e.g. "CONV_2D #3"
  template <typename T>
  const T* options() const {
    return op_->builtin_options_as<T>();
  }
  int input_count() const;
  int output_count() const;
  // The TFLite tensor index of input/output i; -1 for an absent optional input.
  int32_t input_index(int i) const;
  int32_t output_index(int i) const;
  // True when input i exists and is not an absent optional input (-1).
  bool has_input(int i) const { return input_index(i) >= 0; }

  // ---- TFLite tensors ----
  const tflite::Tensor* tensor(int32_t tflite_index) const;
  std::vector<int64_t> shape(int32_t tflite_index) const;
  DType dtype(int32_t tflite_index) const;  // fails the import on types graphrt lacks
  // The blob has no unsigned 32- and 64-bit types. A converter whose kernels read uint32 /
  // uint64 tensors as raw words calls this; until the next operator dtype() then answers
  // Int32 / Int64 for them (the same bytes) instead of failing the import.
  void accept_unsigned_words() { unsigned_words_ = true; }
  bool is_unsigned_word(int32_t tflite_index) const;  // UINT32 or UINT64
  // Has data in the model's buffers (and is not a model input, which the caller supplies).
  bool is_constant(int32_t tflite_index) const;
  // Listed in the subgraph's inputs / outputs.
  bool is_model_input(int32_t tflite_index) const;
  bool is_model_output(int32_t tflite_index) const;
  // Raw constant bytes (empty if not constant).
  std::vector<uint8_t> constant_bytes(int32_t tflite_index) const;
  template <typename T>
  std::vector<T> constant_values(int32_t tflite_index) const {
    const std::vector<uint8_t> bytes = constant_bytes(tflite_index);
    std::vector<T> v(bytes.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
    return v;
  }
  // Quantization of a TFLite tensor (scale 0 / zero point 0 when absent).
  float scale(int32_t tflite_index, size_t channel = 0) const;
  std::vector<float> scales(int32_t tflite_index) const;
  int32_t zero_point(int32_t tflite_index, size_t channel = 0) const;

  // ---- graphrt tensors ----
  // The graphrt tensor for a TFLite tensor, created on first use: a constant (bytes copied
  // into a 16-byte aligned buffer), an alias (after make_alias) or an activation. On a bad
  // index or an unsupported tensor it fails the import and returns 0; the importer then
  // discards the graph, so converters need not check.
  uint32_t graph_tensor(int32_t tflite_index);
  uint32_t input(int i) { return graph_tensor(input_index(i)); }
  uint32_t output(int i) { return graph_tensor(output_index(i)); }
  // Makes TFLite tensor `alias` share the bytes of `target` (reshape-like ops: no node).
  // Both must have the same dtype and byte size. The alias's graphrt tensor is created lazily
  // (kind Alias, pointing at the target's graphrt tensor) the first time it is used. When
  // `alias` must be an activation of its own (it is a model output, or its graphrt tensor
  // already exists), a `copy` node is emitted instead. Mismatches fail the import (fail()).
  void make_alias(int32_t alias, int32_t target);
  // The TFLite tensor `tflite_index` was made an alias of, or -1.
  int32_t alias_target(int32_t tflite_index) const;
  // A new constant 1-D int32 tensor, for IntArray arguments.
  uint32_t int_array(const std::string& name, const std::vector<int32_t>& values);
  // A new constant tensor with the given bytes (e.g. precomputed lookup tables).
  uint32_t constant(const std::string& name, DType dtype, std::vector<int64_t> shape, std::vector<uint8_t> bytes);
  // Both take their bytes from the import's WrittenBytes, and answer 0 with the import
  // failed past its limit.

  // Takes `bytes` more of what the import writes itself (every writer asks, initial values
  // before they are allocated); past the limit fails the import naming `what` and returns
  // false.
  bool reserve_written(uint64_t bytes, const std::string& what);
  // Whether `bytes` more would fit, without taking them: for a converter about to build a
  // table (constant and int_array then take its bytes), so that a table past the limit is
  // refused before it is built. Past the limit fails the import naming `what`.
  bool fits_written(uint64_t bytes, const std::string& what);

  // ---- Resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) ----
  // A variable is a State tensor of the blob; the RESOURCE tensor a VAR_HANDLE writes only
  // names it, so it gets no graphrt tensor of its own, just this binding.
  struct Variable {
    std::string container;
    std::string shared_name;
    uint32_t state;  // graphrt tensor
  };
  std::vector<Variable>& variables() { return variables_; }
  void bind_resource(int32_t resource_tensor, uint32_t state) { resource_state_[static_cast<size_t>(resource_tensor)] = state; }
  // The State tensor a RESOURCE tensor stands for, or -1 when no VAR_HANDLE bound it.
  int64_t resource_state(int32_t resource_tensor) const {
    if (resource_tensor < 0 || static_cast<size_t>(resource_tensor) >= resource_state_.size()) return -1;
    return resource_state_[static_cast<size_t>(resource_tensor)];
  }
  const tflite::SubGraph& subgraph() const { return *subgraph_; }

  // ---- Subgraphs (IF, WHILE) ----
  // `blob_index` maps each TFLite subgraph to its index in the blob's subgraph list (-1:
  // not imported; the main graph has none). `nested`: this context converts a subgraph.
  void set_subgraphs(const std::vector<int32_t>* blob_index, bool nested) {
    blob_subgraphs_ = blob_index;
    nested_ = nested;
  }
  int32_t blob_subgraph(int32_t tflite_index) const {
    if (blob_subgraphs_ == nullptr || tflite_index < 0 || static_cast<size_t>(tflite_index) >= blob_subgraphs_->size()) return -1;
    return (*blob_subgraphs_)[static_cast<size_t>(tflite_index)];
  }
  bool nested() const { return nested_; }

  // Emits a node calling `kernel`. workspace_bytes: what the kernel will request through
  // TVMBackendAllocWorkspace, counted with GRT_STACK_ALLOCATION_BYTES per request.
  void add_node(std::string_view kernel, std::vector<ArgDef> args, uint64_t workspace_bytes = 0);

  // Fails the conversion with a one-line reason (the importer prefixes the operator).
  // Returns false so converters can `return ctx.fail("...")`.
  bool fail(std::string message);
  const std::string& error() const { return error_; }

  ModelDef& graph() { return *graph_; }
  const tflite::Model& model() const { return *model_; }

 private:
  const tflite::Model* model_;
  const tflite::SubGraph* subgraph_;
  ModelDef* graph_;
  const tflite::Operator* op_ = nullptr;
  uint32_t op_index_ = 0;
  std::vector<int64_t> graph_index_;   // TFLite tensor -> graphrt tensor, -1 until used
  std::vector<int32_t> alias_target_;  // TFLite tensor -> TFLite tensor it aliases, or -1
  std::vector<int64_t> resource_state_;  // TFLite RESOURCE tensor -> graphrt State tensor, or -1
  std::vector<Variable> variables_;
  std::string error_;
  WrittenBytes* written_;
  bool unsigned_words_ = false;
  const std::vector<int32_t>* blob_subgraphs_ = nullptr;
  bool nested_ = false;
};

// A converter returns false after ctx.fail(...) when it cannot convert this instance (an
// unsupported type combination, say).
using OpConverter = bool (*)(ImportContext& ctx);

// The dtypes a converter accepts, as `graphrt import --list-operators` and docs/operators.md
// show them: one entry per accepted variant, each starting with a dtype name ("int8",
// "int16 (int8 weights)", "int8 to int32/int64"). What the converter accepts, not what
// TFLite defines: a variant it refuses is not listed. tests/cli/cli_operators_test.cpp fails
// for an entry without dtypes, and docs.operators_up_to_date when docs/operators.md is stale.
using DTypeList = std::vector<std::string>;

// Every dtype graphrt has, for converters that move bytes without reading them.
DTypeList every_dtype();

struct ConverterEntry {
  tflite::BuiltinOperator op;
  OpConverter converter;
  DTypeList dtypes;
};

// A custom operator's converter (builtin code CUSTOM), found by its custom_code name.
struct CustomConverterEntry {
  std::string name;  // "SignalWindow"
  OpConverter converter;
  DTypeList dtypes;
};

// Each family registers its converters by TFLite builtin operator, and custom operators by
// their custom_code name, with their dtypes.
struct ConverterTable {
  // Registering one operator twice is a programming error: throws std::logic_error.
  void add(tflite::BuiltinOperator op, OpConverter converter, DTypeList dtypes);
  void add_custom(const std::string& name, OpConverter converter, DTypeList dtypes);
  OpConverter find(tflite::BuiltinOperator op) const;    // nullptr when none
  OpConverter find_custom(std::string_view name) const;  // nullptr when none
  // The converter for an operator code, builtin or custom; nullptr when none.
  OpConverter find(const tflite::OperatorCode& code) const;
  std::vector<ConverterEntry> entries;
  std::vector<CustomConverterEntry> custom_entries;
};

// An operator a table converts, by its TFLite name.
struct SupportedOperator {
  std::string name;  // "CONV_2D", "CUSTOM:SignalWindow"
  DTypeList dtypes;
};

// The table's operators sorted by name: what `graphrt import --list-operators` prints.
std::vector<SupportedOperator> supported_operators(const ConverterTable& table);

// Every family's converters (what import_tflite uses by default).
const ConverterTable& builtin_converters();

void register_shape_ops(ConverterTable& table);        // ops/shape_ops.cpp (importer core)
void register_conv_ops(ConverterTable& table);         // ops/conv_ops.cpp
void register_dense_ops(ConverterTable& table);        // ops/dense_ops.cpp
void register_elementwise_ops(ConverterTable& table);  // ops/elementwise_ops.cpp
void register_pool_ops(ConverterTable& table);         // ops/pool_ops.cpp
void register_activation_ops(ConverterTable& table);   // ops/activation_ops.cpp
void register_binary_ops(ConverterTable& table);       // ops/binary_ops.cpp
void register_movement_ops(ConverterTable& table);     // ops/movement_ops.cpp
void register_reduce_ops(ConverterTable& table);       // ops/reduce_ops.cpp
void register_signal_ops(ConverterTable& table);       // ops/signal_ops.cpp (custom operators)
void register_state_ops(ConverterTable& table);        // ops/state_ops.cpp
void register_variable_ops(ConverterTable& table);     // ops/variable_ops.cpp
void register_control_ops(ConverterTable& table);      // ops/control_ops.cpp (IF, WHILE)

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_IMPORT_CONTEXT_H_
