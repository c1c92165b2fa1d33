#include "graphrt/tools/import_context.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "graphrt/tools/tflite_operator_codes.h"

namespace grt::tools {
namespace {

template <typename T>
uint32_t count_of(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

bool contains(const flatbuffers::Vector<int32_t>* list, int32_t value) {
  for (uint32_t i = 0; i < count_of(list); ++i) {
    if (list->Get(i) == value) return true;
  }
  return false;
}

uint64_t element_count(const std::vector<int64_t>& shape) {
  uint64_t n = 1;
  for (const int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

}  // namespace

ImportContext::ImportContext(const tflite::Model* model, const tflite::SubGraph* subgraph, ModelDef* graph, WrittenBytes* written)
    : model_(model), subgraph_(subgraph), graph_(graph), written_(written) {
  const uint32_t tensors = count_of(subgraph_->tensors());
  graph_index_.assign(tensors, -1);
  alias_target_.assign(tensors, -1);
  resource_state_.assign(tensors, -1);
}

std::string ImportContext::op_name() const {
  if (op_ == nullptr) return "model";
  std::string name = "operator";
  const auto* codes = model_->operator_codes();
  if (op_->opcode_index() < count_of(codes)) name = operator_code_name(*codes->Get(op_->opcode_index()));
  return name + " #" + std::to_string(op_index_);
}

int ImportContext::input_count() const { return static_cast<int>(count_of(op_->inputs())); }
int ImportContext::output_count() const { return static_cast<int>(count_of(op_->outputs())); }

int32_t ImportContext::input_index(int i) const {
  if (i < 0 || i >= input_count()) return -1;
  return op_->inputs()->Get(static_cast<uint32_t>(i));
}

int32_t ImportContext::output_index(int i) const {
  if (i < 0 || i >= output_count()) return -1;
  return op_->outputs()->Get(static_cast<uint32_t>(i));
}

const tflite::Tensor* ImportContext::tensor(int32_t tflite_index) const {
  const uint32_t count = count_of(subgraph_->tensors());
  if (tflite_index < 0 || static_cast<uint32_t>(tflite_index) >= count) return nullptr;
  return subgraph_->tensors()->Get(static_cast<uint32_t>(tflite_index));
}

std::vector<int64_t> ImportContext::shape(int32_t tflite_index) const {
  std::vector<int64_t> dims;
  const tflite::Tensor* t = tensor(tflite_index);
  if (t == nullptr || t->shape() == nullptr) return dims;
  for (const int32_t d : *t->shape()) dims.push_back(d);
  return dims;
}

std::optional<DType> blob_dtype(tflite::TensorType type, bool unsigned_words) {
  switch (type) {
    case tflite::TensorType::INT8: return DType::Int8;
    case tflite::TensorType::UINT8: return DType::UInt8;
    case tflite::TensorType::INT16: return DType::Int16;
    case tflite::TensorType::INT32: return DType::Int32;
    case tflite::TensorType::INT64: return DType::Int64;
    case tflite::TensorType::FLOAT32: return DType::Float32;
    case tflite::TensorType::BOOL: return DType::Bool;
    case tflite::TensorType::UINT32:
      if (unsigned_words) return DType::Int32;
      break;
    case tflite::TensorType::UINT64:
      if (unsigned_words) return DType::Int64;
      break;
    default: break;
  }
  return std::nullopt;
}

DType ImportContext::dtype(int32_t tflite_index) const {
  const tflite::Tensor* t = tensor(tflite_index);
  if (t == nullptr) return DType::Int8;
  if (const std::optional<DType> d = blob_dtype(t->type(), unsigned_words_)) return *d;
  // dtype() is const for converters' convenience; recording the failure is not a change of
  // the model being imported.
  const char* type_name = tflite::EnumNameTensorType(t->type());
  const_cast<ImportContext*>(this)->fail("tensor '" + (t->name() ? t->name()->str() : std::string()) + "' (#" +
                                         std::to_string(tflite_index) + ") has type " +
                                         (type_name[0] != '\0' ? type_name : std::to_string(static_cast<int>(t->type()))) +
                                         ", which graphrt does not support");
  return DType::Int8;
}

bool ImportContext::is_unsigned_word(int32_t tflite_index) const {
  const tflite::Tensor* t = tensor(tflite_index);
  return t != nullptr && (t->type() == tflite::TensorType::UINT32 || t->type() == tflite::TensorType::UINT64);
}

bool ImportContext::is_model_input(int32_t tflite_index) const { return contains(subgraph_->inputs(), tflite_index); }
bool ImportContext::is_model_output(int32_t tflite_index) const { return contains(subgraph_->outputs(), tflite_index); }

bool ImportContext::is_constant(int32_t tflite_index) const {
  const tflite::Tensor* t = tensor(tflite_index);
  if (t == nullptr || is_model_input(tflite_index)) return false;
  const auto* buffers = model_->buffers();
  if (t->buffer() >= count_of(buffers)) return false;
  const auto* data = buffers->Get(t->buffer())->data();
  return data != nullptr && data->size() != 0;
}

std::vector<uint8_t> ImportContext::constant_bytes(int32_t tflite_index) const {
  if (!is_constant(tflite_index)) return {};
  const auto* data = model_->buffers()->Get(tensor(tflite_index)->buffer())->data();
  return std::vector<uint8_t>(data->begin(), data->end());
}

float ImportContext::scale(int32_t tflite_index, size_t channel) const {
  const std::vector<float> all = scales(tflite_index);
  if (channel < all.size()) return all[channel];
  return all.size() == 1 ? all[0] : 0.0f;  // per-tensor scale applies to every channel
}

std::vector<float> ImportContext::scales(int32_t tflite_index) const {
  const tflite::Tensor* t = tensor(tflite_index);
  if (t == nullptr || t->quantization() == nullptr || t->quantization()->scale() == nullptr) return {};
  const auto* s = t->quantization()->scale();
  return std::vector<float>(s->begin(), s->end());
}

int32_t ImportContext::zero_point(int32_t tflite_index, size_t channel) const {
  const tflite::Tensor* t = tensor(tflite_index);
  if (t == nullptr || t->quantization() == nullptr || t->quantization()->zero_point() == nullptr) return 0;
  const auto* zp = t->quantization()->zero_point();
  if (channel < zp->size()) return static_cast<int32_t>(zp->Get(static_cast<uint32_t>(channel)));
  return zp->size() == 1 ? static_cast<int32_t>(zp->Get(0)) : 0;
}

// The graphrt view of a TFLite tensor's description, with the checks every kind shares.
namespace {

struct TensorFacts {
  std::string name;
  DType dtype = DType::Int8;
  std::vector<int64_t> shape;
  std::optional<QuantDef> quantization;
};

}  // namespace

uint32_t ImportContext::graph_tensor(int32_t tflite_index) {
  const tflite::Tensor* t = tensor(tflite_index);
  if (t == nullptr) {
    fail("tensor index " + std::to_string(tflite_index) + " is out of range (the subgraph has " +
         std::to_string(graph_index_.size()) + " tensors)");
    return 0;
  }
  const auto slot = static_cast<size_t>(tflite_index);
  if (graph_index_[slot] >= 0) return static_cast<uint32_t>(graph_index_[slot]);

  TensorFacts facts;
  facts.name = t->name() != nullptr && t->name()->size() != 0 ? t->name()->str() : "tensor" + std::to_string(tflite_index);
  facts.dtype = dtype(tflite_index);
  facts.shape = shape(tflite_index);
  // The runtime refuses tensors past 2^40 bytes; refuse them here, with the tensor's name.
  constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 40;
  uint64_t elements = 1;
  for (const int64_t d : facts.shape) {
    if (d < 0) {
      fail("tensor '" + facts.name + "' has a dynamic shape; graphrt needs every dimension known");
      return 0;
    }
    if (d != 0 && elements > kMaxTensorBytes / static_cast<uint64_t>(d)) {
      fail("tensor '" + facts.name + "' is larger than graphrt supports (2^40 bytes)");
      return 0;
    }
    elements *= static_cast<uint64_t>(d);
  }
  if (elements > kMaxTensorBytes / 8) {
    fail("tensor '" + facts.name + "' is larger than graphrt supports (2^40 bytes)");
    return 0;
  }
  // Kernels count elements in 32 bits and refuse larger tensors at init; refusing here
  // costs nothing, where planning and sizing pools for such a model first costs gigabytes.
  if (elements > uint64_t{INT32_MAX}) {
    fail("tensor '" + facts.name + "' has " + std::to_string(elements) + " elements; graphrt's kernels take at most 2147483647");
    return 0;
  }
  if (const auto* q = t->quantization(); q != nullptr && q->scale() != nullptr && q->scale()->size() != 0) {
    if (q->details_type() != tflite::QuantizationDetails::NONE) {
      fail("tensor '" + facts.name + "' uses custom quantization, which graphrt does not support");
      return 0;
    }
    QuantDef quant;
    quant.scale.assign(q->scale()->begin(), q->scale()->end());
    for (const float scale : quant.scale) {
      if (!std::isfinite(scale) || scale < 0.0f) {
        fail("tensor '" + facts.name + "' has an invalid quantization scale " + std::to_string(scale));
        return 0;
      }
    }
    if (q->zero_point() != nullptr) quant.zero_point.assign(q->zero_point()->begin(), q->zero_point()->end());
    if (quant.zero_point.empty()) quant.zero_point.assign(quant.scale.size(), 0);
    if (quant.zero_point.size() != quant.scale.size()) {
      fail("tensor '" + facts.name + "' has " + std::to_string(quant.scale.size()) + " scales but " +
           std::to_string(quant.zero_point.size()) + " zero points");
      return 0;
    }
    quant.axis = q->quantized_dimension();
    facts.quantization = std::move(quant);
  }
  if (!error_.empty()) return 0;

  uint32_t index = 0;
  if (const int32_t target = alias_target_[slot]; target >= 0) {
    const uint32_t target_graph = graph_tensor(target);
    if (!error_.empty()) return 0;
    index = graph_->add_alias(facts.name, target_graph, facts.shape);
    if (facts.quantization) graph_->tensors[index].quantization = facts.quantization;
  } else if (t->is_variable()) {
    // TFLite variable tensors (SVDF and LSTM state) start, as in TFLM, from their zero
    // point (int8) or zeros, whatever bytes the file holds for them.
    std::vector<uint8_t> initial;
    const int64_t zero = facts.quantization ? facts.quantization->zero_point.front() : 0;
    if (facts.dtype == DType::Int8 && zero != 0) {
      const uint64_t bytes = element_count(facts.shape);
      if (!reserve_written(bytes, "the initial values of variable tensor '" + facts.name + "' (zero point " + std::to_string(zero) + ")")) {
        return 0;
      }
      initial.assign(bytes, static_cast<uint8_t>(zero));
    }
    index = graph_->add_state(facts.name, facts.dtype, facts.shape, std::move(initial), facts.quantization);
  } else if (is_constant(tflite_index)) {
    std::vector<uint8_t> bytes = constant_bytes(tflite_index);
    const uint64_t expected = element_count(facts.shape) * dtype_bytes(facts.dtype);
    if (bytes.size() != expected) {
      fail("constant tensor '" + facts.name + "' has " + std::to_string(bytes.size()) + " bytes of data, its shape needs " +
           std::to_string(expected));
      return 0;
    }
    index = graph_->add_constant(facts.name, facts.dtype, facts.shape, std::move(bytes), facts.quantization);
  } else {
    index = graph_->add_activation(facts.name, facts.dtype, facts.shape, facts.quantization);
  }
  graph_index_[slot] = index;
  return index;
}

bool ImportContext::fits_written(uint64_t bytes, const std::string& what) {
  const WrittenBytes& written = *written_;
  if (bytes <= written.limit - std::min(written.used, written.limit)) return true;
  fail(what + " would take " + std::to_string(bytes) + " bytes of the blob, past what graphrt writes itself for this model (" +
       std::to_string(written.limit) + " bytes: the file's size and " + std::to_string(kMaxWrittenBytes >> 20) +
       " MiB of tables and initial values; " + std::to_string(written.used) + " written before)");
  return false;
}

bool ImportContext::reserve_written(uint64_t bytes, const std::string& what) {
  if (!fits_written(bytes, what)) return false;
  written_->used += bytes;
  return true;
}

void ImportContext::make_alias(int32_t alias, int32_t target) {
  const tflite::Tensor* alias_tensor = tensor(alias);
  const tflite::Tensor* target_tensor = tensor(target);
  if (alias_tensor == nullptr || target_tensor == nullptr) {
    fail("alias of tensor " + std::to_string(target) + " as tensor " + std::to_string(alias) + ": index out of range");
    return;
  }
  const std::string alias_name = alias_tensor->name() != nullptr ? alias_tensor->name()->str() : std::to_string(alias);
  if (alias_tensor->type() != target_tensor->type()) {
    fail("output '" + alias_name + "' has a different type than its input; an alias cannot convert");
    return;
  }
  const uint64_t alias_bytes = element_count(shape(alias)) * dtype_bytes(dtype(alias));
  const uint64_t target_bytes = element_count(shape(target)) * dtype_bytes(dtype(target));
  if (!error_.empty()) return;
  if (alias_bytes != target_bytes) {
    fail("output '" + alias_name + "' has " + std::to_string(alias_bytes) + " bytes, its input " + std::to_string(target_bytes));
    return;
  }
  if (is_model_input(alias) || is_constant(alias) || alias_target_[static_cast<size_t>(alias)] >= 0) {
    fail("output '" + alias_name + "' is a model input, a constant or already written");
    return;
  }
  // A cycle can only come from a malformed graph (an operator reading its own output).
  for (int32_t cursor = target; cursor >= 0; cursor = alias_target_[static_cast<size_t>(cursor)]) {
    if (cursor == alias) {
      fail("output '" + alias_name + "' would alias itself");
      return;
    }
  }
  // Model outputs must stay activations of their own (the loader's rule), and a tensor
  // already handed out as an activation cannot become an alias afterwards: copy instead.
  if (is_model_output(alias) || graph_index_[static_cast<size_t>(alias)] >= 0) {
    const uint32_t from = graph_tensor(target);
    const uint32_t to = graph_tensor(alias);
    if (!error_.empty()) return;
    add_node("copy", {ArgDef::input(from), ArgDef::output(to)});
    return;
  }
  alias_target_[static_cast<size_t>(alias)] = target;
}

int32_t ImportContext::alias_target(int32_t tflite_index) const {
  if (tflite_index < 0 || static_cast<size_t>(tflite_index) >= alias_target_.size()) return -1;
  return alias_target_[static_cast<size_t>(tflite_index)];
}

uint32_t ImportContext::int_array(const std::string& name, const std::vector<int32_t>& values) {
  if (!reserve_written(values.size() * sizeof(int32_t), "table '" + name + "'")) return 0;
  return graph_->add_int_array(name, values);
}

uint32_t ImportContext::constant(const std::string& name, DType dtype, std::vector<int64_t> shape, std::vector<uint8_t> bytes) {
  if (!reserve_written(bytes.size(), "table '" + name + "'")) return 0;
  return graph_->add_constant(name, dtype, std::move(shape), std::move(bytes));
}

void ImportContext::add_node(std::string_view kernel, std::vector<ArgDef> args, uint64_t workspace_bytes) {
  const uint32_t index = graph_->add_node(kernel, std::move(args), op_name());
  graph_->nodes[index].workspace_bytes = workspace_bytes;
}

bool ImportContext::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);  // the first reason is the real one
  return false;
}

DTypeList every_dtype() {
  DTypeList names;
  for (const DType dtype : fb::EnumValuesDType()) names.emplace_back(dtype_name(dtype));
  return names;
}

void ConverterTable::add(tflite::BuiltinOperator op, OpConverter converter, DTypeList dtypes) {
  if (find(op) != nullptr) throw std::logic_error("two converters registered for " + builtin_name(op));
  entries.push_back({op, converter, std::move(dtypes)});
}

void ConverterTable::add_custom(const std::string& name, OpConverter converter, DTypeList dtypes) {
  if (find_custom(name) != nullptr) throw std::logic_error("two converters registered for CUSTOM:" + name);
  custom_entries.push_back({name, converter, std::move(dtypes)});
}

OpConverter ConverterTable::find_custom(std::string_view name) const {
  for (const CustomConverterEntry& entry : custom_entries) {
    if (entry.name == name) return entry.converter;
  }
  return nullptr;
}

OpConverter ConverterTable::find(const tflite::OperatorCode& code) const {
  const tflite::BuiltinOperator op = builtin_code(code);
  if (op != tflite::BuiltinOperator::CUSTOM) return find(op);
  return code.custom_code() == nullptr ? nullptr : find_custom(code.custom_code()->string_view());
}

OpConverter ConverterTable::find(tflite::BuiltinOperator op) const {
  for (const ConverterEntry& entry : entries) {
    if (entry.op == op) return entry.converter;
  }
  return nullptr;
}

std::vector<SupportedOperator> supported_operators(const ConverterTable& table) {
  std::vector<SupportedOperator> list;
  for (const ConverterEntry& entry : table.entries) list.push_back({builtin_name(entry.op), entry.dtypes});
  for (const CustomConverterEntry& entry : table.custom_entries) list.push_back({"CUSTOM:" + entry.name, entry.dtypes});
  std::sort(list.begin(), list.end(), [](const SupportedOperator& a, const SupportedOperator& b) { return a.name < b.name; });
  return list;
}

const ConverterTable& builtin_converters() {
  static const ConverterTable table = [] {
    ConverterTable t;
    register_shape_ops(t);
    register_conv_ops(t);
    register_dense_ops(t);
    register_elementwise_ops(t);
    register_pool_ops(t);
    register_activation_ops(t);
    register_binary_ops(t);
    register_movement_ops(t);
    register_reduce_ops(t);
    register_signal_ops(t);
    register_state_ops(t);
    register_variable_ops(t);
    register_control_ops(t);
    return t;
  }();
  return table;
}

}  // namespace grt::tools
