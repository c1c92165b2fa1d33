// One-node models for kernel tests (every operator family): build with the graph builder, plan,
// load under the static strategy, feed inputs, run, read outputs.
#ifndef GRAPHRT_TESTS_ONE_NODE_H_
#define GRAPHRT_TESTS_ONE_NODE_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "graphrt/graphrt.h"
#include "graphrt/tools/model_def.h"
#include "test_models.h"

namespace grt::test {

// A model with one node: model inputs, constants and outputs around one kernel call.
struct OneNode {
  tools::ModelDef def;

  uint32_t input(tools::DType dtype, std::vector<int64_t> shape) {
    const uint32_t t = def.add_activation("in" + std::to_string(def.inputs.size()), dtype, std::move(shape));
    def.inputs.push_back(t);
    return t;
  }
  uint32_t output(tools::DType dtype, std::vector<int64_t> shape) {
    const uint32_t t = def.add_activation("out" + std::to_string(def.outputs.size()), dtype, std::move(shape));
    def.outputs.push_back(t);
    return t;
  }
  template <typename T>
  uint32_t constant(tools::DType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
    return def.add_constant_values("const" + std::to_string(def.tensors.size()), dtype, std::move(shape), values);
  }
  uint32_t ints(const std::vector<int32_t>& values) {
    return def.add_int_array("ints" + std::to_string(def.tensors.size()), values);
  }
  void node(std::string_view kernel, std::vector<tools::ArgDef> args) { def.add_node(kernel, std::move(args), "node"); }
};

// A OneNode model planned and loaded; init's status and message are kept for check tests.
class Loaded {
 public:
  explicit Loaded(tools::ModelDef def);

  grt_status status() const { return run_->status; }
  std::string message() const { return run_->error.message; }

  template <typename T>
  void set_input(uint32_t index, const std::vector<T>& values) {
    DLTensor* t = grt_input(run_->executor, index);
    const size_t bytes = values.size() * sizeof(T);
    ASSERT_EQ(bytes, grt_tensor_bytes(t)) << "input " << index;
    if (bytes != 0) std::memcpy(t->data, values.data(), bytes);
  }
  grt_status run();
  std::string run_message() const;
  template <typename T>
  std::vector<T> output(uint32_t index) const {
    const DLTensor* t = grt_output(run_->executor, index);
    std::vector<T> values(grt_tensor_bytes(t) / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), t->data, values.size() * sizeof(T));
    return values;
  }
  grt_executor* executor() const { return run_->executor; }

 private:
  tools::AlignedBytes blob_;
  std::unique_ptr<StaticRun> run_;
};

// Builds and loads a model that is expected to be refused by a kernel's check; returns the
// init message (empty if init succeeded).
std::string refusal(const OneNode& model);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_ONE_NODE_H_
