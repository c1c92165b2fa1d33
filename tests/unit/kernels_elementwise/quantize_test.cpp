// QUANTIZE (float to int), requantization between integer types, and DEQUANTIZE.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "one_node.h"
#include "run_one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

std::string convert_refusal(const char* kernel, DType in_dtype, int64_t in_elements, DType out_dtype,
                            int64_t out_elements, std::vector<ArgDef> params) {
  OneNode m;
  const uint32_t x = m.input(in_dtype, {in_elements});
  const uint32_t y = m.output(out_dtype, {out_elements});
  std::vector<ArgDef> args = {ArgDef::input(x), ArgDef::output(y)};
  args.insert(args.end(), params.begin(), params.end());
  m.node(kernel, args);
  return refusal(m);
}

TEST(QuantizeF32S8, RoundsHalfAwayFromZeroAddsTheZeroPointAndSaturates) {
  // scale 0.5, zero point -3
  EXPECT_EQ((run_unary_kernel<float, int8_t>("quantize_f32_s8", DType::Float32, DType::Int8,
                                        {1.0f, 0.25f, -0.25f, 100.0f, -100.0f, 1e10f, -1e10f},
                                        {ArgDef::real(0.5), ArgDef::integer(-3)})),
            (std::vector<int8_t>{-1, -2, -4, 127, -128, 127, -128}));
}

TEST(QuantizeF32S16, ScalesIntoInt16) {
  EXPECT_EQ((run_unary_kernel<float, int16_t>("quantize_f32_s16", DType::Float32, DType::Int16, {1.0f, -0.5f, 40.0f},
                                         {ArgDef::real(1.0 / 1024), ArgDef::integer(0)})),
            (std::vector<int16_t>{1024, -512, 32767}));
}

TEST(QuantizeCheck, RefusesAZeroScaleAndAZeroPointOutsideTheType) {
  EXPECT_NE(convert_refusal("quantize_f32_s8", DType::Float32, 2, DType::Int8, 2, {ArgDef::real(0.0), ArgDef::integer(0)})
                .find("scale"),
            std::string::npos);
  EXPECT_NE(convert_refusal("quantize_f32_s8", DType::Float32, 2, DType::Int8, 2, {ArgDef::real(1.0), ArgDef::integer(200)}),
            "");
  EXPECT_NE(convert_refusal("quantize_f32_s8", DType::Float32, 2, DType::Int8, 3, {ArgDef::real(1.0), ArgDef::integer(0)})
                .find("sizes differ"),
            std::string::npos);
}

std::vector<ArgDef> requantize_params(int64_t in_zero_point, int64_t out_zero_point, int64_t multiplier, int64_t shift) {
  return {ArgDef::integer(in_zero_point), ArgDef::integer(out_zero_point), ArgDef::integer(multiplier),
          ArgDef::integer(shift)};
}

TEST(RequantizeS32S16, HalvesWithRoundingAndSaturates) {
  // multiplier 0.5 = (2^30, 0): 3 -> 1.5 -> 2, but -3 -> -1.5 -> -1 (the doubling high
  // multiply rounds a negative tie toward zero).
  EXPECT_EQ((run_unary_kernel<int32_t, int16_t>("requantize_s32_s16", DType::Int32, DType::Int16,
                                           {3, -3, 100000, INT32_MIN, INT32_MAX}, requantize_params(0, 0, 1 << 30, 0))),
            (std::vector<int16_t>{2, -1, 32767, -32768, 32767}));
}

TEST(RequantizeS32S16, SubtractsAndAddsZeroPoints) {
  // multiplier 1.0 = (2^30, 1): 15 - 10 = 5, then -1.
  EXPECT_EQ((run_unary_kernel<int32_t, int16_t>("requantize_s32_s16", DType::Int32, DType::Int16, {15, 10},
                                           requantize_params(10, -1, 1 << 30, 1))),
            (std::vector<int16_t>{4, -1}));
}

TEST(RequantizeS16S32, Widens) {
  // multiplier 2.0 = (2^30, 2)
  EXPECT_EQ((run_unary_kernel<int16_t, int32_t>("requantize_s16_s32", DType::Int16, DType::Int32, {-32768, 3},
                                           requantize_params(0, 0, 1 << 30, 2))),
            (std::vector<int32_t>{-65536, 6}));
}

TEST(RequantizeS8S8, ShiftsTheZeroPoint) {
  EXPECT_EQ((run_unary_kernel<int8_t, int8_t>("requantize_s8_s8", DType::Int8, DType::Int8, {-128, 0, 127},
                                         requantize_params(-128, 0, 1 << 30, 1))),
            (std::vector<int8_t>{0, 127, 127}));
}

TEST(RequantizeCheck, RefusesShiftsAndZeroPointsOutOfRange) {
  EXPECT_EQ(convert_refusal("requantize_s32_s16", DType::Int32, 2, DType::Int16, 2, requantize_params(0, 0, 1 << 30, 0)), "");
  EXPECT_NE(convert_refusal("requantize_s32_s16", DType::Int32, 2, DType::Int16, 2, requantize_params(0, 0, 1 << 30, 31)), "");
  EXPECT_NE(convert_refusal("requantize_s32_s16", DType::Int32, 2, DType::Int16, 2, requantize_params(0, 40000, 1 << 30, 0)),
            "");
  EXPECT_NE(convert_refusal("requantize_s32_s16", DType::Int32, 2, DType::Int16, 2, requantize_params(0, 0, -5, 0)), "");
  EXPECT_NE(convert_refusal("requantize_s16_s8", DType::Int16, 2, DType::Int8, 2, requantize_params(40000, 0, 1 << 30, 0)),
            "");
  EXPECT_NE(convert_refusal("requantize_s32_s16", DType::Int16, 2, DType::Int16, 2, requantize_params(0, 0, 1 << 30, 0))
                .find("dtype"),
            std::string::npos);
}

TEST(DequantizeS8F32, MultipliesByTheScale) {
  EXPECT_EQ((run_unary_kernel<int8_t, float>("dequantize_s8_f32", DType::Int8, DType::Float32, {-3, 1, 127, -128},
                                        {ArgDef::real(0.5), ArgDef::integer(-3)})),
            (std::vector<float>{0.0f, 2.0f, 65.0f, -62.5f}));
}

TEST(DequantizeS16F32, MultipliesByTheScale) {
  EXPECT_EQ((run_unary_kernel<int16_t, float>("dequantize_s16_f32", DType::Int16, DType::Float32, {-32768, 1024},
                                         {ArgDef::real(1.0 / 1024), ArgDef::integer(0)})),
            (std::vector<float>{-32.0f, 1.0f}));
}

TEST(DequantizeCheck, RefusesMismatchedTensors) {
  EXPECT_NE(convert_refusal("dequantize_s8_f32", DType::Int8, 2, DType::Float32, 1, {ArgDef::real(0.5), ArgDef::integer(0)})
                .find("sizes differ"),
            std::string::npos);
  EXPECT_NE(convert_refusal("dequantize_s8_f32", DType::Int16, 2, DType::Float32, 2, {ArgDef::real(0.5), ArgDef::integer(0)})
                .find("dtype"),
            std::string::npos);
  EXPECT_NE(convert_refusal("dequantize_s8_f32", DType::Int8, 2, DType::Float32, 2, {ArgDef::real(0.5), ArgDef::integer(128)}),
            "");
}

}  // namespace
}  // namespace grt::test
