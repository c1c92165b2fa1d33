// ADD and SUB kernels: quantized arithmetic with hand-derived parameters, broadcasting,
// saturation, zero points, float activation clamps, and refusals of bad arguments.
#include <gtest/gtest.h>

#include <cfloat>
#include <cstdint>
#include <vector>

#include "one_node.h"
#include "quantized_binary.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

// All three scales equal (s): TFLM derives input multipliers 0.5 = (2^30, 0) and an output
// multiplier 2s / (2^left_shift * s) = 2^(1 - left_shift) = (2^30, 2 - left_shift). The
// node then computes exactly (a - za) + (b - zb) + zo before clamping.
QuantizedBinaryParams equal_scales(int64_t left_shift, int64_t type_min, int64_t type_max) {
  QuantizedBinaryParams p;
  p.left_shift = left_shift;
  p.out_shift = 2 - left_shift;
  p.activation_min = type_min;
  p.activation_max = type_max;
  return p;
}

TEST(AddS8, EqualScalesAddExactlyWithZeroPoints) {
  QuantizedBinaryParams p = equal_scales(20, -128, 127);
  p.a_offset = 3;    // zero point -3
  p.b_offset = -5;   // zero point 5
  p.out_offset = 7;  // zero point 7
  // (a + 3) + (b - 5) + 7
  EXPECT_EQ(run_quantized_binary<int8_t>("add_s8", DType::Int8, {4}, {0, 10, -20, 50}, {4}, {0, 1, 2, -30}, {4}, p),
            (std::vector<int8_t>{5, 16, -13, 25}));
}

TEST(AddS8, SaturatesAtTheTypeLimits) {
  const QuantizedBinaryParams p = equal_scales(20, -128, 127);
  EXPECT_EQ(run_quantized_binary<int8_t>("add_s8", DType::Int8, {3}, {100, -100, 127}, {3}, {100, -100, -128}, {3}, p),
            (std::vector<int8_t>{127, -128, -1}));
}

TEST(AddS8, ClampsToTheActivationRange) {
  QuantizedBinaryParams p = equal_scales(20, -128, 127);
  p.activation_min = 0;  // a fused RELU with zero point 0
  p.activation_max = 6;
  EXPECT_EQ(run_quantized_binary<int8_t>("add_s8", DType::Int8, {4}, {-3, 2, 3, 20}, {4}, {1, 1, 1, 1}, {4}, p),
            (std::vector<int8_t>{0, 3, 4, 6}));
}

TEST(AddS8, RoundsHalfAwayFromZero) {
  // B's scale is half of A's (= the output's): its multiplier is 0.25 = (2^30, -1) and the
  // result is (2a + b) / 2, rounded half away from zero.
  QuantizedBinaryParams p = equal_scales(20, -128, 127);
  p.b_shift = -1;
  EXPECT_EQ(run_quantized_binary<int8_t>("add_s8", DType::Int8, {6}, {1, -1, 0, 0, 2, -2}, {6}, {1, -1, 1, -1, 2, -2}, {6}, p),
            (std::vector<int8_t>{2, -2, 1, -1, 3, -3}));
}

TEST(AddS8, BroadcastsAcrossDimensions) {
  const QuantizedBinaryParams p = equal_scales(20, -128, 127);
  // [2, 1, 3] + [2, 1] -> [2, 2, 3]
  EXPECT_EQ(run_quantized_binary<int8_t>("add_s8", DType::Int8, {2, 1, 3}, {0, 1, 2, 10, 11, 12}, {2, 1}, {100, 50}, {2, 2, 3}, p),
            (std::vector<int8_t>{100, 101, 102, 50, 51, 52, 110, 111, 112, 60, 61, 62}));
}

TEST(AddS8, BroadcastsAScalarAndASizeOneRank) {
  const QuantizedBinaryParams p = equal_scales(20, -128, 127);
  EXPECT_EQ(run_quantized_binary<int8_t>("add_s8", DType::Int8, {}, {5}, {1, 3}, {1, 2, 3}, {1, 3}, p),
            (std::vector<int8_t>{6, 7, 8}));
  EXPECT_EQ(run_quantized_binary<int8_t>("add_s8", DType::Int8, {1, 1, 1, 1, 2}, {1, 2}, {2, 1}, {10, 20}, {1, 1, 1, 2, 2}, p),
            (std::vector<int8_t>{11, 12, 21, 22}));
}

TEST(AddS8, EmptyTensorsWriteNothing) {
  const QuantizedBinaryParams p = equal_scales(20, -128, 127);
  EXPECT_TRUE(run_quantized_binary<int8_t>("add_s8", DType::Int8, {0, 3}, {}, {1, 3}, {1, 2, 3}, {0, 3}, p).empty());
}

