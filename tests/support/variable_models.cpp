#include "variable_models.h"

#include <utility>

namespace grt::test {

using tflite::BuiltinOperator;
using tflite::BuiltinOptions;
using tflite::TensorType;

BuiltinOptionsWriter var_handle_options(std::optional<std::string> shared_name, std::optional<std::string> container) {
  return builtin_options(BuiltinOptions::VarHandleOptions, [=](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateVarHandleOptionsDirect(fbb, container ? container->c_str() : nullptr,
                                                shared_name ? shared_name->c_str() : nullptr)
        .Union();
  });
}

int32_t resource(TfliteModelSpec* m, const std::string& name) {
  return m->add_tensor({.name = name, .type = TensorType::RESOURCE, .shape = {}});
}

TfliteModelSpec accumulator() {
  TfliteModelSpec m;
  const int32_t x = m.add_tensor({.name = "x", .type = TensorType::FLOAT32, .shape = {4}});
  const int32_t handle = resource(&m, "handle");
  const int32_t v = m.add_tensor({.name = "v", .type = TensorType::FLOAT32, .shape = {4}});
  const int32_t y = m.add_tensor({.name = "y", .type = TensorType::FLOAT32, .shape = {4}});
  m.inputs = {x};
  m.outputs = {y};
  m.add_op(BuiltinOperator::VAR_HANDLE, {}, {handle}, var_handle_options("sum"));
  m.add_op(BuiltinOperator::READ_VARIABLE, {handle}, {v});
  m.add_op(BuiltinOperator::ADD, {v, x}, {y});
  m.add_op(BuiltinOperator::ASSIGN_VARIABLE, {handle, y}, {});
  return m;
}

TfliteModelSpec started_accumulator(std::vector<float> start) {
  TfliteModelSpec m = accumulator();
  TfliteOpSpec call_once;
  call_once.op = BuiltinOperator::CALL_ONCE;
  call_once.options = builtin_options(BuiltinOptions::CallOnceOptions,
                                      [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateCallOnceOptions(fbb, 1).Union(); });
  m.ops.insert(m.ops.begin(), call_once);
  TfliteModelSpec init;
  const int32_t handle = resource(&init, "init_handle");
  const int32_t value = init.add_tensor({.name = "start", .type = TensorType::FLOAT32, .shape = {static_cast<int32_t>(start.size())},
                                         .data = bytes_of(start)});
  init.add_op(BuiltinOperator::VAR_HANDLE, {}, {handle}, var_handle_options("sum"));
  init.add_op(BuiltinOperator::ASSIGN_VARIABLE, {handle, value}, {});
  m.subgraphs = {init};
  return m;
}

TfliteModelSpec computing_started_accumulator() {
  TfliteModelSpec m = started_accumulator();
  TfliteModelSpec& init = m.subgraphs[0];
  const int32_t start = 1;  // the constant the initialiser assigns
  const int32_t unused = init.add_tensor({.name = "unused", .type = TensorType::FLOAT32, .shape = {4}});
  init.add_op(BuiltinOperator::ADD, {start, start}, {unused});
  return m;
}

}  // namespace grt::test
