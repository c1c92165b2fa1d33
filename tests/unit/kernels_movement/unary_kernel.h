// Runs one kernel that maps a 1-D input to a 1-D output of the same length (casts,
// requantization, dequantization), with its trailing parameters.
#ifndef GRAPHRT_TESTS_KERNELS_MOVEMENT_UNARY_KERNEL_H_
#define GRAPHRT_TESTS_KERNELS_MOVEMENT_UNARY_KERNEL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "one_node.h"

namespace grt::test {

template <typename In, typename Out>
std::vector<Out> run_unary_kernel(const char* kernel, tools::DType in_type, tools::DType out_type, const std::vector<In>& in,
                                  std::vector<tools::ArgDef> params = {}) {
  OneNode m;
  const auto n = static_cast<int64_t>(in.size());
  std::vector<tools::ArgDef> args = {tools::ArgDef::input(m.input(in_type, {n})), tools::ArgDef::output(m.output(out_type, {n}))};
  args.insert(args.end(), params.begin(), params.end());
  m.node(kernel, args);
  Loaded loaded(m.def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return {};
  loaded.set_input(0, in);
  EXPECT_EQ(loaded.run(), GRT_OK);
  return loaded.output<Out>(0);
}

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_KERNELS_MOVEMENT_UNARY_KERNEL_H_
