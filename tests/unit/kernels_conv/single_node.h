// Builds a model of one kernel call, runs it under the static strategy, and reads the
// output: how the conv kernel tests drive a kernel through the real loader and executor.
#ifndef GRAPHRT_TESTS_KERNELS_CONV_SINGLE_NODE_H_
#define GRAPHRT_TESTS_KERNELS_CONV_SINGLE_NODE_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "graphrt/tools/model_def.h"

namespace grt::test {

struct SingleNode {
  tools::ModelDef model;

  // The model input (activation) / output, in that role.
  uint32_t input(tools::DType dtype, std::vector<int64_t> shape);
  uint32_t output(tools::DType dtype, std::vector<int64_t> shape);
  template <typename T>
  uint32_t constant(tools::DType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
    return model.add_constant_values("c" + std::to_string(model.tensors.size()), dtype, std::move(shape), values);
  }
  uint32_t int_array(const std::vector<int32_t>& values) {
    return model.add_int_array("a" + std::to_string(model.tensors.size()), values);
  }
  void call(const std::string& kernel, std::vector<tools::ArgDef> args) { model.add_node(kernel, std::move(args), kernel); }
};

// Loads the model: "" when init succeeds, else its error message.
std::string init_error(tools::ModelDef model);

// Runs with `input` as input 0's bytes and returns output 0's bytes; fails the current test
// (and returns an empty vector) when init or run fails.
std::vector<uint8_t> run_bytes(tools::ModelDef model, const void* input, size_t input_bytes);

template <typename Out, typename In>
std::vector<Out> run(const tools::ModelDef& model, const std::vector<In>& input) {
  const std::vector<uint8_t> bytes = run_bytes(model, input.data(), input.size() * sizeof(In));
  std::vector<Out> out(bytes.size() / sizeof(Out));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(Out));
  return out;
}

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_KERNELS_CONV_SINGLE_NODE_H_
