// LEAKY_RELU kernels: identity and alpha scaling with TFLM's rounding, negative alpha,
// zero points, saturation, float, and refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

struct LeakyParams {
  int64_t input_zero_point = 0, output_zero_point = 0;
  int64_t identity_multiplier = 1 << 30, identity_shift = 1;  // 1.0
  int64_t alpha_multiplier = 1 << 30, alpha_shift = -1;       // 0.25
};

OneNode leaky_model(const char* kernel, DType dtype, int64_t in_elements, int64_t out_elements, const LeakyParams& p) {
  OneNode m;
  const uint32_t x = m.input(dtype, {in_elements});
  const uint32_t y = m.output(dtype, {out_elements});
  m.node(kernel, {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(p.input_zero_point),
                  ArgDef::integer(p.output_zero_point), ArgDef::integer(p.identity_multiplier),
                  ArgDef::integer(p.identity_shift), ArgDef::integer(p.alpha_multiplier), ArgDef::integer(p.alpha_shift)});
  return m;
}

template <typename T>
std::vector<T> run_leaky(const char* kernel, DType dtype, const std::vector<T>& in, const LeakyParams& p) {
  const auto n = static_cast<int64_t>(in.size());
  Loaded x(leaky_model(kernel, dtype, n, n, p).def);
  EXPECT_EQ(x.status(), GRT_OK) << x.message();
  if (x.status() != GRT_OK) return {};
  x.set_input(0, in);
  EXPECT_EQ(x.run(), GRT_OK);
  return x.output<T>(0);
}

TEST(LeakyReluS16, ScalesNegativesByAlphaRoundingHalfAwayFromZero) {
  // alpha 0.25: -100 -> -25, -2 -> -0.5 -> -1, -6 -> -1.5 -> -2, -1 -> -0.25 -> 0.
  EXPECT_EQ(run_leaky<int16_t>("leaky_relu_s16", DType::Int16, {100, 0, -100, -2, -6, -1}, LeakyParams{}),
            (std::vector<int16_t>{100, 0, -25, -1, -2, 0}));
}

TEST(LeakyReluS16, NegativeAlphaFlipsTheSign) {
  LeakyParams p;
  p.alpha_multiplier = -(1 << 30);  // -0.5
  p.alpha_shift = 0;
  // -3 * 0.5 = -1.5: the doubling high multiply rounds a negative tie toward zero (-1).
  EXPECT_EQ(run_leaky<int16_t>("leaky_relu_s16", DType::Int16, {-100, 7, -3}, p), (std::vector<int16_t>{50, 7, 1}));
}

TEST(LeakyReluS16, AppliesZeroPointsAndSaturates) {
  LeakyParams p;
  p.input_zero_point = 10;
  p.output_zero_point = -5;
  p.identity_shift = 2;  // 2.0
  // 10 -> 0 -> -5; 20010 -> 40000 - 5 -> 32767; -32768 -> -32778 * 0.25 = -8194.5 -> -8195, - 5.
  EXPECT_EQ(run_leaky<int16_t>("leaky_relu_s16", DType::Int16, {10, 20010, -32768, 11}, p),
            (std::vector<int16_t>{-5, 32767, -8200, -3}));
}

TEST(LeakyReluS8, SaturatesToInt8) {
  LeakyParams p;
  p.identity_shift = 3;  // 4.0
  p.alpha_shift = 3;     // alpha 4.0 would be odd, but the arithmetic must still saturate
  EXPECT_EQ(run_leaky<int8_t>("leaky_relu_s8", DType::Int8, {40, -40, 1, -1}, p), (std::vector<int8_t>{127, -128, 4, -4}));
}

TEST(LeakyReluF32, MultipliesNonPositiveValuesByAlpha) {
  OneNode m;
  const uint32_t x = m.input(DType::Float32, {4});
  const uint32_t y = m.output(DType::Float32, {4});
  m.node("leaky_relu_f32", {ArgDef::input(x), ArgDef::output(y), ArgDef::real(0.5)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input<float>(0, {-2.0f, 0.0f, 3.0f, -0.5f});
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<float>(0), (std::vector<float>{-1.0f, 0.0f, 3.0f, -0.25f}));
}

TEST(LeakyReluCheck, RefusesBadParametersAndShapes) {
  const auto refused = [](auto edit, int64_t out_elements = 4, DType dtype = DType::Int16) {
    LeakyParams p;
    edit(p);
    return refusal(leaky_model(dtype == DType::Int16 ? "leaky_relu_s16" : "leaky_relu_s8", dtype, 4, out_elements, p));
  };
  EXPECT_EQ(refused([](LeakyParams&) {}), "");
  EXPECT_NE(refused([](LeakyParams&) {}, 5).find("sizes differ"), std::string::npos);
  EXPECT_NE(refused([](LeakyParams& p) { p.alpha_multiplier = INT32_MIN; }), "");
  EXPECT_NE(refused([](LeakyParams& p) { p.identity_multiplier = -1; }), "");
  EXPECT_NE(refused([](LeakyParams& p) { p.identity_shift = 32; }), "");
  EXPECT_NE(refused([](LeakyParams& p) { p.alpha_shift = -32; }), "");
  EXPECT_NE(refused([](LeakyParams& p) { p.input_zero_point = 128; }, 4, DType::Int8), "");
  EXPECT_NE(refused([](LeakyParams& p) { p.output_zero_point = -32769; }), "");
}

}  // namespace
}  // namespace grt::test
