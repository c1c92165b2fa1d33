// SQUARED_DIFFERENCE kernels: TFLM's int8 rescaling (left shift 7, per-input multipliers,
// output multiplier), its rounding and saturation, different input scales, int32 wrap,
// float, and refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "node_call.h"

namespace grt::test {
namespace {

using tools::DType;

constexpr int64_t kHalf = int64_t{1} << 30;  // Q31 0.5

struct Rescale {
  int64_t left_shift = 7;
  int64_t a_offset = 0, a_multiplier = kHalf, a_shift = 0;  // equal input scales: 0.5 each
  int64_t b_offset = 0, b_multiplier = kHalf, b_shift = 0;
  int64_t out_offset = 0, out_multiplier = kHalf, out_shift = -11;  // (2s)^2 / (2^14 s^2) = 2^-12
};

NodeCall squared_difference_s8(const std::vector<int8_t>& a, const std::vector<int8_t>& b, const Rescale& r) {
  const auto n = static_cast<int64_t>(a.size());
  NodeCall call;
  call.in(DType::Int8, {n}, a).in(DType::Int8, {n}, b).out(DType::Int8, {n});
  for (const int64_t v : {r.left_shift, r.a_offset, r.a_multiplier, r.a_shift, r.b_offset, r.b_multiplier, r.b_shift,
                          r.out_offset, r.out_multiplier, r.out_shift}) {
    call.integer(v);
  }
  return call;
}

TEST(SquaredDifferenceS8, SquaresTheRescaledDifferenceAndSaturates) {
  // Scales all 1: (3 - 1)^2 = 4; (127 + 128)^2 saturates; equal inputs give 0.
  EXPECT_EQ(squared_difference_s8({3, 127, -5}, {1, -128, -5}, Rescale{}).run<int8_t>("squared_difference_s8"),
            (std::vector<int8_t>{4, 127, 0}));
}

TEST(SquaredDifferenceS8, RoundsHalvesAwayFromZeroAndAddsTheOutputZeroPoint) {
  // Output scale 8 (shift -14), zero point -128: 4/8 -> 1, 36/8 = 4.5 -> 5, 100/8 = 12.5 -> 13.
  Rescale r;
  r.out_offset = -128;
  r.out_shift = -14;
  EXPECT_EQ(squared_difference_s8({2, 6, -2, 3, 10}, {0, 0, 0, 1, 0}, r).run<int8_t>("squared_difference_s8"),
            (std::vector<int8_t>{-127, -123, -127, -127, -115}));
}

TEST(SquaredDifferenceS8, BringsDifferentScalesTogether) {
  // A's scale is half B's (multiplier 0.25) and A's zero point is 3: (0.5 * (a - 3) - b)^2.
  Rescale r;
  r.a_offset = -3;
  r.a_shift = -1;
  // (0.5*4 - 1)^2 = 1, (0.5*2 - 1)^2 = 0, (0.5*1)^2 = 0.25 -> 0, (-1.5 - 3)^2 = 20.25 -> 20.
  EXPECT_EQ(squared_difference_s8({7, 5, 4, 0}, {1, 1, 0, 3}, r).run<int8_t>("squared_difference_s8"),
            (std::vector<int8_t>{1, 0, 0, 20}));
}

TEST(SquaredDifferenceS16, RunsWithoutLeftShift) {
  // int16: left shift 0, scales 1, output multiplier 0.5 * 2^3: (x/2 - y/2)^2 * 4, saturated.
  const auto run = [](const std::vector<int16_t>& a, const std::vector<int16_t>& b) {
    const auto n = static_cast<int64_t>(a.size());
    NodeCall call;
    call.in(DType::Int16, {n}, a).in(DType::Int16, {n}, b).out(DType::Int16, {n});
    for (const int64_t v : {int64_t{0}, int64_t{0}, kHalf, int64_t{0}, int64_t{0}, kHalf, int64_t{0}, int64_t{0}, kHalf, int64_t{3}}) {
      call.integer(v);
    }
    return call.run<int16_t>("squared_difference_s16");
  };
  EXPECT_EQ(run({300, -100, 200, 10, -4}, {100, 100, -200, 4, 4}), (std::vector<int16_t>{32767, 32767, 32767, 36, 64}));
}

TEST(SquaredDifferenceUnquantized, Int32WrapsAndFloatBroadcasts) {
  NodeCall ints;
  ints.in<int32_t>(DType::Int32, {2}, {65536, -3}).in<int32_t>(DType::Int32, {2}, {0, 4}).out(DType::Int32, {2});
  EXPECT_EQ(ints.run<int32_t>("squared_difference_s32"), (std::vector<int32_t>{0, 49}));  // 2^32 wraps to 0

  NodeCall floats;
  floats.in<float>(DType::Float32, {2, 1}, {1.5f, -1.0f}).in<float>(DType::Float32, {2}, {-0.5f, 1.0f}).out(DType::Float32, {2, 2});
  EXPECT_EQ(floats.run<float>("squared_difference_f32"), (std::vector<float>{4.0f, 0.25f, 0.25f, 4.0f}));
}

TEST(SquaredDifferenceCheck, RefusesBadParameters) {
  const auto refused = [](auto edit) {
    Rescale r;
    edit(r);
    return squared_difference_s8({1}, {1}, r).refusal("squared_difference_s8");
  };
  EXPECT_EQ(refused([](Rescale&) {}), "");
  EXPECT_NE(refused([](Rescale& r) { r.left_shift = 24; }), "");  // (x + offset) << 24 leaves int32
  EXPECT_NE(refused([](Rescale& r) { r.a_shift = 1; }), "");      // input multipliers are below one
  EXPECT_NE(refused([](Rescale& r) { r.b_offset = 129; }), "");
  EXPECT_NE(refused([](Rescale& r) { r.out_multiplier = -1; }), "");
  EXPECT_NE(refused([](Rescale& r) { r.out_offset = 128; }), "");
  EXPECT_NE(refused([](Rescale& r) { r.out_shift = 32; }), "");
}

}  // namespace
}  // namespace grt::test