TEST(AddS16, EqualScalesWithTheInt16Shift) {
  QuantizedBinaryParams p = equal_scales(15, INT16_MIN, INT16_MAX);
  p.a_offset = -1000;
  EXPECT_EQ(run_quantized_binary<int16_t>("add_s16", DType::Int16, {3}, {1000, 32767, -32768}, {3}, {1, 32767, -32768}, {3}, p),
            (std::vector<int16_t>{1, 32767, -32768}));
}

TEST(SubS16, BroadcastsTheLastDimension) {
  const QuantizedBinaryParams p = equal_scales(15, INT16_MIN, INT16_MAX);
  // [1, 2, 1, 3] - [3]
  EXPECT_EQ(run_quantized_binary<int16_t>("sub_s16", DType::Int16, {1, 2, 1, 3}, {10, 20, 30, -10, -20, -30}, {3}, {1, 2, 3},
                                {1, 2, 1, 3}, p),
            (std::vector<int16_t>{9, 18, 27, -11, -22, -33}));
}

TEST(SubS16, SaturatesBothWays) {
  const QuantizedBinaryParams p = equal_scales(15, INT16_MIN, INT16_MAX);
  EXPECT_EQ(run_quantized_binary<int16_t>("sub_s16", DType::Int16, {2}, {32767, -32768}, {2}, {-32768, 32767}, {2}, p),
            (std::vector<int16_t>{32767, -32768}));
}

TEST(SubS8, SubtractsTheSecondFromTheFirstWithZeroPoints) {
  QuantizedBinaryParams p = equal_scales(20, -128, 127);
  p.a_offset = 1;
  p.b_offset = 2;
  p.out_offset = -3;
  // (a + 1) - (b + 2) - 3
  EXPECT_EQ(run_quantized_binary<int8_t>("sub_s8", DType::Int8, {2, 1}, {10, 20}, {1, 2}, {1, 2}, {2, 2}, p),
            (std::vector<int8_t>{5, 4, 15, 14}));
}

std::vector<float> run_float(const char* kernel, std::vector<int64_t> a_shape, const std::vector<float>& a,
                             std::vector<int64_t> b_shape, const std::vector<float>& b, std::vector<int64_t> out_shape,
                             double low, double high) {
  OneNode m;
  const uint32_t ta = m.input(DType::Float32, std::move(a_shape));
  const uint32_t tb = m.input(DType::Float32, std::move(b_shape));
  const uint32_t ty = m.output(DType::Float32, std::move(out_shape));
  m.node(kernel, {ArgDef::input(ta), ArgDef::input(tb), ArgDef::output(ty), ArgDef::real(low), ArgDef::real(high)});
  Loaded x(m.def);
  EXPECT_EQ(x.status(), GRT_OK) << x.message();
  if (x.status() != GRT_OK) return {};
  x.set_input(0, a);
  x.set_input(1, b);
  EXPECT_EQ(x.run(), GRT_OK);
  return x.output<float>(0);
}

TEST(AddF32, AddsWithBroadcastAndNoClamp) {
  EXPECT_EQ(run_float("add_f32", {2, 2}, {1.5f, -2.0f, 0.25f, 8.0f}, {2}, {0.5f, 1.0f}, {2, 2}, -FLT_MAX, FLT_MAX),
            (std::vector<float>{2.0f, -1.0f, 0.75f, 9.0f}));
}

TEST(AddF32, ClampsToRelu6) {
  EXPECT_EQ(run_float("add_f32", {3}, {-1.0f, 2.0f, 7.0f}, {3}, {0.5f, 1.0f, 1.0f}, {3}, 0.0, 6.0),
            (std::vector<float>{0.0f, 3.0f, 6.0f}));
}

TEST(SubF32, Subtracts) {
  EXPECT_EQ(run_float("sub_f32", {3}, {1.0f, 2.0f, 3.0f}, {}, {0.5f}, {3}, -FLT_MAX, FLT_MAX),
            (std::vector<float>{0.5f, 1.5f, 2.5f}));
}

// ---- Refusals ----

OneNode quantized_model(DType dtype, std::vector<int64_t> a_shape, std::vector<int64_t> b_shape,
                        std::vector<int64_t> out_shape, const QuantizedBinaryParams& p, const char* kernel = "add_s8") {
  OneNode m;
  const uint32_t ta = m.input(dtype, std::move(a_shape));
  const uint32_t tb = m.input(dtype, std::move(b_shape));
  const uint32_t ty = m.output(dtype, std::move(out_shape));
  m.node(kernel, quantized_binary_args(ta, tb, ty, p));
  return m;
}

