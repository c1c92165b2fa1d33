// One-node models of the quantized two-input kernels (add_s8, sub_s8 and their 16-bit
// forms), whose arguments are two inputs, an output and TFLM's rescaling parameters: the
// kernels' own tests and the DSP paths' tests (run against the portable kernel) share them.
#ifndef GRAPHRT_TESTS_SUPPORT_QUANTIZED_BINARY_H_
#define GRAPHRT_TESTS_SUPPORT_QUANTIZED_BINARY_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "one_node.h"

namespace grt::test {

// Parameters of a quantized add/sub node, named and ordered as the kernels' argument list.
struct QuantizedBinaryParams {
  int64_t left_shift = 20;
  int64_t a_offset = 0, a_multiplier = 1 << 30, a_shift = 0;
  int64_t b_offset = 0, b_multiplier = 1 << 30, b_shift = 0;
  int64_t out_offset = 0, out_multiplier = 1 << 30, out_shift = -18;
  int64_t activation_min = -128, activation_max = 127;
};

inline std::vector<tools::ArgDef> quantized_binary_args(uint32_t a, uint32_t b, uint32_t y, const QuantizedBinaryParams& p) {
  using tools::ArgDef;
  return {ArgDef::input(a),
          ArgDef::input(b),
          ArgDef::output(y),
          ArgDef::integer(p.left_shift),
          ArgDef::integer(p.a_offset),
          ArgDef::integer(p.a_multiplier),
          ArgDef::integer(p.a_shift),
          ArgDef::integer(p.b_offset),
          ArgDef::integer(p.b_multiplier),
          ArgDef::integer(p.b_shift),
          ArgDef::integer(p.out_offset),
          ArgDef::integer(p.out_multiplier),
          ArgDef::integer(p.out_shift),
          ArgDef::integer(p.activation_min),
          ArgDef::integer(p.activation_max)};
}

// `kernel` on inputs a and b, run once: its output, or nothing after a failure (reported to gtest).
template <typename T>
std::vector<T> run_quantized_binary(const char* kernel, tools::DType dtype, std::vector<int64_t> a_shape,
                                    const std::vector<T>& a, std::vector<int64_t> b_shape, const std::vector<T>& b,
                                    std::vector<int64_t> out_shape, const QuantizedBinaryParams& p) {
  OneNode m;
  const uint32_t ta = m.input(dtype, std::move(a_shape));
  const uint32_t tb = m.input(dtype, std::move(b_shape));
  const uint32_t ty = m.output(dtype, std::move(out_shape));
  m.node(kernel, quantized_binary_args(ta, tb, ty, p));
  Loaded x(m.def);
  EXPECT_EQ(x.status(), GRT_OK) << x.message();
  if (x.status() != GRT_OK) return {};
  x.set_input(0, a);
  x.set_input(1, b);
  EXPECT_EQ(x.run(), GRT_OK) << x.run_message();
  return x.output<T>(0);
}

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_SUPPORT_QUANTIZED_BINARY_H_
