// The reduction kernels on hand-written walks: MEAN / SUM (TFLM's double rounding, zero point
// * count, saturation, row-major float order, empty reductions), REDUCE_MAX / MIN (starting
// values), ARG_MAX / MIN (first index on ties, int64 indices), and their checks' refusals.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

struct Reduction {
  const char* kernel = "sum_s8";
  DType in_type = DType::Int8;
  DType out_type = DType::Int8;
  std::vector<int64_t> in_shape;
  std::vector<int64_t> out_shape;
  std::vector<int32_t> kept;
  std::vector<int32_t> reduced;
  std::vector<int64_t> quantization;  // input zero point, multiplier, shift, output zero point

  OneNode model() const {
    OneNode m;
    const uint32_t x = m.input(in_type, in_shape);
    const uint32_t y = m.output(out_type, out_shape);
    std::vector<ArgDef> args = {ArgDef::input(x), ArgDef::output(y), ArgDef::int_array(m.ints(kept)),
                                ArgDef::int_array(m.ints(reduced))};
    for (const int64_t v : quantization) args.push_back(ArgDef::integer(v));
    m.node(kernel, std::move(args));
    return m;
  }
  template <typename In, typename Out = In>
  std::vector<Out> run(const std::vector<In>& input) const {
    Loaded loaded(model().def);
    EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
    if (loaded.status() != GRT_OK) return {};
    loaded.set_input(0, input);
    EXPECT_EQ(loaded.run(), GRT_OK);
    return loaded.output<Out>(0);
  }
};

constexpr int64_t kHalf = int64_t{1} << 30;  // Q31 0.5: with shift 1 the multiplier is 1.0

// [rows, n] reduced over its last axis.
Reduction rows_reduced(const char* kernel, DType type, int64_t rows, int64_t n, std::vector<int64_t> quantization = {}) {
  return Reduction{kernel,
                   type,
                   type,
                   {rows, n},
                   {rows},
                   {static_cast<int32_t>(rows), static_cast<int32_t>(n)},
                   {static_cast<int32_t>(n), 1},
                   std::move(quantization)};
}

TEST(SumS8, RoundsTiesAsTheReferenceDoubleRoundingDoes) {
  // Multiplier 0.5 (2^30, shift 0): 3 * 0.5 = 1.5 -> 2, but -3 * 0.5 = -1.5 -> -1, because the
  // doubling high multiply nudges negative products by 1 - 2^30 and then truncates.
  const Reduction half = rows_reduced("sum_s8", DType::Int8, 2, 2, {0, kHalf, 0, 0});
  EXPECT_EQ(half.run<int8_t>({1, 2, -1, -2}), (std::vector<int8_t>{2, -1}));
  // Multiplier 0.25 (2^30, shift -1): 2 -> 1 -> 0.5 rounds away from zero to 1; -2 -> -1 ->
  // -0.5 -> -1.
  const Reduction quarter = rows_reduced("sum_s8", DType::Int8, 2, 2, {0, kHalf, -1, 0});
  EXPECT_EQ(quarter.run<int8_t>({1, 1, -1, -1}), (std::vector<int8_t>{1, -1}));
}

TEST(SumS8, SubtractsZeroPointTimesCountAndSaturates) {
  // Input zero point -5 over 3 values: (-5 * 3) - (-5 * 3) = 0 -> output zero point 7; the
  // second row sums (127 + 5) * 3 = 396 -> 127 after adding 7.
  const Reduction r = rows_reduced("sum_s8", DType::Int8, 3, 3, {-5, kHalf, 1, 7});
  EXPECT_EQ(r.run<int8_t>({-5, -5, -5, 127, 127, 127, -128, -128, -128}), (std::vector<int8_t>{7, 127, -128}));
}

