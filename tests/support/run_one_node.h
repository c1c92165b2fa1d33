// Runs one-node models with one input: any such model, or one kernel that maps a 1-D input
// to a 1-D output of the same length (casts, requantization, dequantization).
#ifndef GRAPHRT_TESTS_SUPPORT_RUN_ONE_NODE_H_
#define GRAPHRT_TESTS_SUPPORT_RUN_ONE_NODE_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "one_node.h"

namespace grt::test {

// Loads `model`, feeds `input` to its input 0 and runs once: output 0, or nothing after a
// failure (reported to gtest).
template <typename Out, typename In>
std::vector<Out> run_one_input(const OneNode& model, const std::vector<In>& input) {
  Loaded loaded(model.def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return {};
  loaded.set_input(0, input);
  EXPECT_EQ(loaded.run(), GRT_OK);
  return loaded.output<Out>(0);
}

// `kernel` from in [n] to out [n], with its trailing parameters.
template <typename In, typename Out>
std::vector<Out> run_unary_kernel(const char* kernel, tools::DType in_type, tools::DType out_type, const std::vector<In>& in,
                                  std::vector<tools::ArgDef> params = {}) {
  OneNode m;
  const auto n = static_cast<int64_t>(in.size());
  std::vector<tools::ArgDef> args = {tools::ArgDef::input(m.input(in_type, {n})), tools::ArgDef::output(m.output(out_type, {n}))};
  args.insert(args.end(), params.begin(), params.end());
  m.node(kernel, args);
  return run_one_input<Out>(m, in);
}

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_SUPPORT_RUN_ONE_NODE_H_
