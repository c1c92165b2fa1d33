// MUL kernels: TFLM's double rounding of the rescaled product, zero points, saturation and
// the fused activation's clamp, int32 wrap-around, float clamps, broadcasting, refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "node_call.h"

namespace grt::test {
namespace {

using tools::DType;

constexpr int64_t kHalf = int64_t{1} << 30;  // Q31 0.5

// mul_s8 / mul_s16 of same-shape inputs with the given parameters.
template <typename T>
NodeCall quantized_mul(DType dtype, const std::vector<T>& a, const std::vector<T>& b, int64_t a_offset, int64_t b_offset,
                       int64_t out_offset, int64_t multiplier, int64_t shift, int64_t act_min, int64_t act_max) {
  const auto n = static_cast<int64_t>(a.size());
  NodeCall call;
  call.in(dtype, {n}, a).in(dtype, {n}, b).out(dtype, {n});
  call.integer(a_offset).integer(b_offset).integer(out_offset).integer(multiplier).integer(shift).integer(act_min).integer(act_max);
  return call;
}

TEST(MulS8, RoundsTheProductTwiceAsTflmDoes) {
  // 0.25 = 0.5 (doubling high multiply, negative ties toward zero) then >> 1 (ties away from
  // zero): 1 -> 0.5 -> 1, 3 -> 1.5 -> 2 -> 1, -1 -> 0, -3 -> -1.5 -> -1 -> -1, 2 -> 1 -> 1, 6 -> 3 -> 2.
  NodeCall call = quantized_mul<int8_t>(DType::Int8, {1, 3, -1, -3, 2, 6}, {1, 1, 1, 1, 1, 1}, 0, 0, 0, kHalf, -1, -128, 127);
  EXPECT_EQ(call.run<int8_t>("mul_s8"), (std::vector<int8_t>{1, 1, 0, -1, 1, 2}));
}

TEST(MulS8, AppliesZeroPointsThenClampsToTheActivationRange) {
  // (a + 10) * (b - 5) * 1.0 + 3, clamped to [-100, 120].
  NodeCall call = quantized_mul<int8_t>(DType::Int8, {-10, 0, 117, -128}, {5, 7, 127, 127}, 10, -5, 3, kHalf, 1, -100, 120);
  EXPECT_EQ(call.run<int8_t>("mul_s8"), (std::vector<int8_t>{3, 23, 120, -100}));
}

TEST(MulS8, BroadcastsAlongEveryDimensionOfOne) {
  // A [2, 1, 3] times B [4, 1] gives Y [2, 4, 3]: y[i][j][k] = a[i][k] * b[j].
  const std::vector<int8_t> a{1, 2, 3, -4, -5, -6};
  const std::vector<int8_t> b{1, 2, 3, 4};
  NodeCall call;
  call.in(DType::Int8, {2, 1, 3}, a).in(DType::Int8, {4, 1}, b).out(DType::Int8, {2, 4, 3});
  call.integer(0).integer(0).integer(0).integer(kHalf).integer(1).integer(-128).integer(127);
  std::vector<int8_t> expected;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 3; ++k) expected.push_back(static_cast<int8_t>(a[i * 3 + k] * b[j]));
    }
  }
  EXPECT_EQ(call.run<int8_t>("mul_s8"), expected);
}

TEST(MulS16, SaturatesAndRoundsWithoutZeroPoints) {
  // 0.5: 32767^2 / 2 and 2^30 / 2 saturate; 1.5 -> 2; -1.5 -> -1.
  NodeCall call = quantized_mul<int16_t>(DType::Int16, {32767, -32768, 3, -3}, {32767, -32768, 1, 1}, 0, 0, 0, kHalf, 0,
                                         -32768, 32767);
  EXPECT_EQ(call.run<int16_t>("mul_s16"), (std::vector<int16_t>{32767, 32767, 2, -1}));
}

TEST(MulS32, WrapsLikeTflmAndClamps) {
  NodeCall wide;
  wide.in<int32_t>(DType::Int32, {3}, {65536, -7, 3}).in<int32_t>(DType::Int32, {3}, {65536, 6, -4}).out(DType::Int32, {3});
  wide.integer(INT32_MIN).integer(INT32_MAX);
  EXPECT_EQ(wide.run<int32_t>("mul_s32"), (std::vector<int32_t>{0, -42, -12}));  // 2^32 wraps to 0

  NodeCall relu6;
  relu6.in<int32_t>(DType::Int32, {3}, {-7, 4, 1}).in<int32_t>(DType::Int32, {1}, {3}).out(DType::Int32, {3});
  relu6.integer(0).integer(6);
  EXPECT_EQ(relu6.run<int32_t>("mul_s32"), (std::vector<int32_t>{0, 6, 3}));
}

