// MAXIMUM and MINIMUM kernels: raw elements of every dtype, broadcasting, TFLM's NaN order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "node_call.h"

namespace grt::test {
namespace {

using tools::DType;

template <typename T>
std::vector<T> extremum(const char* kernel, DType dtype, std::vector<int64_t> a_shape, const std::vector<T>& a,
                        std::vector<int64_t> b_shape, const std::vector<T>& b, std::vector<int64_t> y_shape) {
  NodeCall call;
  call.in(dtype, std::move(a_shape), a).in(dtype, std::move(b_shape), b).out(dtype, std::move(y_shape));
  return call.run<T>(kernel);
}

TEST(MaximumMinimum, BroadcastInt8) {
  const std::vector<int8_t> a{-128, 0, 127, 5, -5, 1};
  const std::vector<int8_t> b{0, 1, -1};
  EXPECT_EQ(extremum<int8_t>("maximum_s8", DType::Int8, {2, 3}, a, {3}, b, {2, 3}), (std::vector<int8_t>{0, 1, 127, 5, 1, 1}));
  EXPECT_EQ(extremum<int8_t>("minimum_s8", DType::Int8, {2, 3}, a, {3}, b, {2, 3}), (std::vector<int8_t>{-128, 0, -1, 0, -5, -1}));
}

TEST(MaximumMinimum, WiderIntegers) {
  EXPECT_EQ(extremum<int16_t>("maximum_s16", DType::Int16, {2}, {-32768, 300}, {2}, {-1, 299}, {2}),
            (std::vector<int16_t>{-1, 300}));
  EXPECT_EQ(extremum<int32_t>("minimum_s32", DType::Int32, {1}, {7}, {3}, {INT32_MIN, 7, INT32_MAX}, {3}),
            (std::vector<int32_t>{INT32_MIN, 7, 7}));
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(extremum<int64_t>("maximum_i64", DType::Int64, {2}, {big, -big}, {2}, {big + 1, -big - 1}, {2}),
            (std::vector<int64_t>{big + 1, -big}));
}

TEST(MaximumMinimum, FloatNanFollowsTflmsComparisonOrder) {
  // a > b ? a : b (and a < b ? a : b): a NaN in B is taken, a NaN in A is not.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> a{nan, 1.0f, -0.5f};
  const std::vector<float> b{1.0f, nan, 0.25f};
  const std::vector<float> max = extremum<float>("maximum_f32", DType::Float32, {3}, a, {3}, b, {3});
  const std::vector<float> min = extremum<float>("minimum_f32", DType::Float32, {3}, a, {3}, b, {3});
  ASSERT_EQ(max.size(), 3u);
  ASSERT_EQ(min.size(), 3u);
  EXPECT_EQ(max[0], 1.0f);
  EXPECT_TRUE(std::isnan(max[1]));
  EXPECT_EQ(max[2], 0.25f);
  EXPECT_EQ(min[0], 1.0f);
  EXPECT_TRUE(std::isnan(min[1]));
  EXPECT_EQ(min[2], -0.5f);
}

TEST(MaximumMinimumCheck, RefusesMismatchedOperands) {
  NodeCall mixed;
  mixed.in<int8_t>(DType::Int8, {2}, {}).in<int16_t>(DType::Int16, {2}, {}).out(DType::Int8, {2});
  EXPECT_NE(mixed.refusal("maximum_s8").find("dtype"), std::string::npos);
  NodeCall shape;
  shape.in<int8_t>(DType::Int8, {2, 3}, {}).in<int8_t>(DType::Int8, {3}, {}).out(DType::Int8, {3, 3});
  EXPECT_NE(shape.refusal("minimum_s8").find("broadcast"), std::string::npos);
  NodeCall extra;
  extra.in<int8_t>(DType::Int8, {2}, {}).in<int8_t>(DType::Int8, {2}, {}).out(DType::Int8, {2}).integer(0);
  EXPECT_NE(extra.refusal("minimum_s8"), "");
}

}  // namespace
}  // namespace grt::test
