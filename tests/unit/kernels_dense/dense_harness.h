// One-node models for the dense kernels' tests: build with ModelDef, plan, load under the
// static strategy, feed the model inputs, run, read the outputs back.
#ifndef GRAPHRT_TESTS_KERNELS_DENSE_HARNESS_H_
#define GRAPHRT_TESTS_KERNELS_DENSE_HARNESS_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "byte_values.h"
#include "graphrt/tools/model_def.h"
#include "test_models.h"

namespace grt::test::dense {

using tools::ArgDef;
using tools::DType;
using tools::ModelDef;

// What loading and running a model gave.
struct Outcome {
  grt_status init = GRT_ERR_ARGUMENT;
  grt_status run = GRT_ERR_ARGUMENT;
  std::string message;  // init's or run's error message
  std::vector<std::vector<uint8_t>> outputs;
};

// Plans `model` (node workspaces as set), loads it, copies `inputs` into the model inputs
// in order, runs once.
Outcome plan_and_run(ModelDef model, const std::vector<std::vector<uint8_t>>& inputs);

// A model with one node: `build` adds tensors and returns the node's arguments; the
// model's inputs and outputs are whatever `build` pushed into model.inputs / outputs.
struct OneNode {
  ModelDef model;
  OneNode() {
    model.name = "dense_test";
    model.producer = "graphrt tests";
  }
  uint32_t input(const std::string& name, DType dtype, std::vector<int64_t> shape) {
    const uint32_t t = model.add_activation(name, dtype, std::move(shape));
    model.inputs.push_back(t);
    return t;
  }
  uint32_t output(const std::string& name, DType dtype, std::vector<int64_t> shape) {
    const uint32_t t = model.add_activation(name, dtype, std::move(shape));
    model.outputs.push_back(t);
    return t;
  }
  template <typename T>
  uint32_t constant(const std::string& name, DType dtype, std::vector<int64_t> shape, const std::vector<T>& values) {
    return model.add_constant_values(name, dtype, std::move(shape), values);
  }
  uint32_t ints(const std::string& name, const std::vector<int32_t>& values) { return model.add_int_array(name, values); }
  // A fully-connected layer's requantization IntArray: its multipliers, then its shifts.
  uint32_t requantization(const std::vector<int32_t>& multipliers, const std::vector<int32_t>& shifts) {
    std::vector<int32_t> values = multipliers;
    values.insert(values.end(), shifts.begin(), shifts.end());
    return model.add_int_array("requantization", values);
  }
  void node(const std::string& kernel, std::vector<ArgDef> args, uint64_t workspace_bytes = 0) {
    const uint32_t n = model.add_node(kernel, std::move(args), kernel);
    model.nodes[n].workspace_bytes = workspace_bytes;
  }
};

}  // namespace grt::test::dense

#endif  // GRAPHRT_TESTS_KERNELS_DENSE_HARNESS_H_
