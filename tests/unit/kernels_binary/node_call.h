// One call of a binary-family kernel in a one-node model: tensors and scalar arguments in
// the kernel's order, then run (inputs fed in the order given) or check the init refusal.
#ifndef GRAPHRT_TESTS_KERNELS_BINARY_NODE_CALL_H_
#define GRAPHRT_TESTS_KERNELS_BINARY_NODE_CALL_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "one_node.h"

namespace grt::test {

class NodeCall {
 public:
  template <typename T>
  NodeCall& in(tools::DType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
    args_.push_back(tools::ArgDef::input(model_.input(dtype, std::move(shape))));
    std::vector<uint8_t> bytes(values.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    inputs_.push_back(std::move(bytes));
    return *this;
  }
  NodeCall& out(tools::DType dtype, std::vector<int64_t> shape) {
    args_.push_back(tools::ArgDef::output(model_.output(dtype, std::move(shape))));
    return *this;
  }
  NodeCall& integer(int64_t v) {
    args_.push_back(tools::ArgDef::integer(v));
    return *this;
  }
  NodeCall& real(double v) {
    args_.push_back(tools::ArgDef::real(v));
    return *this;
  }

  // Runs `kernel` and returns output 0 (empty, with a test failure, if init or run fails).
  template <typename T>
  std::vector<T> run(const char* kernel) {
    std::string message;
    std::vector<T> result;
    if (!run_node(kernel, &message)) {
      ADD_FAILURE() << kernel << ": " << message;
      return result;
    }
    return output_as<T>();
  }
  // Runs `kernel`, expecting init to succeed and the run to fail; returns the run's message.
  std::string run_failure(const char* kernel) {
    std::string message;
    if (run_node(kernel, &message)) ADD_FAILURE() << kernel << " ran without an error";
    return message;
  }
  // The init refusal of `kernel` with these arguments ("" when init accepts them).
  std::string refusal(const char* kernel) {
    OneNode model = model_;
    model.node(kernel, args_);
    return grt::test::refusal(model);
  }

 private:
  bool run_node(const char* kernel, std::string* message) {
    OneNode model = model_;
    model.node(kernel, args_);
    loaded_ = std::make_unique<Loaded>(model.def);
    if (loaded_->status() != GRT_OK) {
      *message = "init: " + loaded_->message();
      return false;
    }
    for (size_t i = 0; i < inputs_.size(); ++i) loaded_->set_input(static_cast<uint32_t>(i), inputs_[i]);
    if (loaded_->run() != GRT_OK) {
      *message = loaded_->run_message();
      return false;
    }
    return true;
  }
  template <typename T>
  std::vector<T> output_as() const {
    return loaded_->output<T>(0);
  }

  OneNode model_;
  std::vector<tools::ArgDef> args_;
  std::vector<std::vector<uint8_t>> inputs_;
  std::unique_ptr<Loaded> loaded_;
};

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_KERNELS_BINARY_NODE_CALL_H_
