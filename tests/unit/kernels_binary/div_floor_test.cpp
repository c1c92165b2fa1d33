// DIV (float32, int32), FLOOR_DIV and FLOOR_MOD kernels: IEEE float division, truncating
// int32 division and its edge cases, floor semantics for negative operands, zero
// denominators, broadcasting and refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "node_call.h"

namespace grt::test {
namespace {

using tools::DType;

constexpr double kLowest = std::numeric_limits<float>::lowest();
constexpr double kHighest = std::numeric_limits<float>::max();

NodeCall float_pair(std::vector<int64_t> a_shape, const std::vector<float>& a, std::vector<int64_t> b_shape,
                    const std::vector<float>& b, std::vector<int64_t> y_shape) {
  NodeCall call;
  call.in(DType::Float32, std::move(a_shape), a).in(DType::Float32, std::move(b_shape), b).out(DType::Float32, std::move(y_shape));
  return call;
}

TEST(DivF32, DividesAsIeeeAndClamps) {
  NodeCall plain = float_pair({4}, {1.0f, -3.0f, 1.0f, 0.0f}, {4}, {4.0f, 2.0f, 0.0f, 0.0f}, {4});
  plain.real(kLowest).real(kHighest);
  const std::vector<float> y = plain.run<float>("div_f32");
  ASSERT_EQ(y.size(), 4u);
  EXPECT_EQ(y[0], 0.25f);
  EXPECT_EQ(y[1], -1.5f);
  EXPECT_EQ(y[2], std::numeric_limits<float>::max());  // +inf, clamped to NONE's range as TFLM does
  EXPECT_TRUE(std::isnan(y[3]));

  // RELU6 and a broadcast divisor: [2, 2] / [2].
  NodeCall relu6 = float_pair({2, 2}, {1.0f, 30.0f, -4.0f, 8.0f}, {2}, {2.0f, 4.0f}, {2, 2});
  relu6.real(0.0).real(6.0);
  EXPECT_EQ(relu6.run<float>("div_f32"), (std::vector<float>{0.5f, 6.0f, 0.0f, 2.0f}));
}

TEST(DivS32, TruncatesTowardZeroAndWrapsTheOneOverflow) {
  NodeCall call;
  call.in<int32_t>(DType::Int32, {4}, {7, -7, 7, INT32_MIN}).in<int32_t>(DType::Int32, {4}, {2, 2, -2, -1});
  call.out(DType::Int32, {4}).integer(INT32_MIN).integer(INT32_MAX);
  EXPECT_EQ(call.run<int32_t>("div_s32"), (std::vector<int32_t>{3, -3, -3, INT32_MIN}));

  NodeCall relu6;
  relu6.in<int32_t>(DType::Int32, {2}, {100, -5}).in<int32_t>(DType::Int32, {2}, {10, 1}).out(DType::Int32, {2});
  relu6.integer(0).integer(6);
  EXPECT_EQ(relu6.run<int32_t>("div_s32"), (std::vector<int32_t>{6, 0}));
}

TEST(DivS32, ZeroDenominatorFailsTheRun) {
  NodeCall call;
  call.in<int32_t>(DType::Int32, {2}, {1, 2}).in<int32_t>(DType::Int32, {2}, {1, 0}).out(DType::Int32, {2});
  call.integer(INT32_MIN).integer(INT32_MAX);
  EXPECT_NE(call.run_failure("div_s32").find("division by zero"), std::string::npos);
}

// div_s8 of same-shape inputs: scales 1, 1 and 1/4 (multiplier 2^30, shift 3).
NodeCall div_s8(const std::vector<int8_t>& a, const std::vector<int8_t>& b, int64_t a_zero_point, int64_t b_zero_point,
                int64_t out_zero_point, int64_t act_min) {
  const auto n = static_cast<int64_t>(a.size());
  NodeCall call;
  call.in(DType::Int8, {n}, a).in(DType::Int8, {n}, b).out(DType::Int8, {n});
  call.integer(-a_zero_point).integer(-b_zero_point).integer(out_zero_point).integer(int64_t{1} << 30).integer(3);
  call.integer(act_min).integer(127);
  return call;
}

TEST(DivS8, MatchesTflmsReciprocalArithmetic) {
  // 4 * a / b, rounded: 14, 13.3 -> 13, -14, 1.3 -> 1, -14, 13.3 -> 13, 133 -> 127, 0, 2.86 -> 3.
  // (These are also TFLM's reference outputs for the same parameters.)
  EXPECT_EQ(div_s8({7, 10, -7, 1, 7, -10, 100, 0, 5}, {2, 3, 2, 3, -2, -3, 3, 5, 7}, 0, 0, 0, -128).run<int8_t>("div_s8"),
            (std::vector<int8_t>{14, 13, -14, 1, -14, 13, 127, 0, 3}));
  // 1 / 128 needs a final shift past 31 bits, where TFLM's shift is undefined: exactly 0 here.
  EXPECT_EQ(div_s8({1, -1}, {-128, 127}, 0, 0, 0, -128).run<int8_t>("div_s8"), (std::vector<int8_t>{0, 0}));
}

TEST(DivS8, AppliesZeroPointsAndTheActivationFloor) {
  // Zero points 2, -1 and -3, clamp from -3 (RELU): 7/2 -> 14 - 3, 10/3 -> 13 - 3, -7/2 -> -17 -> -3, 0 -> -3.
  EXPECT_EQ(div_s8({9, 12, -5, 2}, {1, 2, 1, 0}, 2, -1, -3, -3).run<int8_t>("div_s8"), (std::vector<int8_t>{11, 10, -3, -3}));
}

TEST(DivS8, DivisorAtItsZeroPointFailsTheRun) {
  EXPECT_NE(div_s8({1, 2}, {5, -1}, 0, -1, 0, -128).run_failure("div_s8").find("division by zero"), std::string::npos);
}

TEST(DivS8Check, RefusesAShiftThatWouldTurnLeft) {
  const auto with_shift = [](int64_t shift, int64_t b_offset) {
    NodeCall call;
    call.in<int8_t>(DType::Int8, {1}, {}).in<int8_t>(DType::Int8, {1}, {}).out(DType::Int8, {1});
    call.integer(0).integer(b_offset).integer(0).integer(int64_t{1} << 30).integer(shift).integer(-128).integer(127);
    return call.refusal("div_s8");
  };
  EXPECT_EQ(with_shift(23, 0), "");
  EXPECT_NE(with_shift(24, 0), "");
  EXPECT_NE(with_shift(0, 129), "");
}

TEST(FloorDivF32, RoundsTowardNegativeInfinity) {
  NodeCall call = float_pair({4}, {7.0f, -7.0f, 7.0f, -7.5f}, {4}, {2.0f, 2.0f, -2.0f, 2.0f}, {4});
  EXPECT_EQ(call.run<float>("floor_div_f32"), (std::vector<float>{3.0f, -4.0f, -4.0f, -4.0f}));
}

TEST(FloorDivF32, ZeroDenominatorFailsTheRunAsInTflm) {
  NodeCall call = float_pair({2}, {1.0f, 2.0f}, {2}, {3.0f, 0.0f}, {2});
  EXPECT_NE(call.run_failure("floor_div_f32").find("division by zero"), std::string::npos);
}

TEST(FloorModF32, TakesTheDivisorsSign) {
  // fmod, then moved into the divisor's sign: 7 % 3 = 1, -7 % 3 = 2, 7 % -3 = -2, -7 % -3 = -1.
  NodeCall call = float_pair({5}, {7.0f, -7.0f, 7.0f, -7.0f, 5.5f}, {5}, {3.0f, 3.0f, -3.0f, -3.0f, 2.0f}, {5});
  EXPECT_EQ(call.run<float>("floor_mod_f32"), (std::vector<float>{1.0f, 2.0f, -2.0f, -1.0f, 1.5f}));

  NodeCall broadcast = float_pair({2, 2}, {-1.0f, 4.0f, 5.0f, -6.0f}, {1}, {4.0f}, {2, 2});
  EXPECT_EQ(broadcast.run<float>("floor_mod_f32"), (std::vector<float>{3.0f, 0.0f, 1.0f, 2.0f}));
}

TEST(DivCheck, RefusesBadArguments) {
  NodeCall inverted = float_pair({2}, {}, {2}, {}, {2});
  inverted.real(1.0).real(0.0);
  EXPECT_NE(inverted.refusal("div_f32").find("activation_min"), std::string::npos);

  NodeCall int_clamp_on_float = float_pair({2}, {}, {2}, {}, {2});
  int_clamp_on_float.integer(0).integer(6);
  EXPECT_NE(int_clamp_on_float.refusal("div_f32"), "");

  NodeCall floor_with_extra = float_pair({2}, {}, {2}, {}, {2});
  floor_with_extra.real(0.0);
  EXPECT_NE(floor_with_extra.refusal("floor_div_f32").find("number of arguments"), std::string::npos);

  NodeCall wrong_shape = float_pair({2}, {}, {3}, {}, {3});
  EXPECT_NE(wrong_shape.refusal("floor_mod_f32").find("broadcast"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