TEST(MeanS16, FoldedMultiplierAveragesAndSaturates) {
  // TFLM folds 1/3 into (2^30, 1): shift 1, multiplier (2^30 << 1) / 3 = 715827882, shift 0.
  const Reduction r = rows_reduced("mean_s16", DType::Int16, 3, 3, {0, 715827882, 0, 0});
  // 6001 / 3 = 2000.33 -> 2000; -98304 * 0.33333333302 = -32767.99997 -> -32768;
  // 98301 / 3 -> 32767. An output zero point of 100 then saturates the last at 32767.
  EXPECT_EQ(r.run<int16_t>({1000, 2000, 3001, -32768, -32768, -32768, 32767, 32767, 32767}),
            (std::vector<int16_t>{2000, -32768, 32767}));
  Reduction shifted = r;
  shifted.quantization = {0, 715827882, 0, 100};
  EXPECT_EQ(shifted.run<int16_t>({1000, 2000, 3001, -32768, -32768, -32768, 32767, 32767, 32767}),
            (std::vector<int16_t>{2100, -32668, 32767}));
}

TEST(MeanF32, AveragesOverNonAdjacentAxes) {
  // [2, 3, 4] over axes 0 and 2: kept (3, stride 4); reduced (2, stride 12), (4, stride 1).
  // Element (i, j, k) = 12i + 4j + k, so each mean is 4j + 7.5.
  const Reduction r{"mean_f32", DType::Float32, DType::Float32, {2, 3, 4}, {3}, {3, 4}, {2, 12, 4, 1}, {}};
  std::vector<float> input(24);
  for (int i = 0; i < 24; ++i) input[static_cast<size_t>(i)] = static_cast<float>(i);
  EXPECT_EQ(r.run<float>(input), (std::vector<float>{7.5f, 11.5f, 15.5f}));
}

TEST(SumF32, AddsInRowMajorOrder) {
  // ((1e8 + 1) - 1e8) + 1 = 1 in float (1e8 + 1 rounds to 1e8); any other order differs.
  const Reduction r{"sum_f32", DType::Float32, DType::Float32, {2, 2}, {1}, {}, {4, 1}, {}};
  EXPECT_EQ(r.run<float>({1e8f, 1.0f, -1e8f, 1.0f}), (std::vector<float>{1.0f}));
}

TEST(Reduction, AnEmptyReductionGivesTheReferenceStartingValue) {
  // [2, 0] over axis 1: two outputs, nothing to fold. Quantized MEAN / SUM write 0 (TFLM's
  // T(), not the zero point), float SUM 0, REDUCE_MAX the lowest value.
  Reduction sum = rows_reduced("sum_s8", DType::Int8, 2, 0, {-5, kHalf, 1, 9});
  EXPECT_EQ(sum.run<int8_t>({}), (std::vector<int8_t>{0, 0}));
  Reduction max = rows_reduced("reduce_max_f32", DType::Float32, 2, 0);
  EXPECT_EQ(max.run<float>({}), (std::vector<float>{-FLT_MAX, -FLT_MAX}));
  Reduction fsum = rows_reduced("mean_f32", DType::Float32, 2, 0);
  EXPECT_EQ(fsum.run<float>({}), (std::vector<float>{0.0f, 0.0f}));
}

TEST(ReduceMaxMin, KeepTheExtremeAndStartFromTheTypeLimits) {
  const Reduction max = rows_reduced("reduce_max_s8", DType::Int8, 2, 3);
  EXPECT_EQ(max.run<int8_t>({-128, -128, -128, 5, -7, 5}), (std::vector<int8_t>{-128, 5}));
  const Reduction min = rows_reduced("reduce_min_s8", DType::Int8, 2, 3);
  EXPECT_EQ(min.run<int8_t>({127, 127, 127, 5, -7, 5}), (std::vector<int8_t>{127, -7}));
  // All -inf: nothing compares greater than the starting -FLT_MAX, as in TFLM.
  const float inf = std::numeric_limits<float>::infinity();
  const Reduction fmax = rows_reduced("reduce_max_f32", DType::Float32, 1, 2);
  EXPECT_EQ(fmax.run<float>({-inf, -inf}), (std::vector<float>{-FLT_MAX}));
  const Reduction fmin = rows_reduced("reduce_min_f32", DType::Float32, 1, 3);
  EXPECT_EQ(fmin.run<float>({2.0f, -0.5f, 1.0f}), (std::vector<float>{-0.5f}));
}