TEST(AddS8Check, AcceptsAGoodNode) {
  EXPECT_EQ(refusal(quantized_model(DType::Int8, {2, 3}, {3}, {2, 3}, equal_scales(20, -128, 127))), "");
}

TEST(AddS8Check, RefusesShapesThatDoNotBroadcast) {
  const QuantizedBinaryParams p = equal_scales(20, -128, 127);
  EXPECT_NE(refusal(quantized_model(DType::Int8, {2, 3}, {2}, {2, 3}, p)).find("broadcast"), std::string::npos);
  // The output larger than both inputs would make the kernel read past them.
  EXPECT_NE(refusal(quantized_model(DType::Int8, {1, 3}, {1, 3}, {2, 3}, p)).find("broadcast"), std::string::npos);
  EXPECT_NE(refusal(quantized_model(DType::Int8, {4}, {4}, {2}, p)).find("broadcast"), std::string::npos);
  EXPECT_NE(refusal(quantized_model(DType::Int8, {2, 4}, {4}, {4}, p)).find("broadcast"), std::string::npos);
}

TEST(AddS8Check, RefusesWrongDtypesAndCounts) {
  const QuantizedBinaryParams p = equal_scales(20, -128, 127);
  EXPECT_NE(refusal(quantized_model(DType::Int16, {3}, {3}, {3}, p)).find("dtype"), std::string::npos);
  OneNode m = quantized_model(DType::Int8, {3}, {3}, {3}, p);
  m.def.nodes[0].args.pop_back();
  EXPECT_NE(refusal(m).find("number of arguments"), std::string::npos);
  OneNode swapped = quantized_model(DType::Int8, {3}, {3}, {3}, p);
  swapped.def.nodes[0].args[3] = ArgDef::real(20.0);
  EXPECT_NE(refusal(swapped).find("argument 3"), std::string::npos);
}

TEST(AddS8Check, RefusesParametersOutsideTheirRanges) {
  const auto refused = [](auto edit, const char* kernel = "add_s8", DType dtype = DType::Int8) {
    QuantizedBinaryParams p = equal_scales(20, -128, 127);
    edit(p);
    return !refusal(quantized_model(dtype, {3}, {3}, {3}, p, kernel)).empty();
  };
  EXPECT_TRUE(refused([](QuantizedBinaryParams& p) { p.left_shift = 24; }));  // (x + offset) << 24 overflows int32
  EXPECT_TRUE(refused([](QuantizedBinaryParams& p) { p.left_shift = 16; }, "add_s16", DType::Int16));
  EXPECT_TRUE(refused([](QuantizedBinaryParams& p) { p.a_offset = 129; }));
  EXPECT_TRUE(refused([](QuantizedBinaryParams& p) { p.b_multiplier = -1; }));
  EXPECT_TRUE(refused([](QuantizedBinaryParams& p) { p.a_shift = 1; }));
  EXPECT_TRUE(refused([](QuantizedBinaryParams& p) { p.out_shift = -32; }));
  EXPECT_TRUE(refused([](QuantizedBinaryParams& p) { p.out_offset = 128; }));
  EXPECT_TRUE(refused([](QuantizedBinaryParams& p) { p.activation_max = 300; }));
  EXPECT_TRUE(refused([](QuantizedBinaryParams& p) {
    p.activation_min = 10;
    p.activation_max = 5;
  }));
  EXPECT_FALSE(refused([](QuantizedBinaryParams& p) { p.a_offset = 128; }));
}

TEST(AddF32Check, RefusesAnInvertedRangeAndIntegerTensors) {
  OneNode m;
  const uint32_t a = m.input(DType::Float32, {2});
  const uint32_t b = m.input(DType::Float32, {2});
  const uint32_t y = m.output(DType::Float32, {2});
  m.node("add_f32", {ArgDef::input(a), ArgDef::input(b), ArgDef::output(y), ArgDef::real(1.0), ArgDef::real(0.0)});
  EXPECT_NE(refusal(m).find("activation_min"), std::string::npos);

  OneNode n;
  const uint32_t c = n.input(DType::Int8, {2});
  const uint32_t d = n.input(DType::Float32, {2});
  const uint32_t z = n.output(DType::Float32, {2});
  n.node("sub_f32", {ArgDef::input(c), ArgDef::input(d), ArgDef::output(z), ArgDef::real(0.0), ArgDef::real(1.0)});
  EXPECT_NE(refusal(n).find("dtype"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