// ADD and SUB on int32 (kernels/src/binary/add_sub_s32.cpp; the converter is ADD/SUB's in
// ops/elementwise_ops.cpp): wrapping sums, broadcast, clamped to the range given.
TEST(AddSubS32, WrapBroadcastAndClamp) {
  NodeCall add;
  add.in<int32_t>(DType::Int32, {3}, {INT32_MAX, -7, 3}).in<int32_t>(DType::Int32, {}, {1}).out(DType::Int32, {3});
  add.integer(INT32_MIN).integer(INT32_MAX);
  EXPECT_EQ(add.run<int32_t>("add_s32"), (std::vector<int32_t>{INT32_MIN, -6, 4}));

  NodeCall sub;
  sub.in<int32_t>(DType::Int32, {3}, {INT32_MIN, 10, -3}).in<int32_t>(DType::Int32, {3}, {1, 2, 3}).out(DType::Int32, {3});
  sub.integer(-5).integer(6);
  EXPECT_EQ(sub.run<int32_t>("sub_s32"), (std::vector<int32_t>{6, 6, -5}));  // INT32_MIN - 1 wraps to INT32_MAX
}

TEST(MulF32, ClampsAndLetsNanThrough) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  NodeCall call;
  call.in<float>(DType::Float32, {4}, {1.5f, -2.0f, 4.0f, nan}).in<float>(DType::Float32, {4}, {2.0f, 3.0f, 2.0f, 1.0f});
  call.out(DType::Float32, {4}).real(0.0).real(6.0);
  const std::vector<float> y = call.run<float>("mul_f32");
  ASSERT_EQ(y.size(), 4u);
  EXPECT_EQ(y[0], 3.0f);
  EXPECT_EQ(y[1], 0.0f);
  EXPECT_EQ(y[2], 6.0f);
  EXPECT_TRUE(std::isnan(y[3]));
}

TEST(MulCheck, RefusesBadArguments) {
  const auto s8 = [](int64_t a_offset, int64_t multiplier, int64_t shift, int64_t act_min, int64_t act_max) {
    return quantized_mul<int8_t>(DType::Int8, {1, 2}, {3, 4}, a_offset, 0, 0, multiplier, shift, act_min, act_max).refusal("mul_s8");
  };
  EXPECT_EQ(s8(128, kHalf, 0, -128, 127), "");
  EXPECT_NE(s8(129, kHalf, 0, -128, 127), "");   // offset outside -int8
  EXPECT_NE(s8(0, -1, 0, -128, 127), "");        // negative multiplier
  EXPECT_NE(s8(0, kHalf, 32, -128, 127), "");    // shift out of range
  EXPECT_NE(s8(0, kHalf, 0, 10, 9), "");         // empty clamp range
  EXPECT_NE(s8(0, kHalf, 0, -129, 127), "");     // clamp outside int8
  // int16 takes no zero points (TFLM refuses them), which keeps its product in int32.
  EXPECT_NE(quantized_mul<int16_t>(DType::Int16, {1}, {1}, 1, 0, 0, kHalf, 0, -32768, 32767).refusal("mul_s16"), "");

  NodeCall bad_shape;
  bad_shape.in<float>(DType::Float32, {2, 3}, {}).in<float>(DType::Float32, {4}, {}).out(DType::Float32, {2, 4});
  bad_shape.real(0.0).real(1.0);
  EXPECT_NE(bad_shape.refusal("mul_f32").find("broadcast"), std::string::npos);

  NodeCall mixed_types;
  mixed_types.in<float>(DType::Float32, {2}, {}).in<int32_t>(DType::Int32, {2}, {}).out(DType::Float32, {2});
  mixed_types.real(0.0).real(1.0);
  EXPECT_NE(mixed_types.refusal("mul_f32").find("dtype"), std::string::npos);

  NodeCall inverted_clamp;
  inverted_clamp.in<int32_t>(DType::Int32, {1}, {}).in<int32_t>(DType::Int32, {1}, {}).out(DType::Int32, {1});
  inverted_clamp.integer(1).integer(0);
  EXPECT_NE(inverted_clamp.refusal("mul_s32"), "");
}

}  // namespace
}  // namespace grt::test