TEST(ArgMaxMin, TiesKeepTheFirstIndex) {
  Reduction argmax = rows_reduced("arg_max_s8_s32", DType::Int8, 3, 4);
  argmax.out_type = DType::Int32;
  EXPECT_EQ((argmax.run<int8_t, int32_t>({1, 9, 9, 2, -5, -5, -5, -5, 0, 1, 2, 3})), (std::vector<int32_t>{1, 0, 3}));
  Reduction argmin = rows_reduced("arg_min_f32_i64", DType::Float32, 2, 3);
  argmin.out_type = DType::Int64;
  EXPECT_EQ((argmin.run<float, int64_t>({3.0f, -1.0f, -1.0f, 0.5f, 0.25f, 0.125f})), (std::vector<int64_t>{1, 2}));
}

TEST(ArgMaxMin, AlongAMiddleAxisAndAfterANaN) {
  // [2, 3, 2] along axis 1: kept (2, stride 6), (2, stride 1); the axis (3, stride 2).
  Reduction argmax{"arg_max_f32_s32", DType::Float32, DType::Int32, {2, 3, 2}, {2, 2}, {2, 6, 2, 1}, {3, 2}, {}};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Column (0, *, 0): 1, 5, 3 -> 1. (0, *, 1): NaN first is never replaced -> 0.
  // (1, *, 0): 0, 0, 7 -> 2. (1, *, 1): 4, 4, 4 -> 0.
  EXPECT_EQ((argmax.run<float, int32_t>({1, nan, 5, 9, 3, 2, 0, 4, 0, 4, 7, 4})), (std::vector<int32_t>{1, 0, 2, 0}));
  // An axis of size 1 is dropped by the importer: no reduced walk, every index is 0.
  Reduction unit{"arg_min_s8_s32", DType::Int8, DType::Int32, {2, 1}, {2}, {2, 1}, {}, {}};
  EXPECT_EQ((unit.run<int8_t, int32_t>({4, -4})), (std::vector<int32_t>{0, 0}));
}

TEST(ReductionCheck, RefusesWalksThatDoNotFitTheTensors) {
  const auto refused = [](Reduction r) { return refusal(r.model()); };
  const Reduction good = rows_reduced("sum_s8", DType::Int8, 2, 3, {0, kHalf, 1, 0});
  EXPECT_EQ(refused(good), "");
  Reduction r = good;
  r.out_shape = {3};
  EXPECT_NE(refused(r).find("every output element"), std::string::npos);
  r = good;
  r.reduced = {3, 2};  // row 1 would read element 3 + 4 = 7 of 6
  EXPECT_NE(refused(r).find("reach past the input"), std::string::npos);
  r = good;
  r.reduced = {3};
  EXPECT_NE(refused(r).find("(extent, stride) pairs"), std::string::npos);
  r = good;
  r.kept = {2, -3};
  EXPECT_NE(refused(r).find("must not be negative"), std::string::npos);
  r = good;
  r.quantization = {0, kHalf, 31, 0};
  EXPECT_NE(refused(r).find("argument 6 is out of range"), std::string::npos);
  r = good;
  r.quantization = {0, kHalf, 1};
  EXPECT_NE(refused(r).find("wrong number of arguments"), std::string::npos);
  r = good;
  r.kernel = "sum_s16";
  EXPECT_NE(refused(r).find("argument 0 has the wrong dtype"), std::string::npos);
  Reduction arg{"arg_max_s8_s32", DType::Int8, DType::Int32, {2, 3, 2}, {2}, {2, 6}, {3, 2, 2, 1}, {}};
  EXPECT_NE(refused(arg).find("too many dimensions"), std::string::npos);
  arg.out_type = DType::Int16;
  arg.reduced = {3, 2};
  arg.out_shape = {2, 2};
  arg.kept = {2, 6, 2, 1};
  EXPECT_NE(refused(arg).find("argument 1 has the wrong dtype"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
