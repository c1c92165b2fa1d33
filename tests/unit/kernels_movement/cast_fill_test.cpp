// The cast kernels (C++ conversions as TFLM's cast: truncation toward zero, wrap-around
// when narrowing, no saturation), fill and broadcast_to.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "one_node.h"
#include "run_one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

template <typename In, typename Out>
std::vector<Out> cast(const char* kernel, DType in_type, DType out_type, const std::vector<In>& in) {
  return run_unary_kernel<In, Out>(kernel, in_type, out_type, in);
}

TEST(Cast, FloatToIntegerTruncatesTowardZero) {
  EXPECT_EQ((cast<float, int8_t>("cast_f32_s8", DType::Float32, DType::Int8, {2.9f, -2.9f, 0.5f, -0.5f, 127.9f, -128.7f})),
            (std::vector<int8_t>{2, -2, 0, 0, 127, -128}));
  EXPECT_EQ((cast<float, int32_t>("cast_f32_s32", DType::Float32, DType::Int32, {1e9f, -1e9f, 99.99f})),
            (std::vector<int32_t>{1000000000, -1000000000, 99}));
}

TEST(Cast, FloatBeyondInt32OrNanGivesTheHostConversionsInt32Min) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ((cast<float, int32_t>("cast_f32_s32", DType::Float32, DType::Int32, {3e9f, -3e9f, nan})),
            (std::vector<int32_t>{INT32_MIN, INT32_MIN, INT32_MIN}));
  // ... and narrows from there: INT32_MIN's low 16 bits are 0.
  EXPECT_EQ((cast<float, int16_t>("cast_f32_s16", DType::Float32, DType::Int16, {3e9f, 40000.5f})),
            (std::vector<int16_t>{0, -25536}));
}

TEST(Cast, NarrowingIntegersWrapsAround) {
  EXPECT_EQ((cast<int32_t, int8_t>("cast_s32_s8", DType::Int32, DType::Int8, {300, -129, 128, -1, INT32_MIN})),
            (std::vector<int8_t>{44, 127, -128, -1, 0}));
  EXPECT_EQ((cast<int32_t, int16_t>("cast_s32_s16", DType::Int32, DType::Int16, {70000, -32769})),
            (std::vector<int16_t>{4464, 32767}));
  EXPECT_EQ((cast<int16_t, int8_t>("cast_s16_s8", DType::Int16, DType::Int8, {255, -32768})), (std::vector<int8_t>{-1, 0}));
}

TEST(Cast, WideningKeepsTheValue) {
  EXPECT_EQ((cast<int8_t, int32_t>("cast_s8_s32", DType::Int8, DType::Int32, {-128, 127})), (std::vector<int32_t>{-128, 127}));
  EXPECT_EQ((cast<int16_t, float>("cast_s16_f32", DType::Int16, DType::Float32, {-32768, 7})), (std::vector<float>{-32768.0f, 7.0f}));
  // int32 to float rounds to the nearest float: 2^24 + 1 is not a float.
  EXPECT_EQ((cast<int32_t, float>("cast_s32_f32", DType::Int32, DType::Float32, {16777217})), (std::vector<float>{16777216.0f}));
}

TEST(Cast, BoolIsZeroOrOne) {
  EXPECT_EQ((cast<uint8_t, float>("cast_bool_f32", DType::Bool, DType::Float32, {0, 1, 1})), (std::vector<float>{0, 1, 1}));
  EXPECT_EQ((cast<uint8_t, int16_t>("cast_bool_s16", DType::Bool, DType::Int16, {1, 0})), (std::vector<int16_t>{1, 0}));
}

TEST(CastCheck, RefusesOtherDtypesAndSizes) {
  OneNode wrong_type;
  wrong_type.node("cast_s8_s32", {ArgDef::input(wrong_type.input(DType::Int16, {2})), ArgDef::output(wrong_type.output(DType::Int32, {2}))});
  EXPECT_NE(refusal(wrong_type).find("dtype"), std::string::npos);
  OneNode wrong_size;
  wrong_size.node("cast_s8_s32", {ArgDef::input(wrong_size.input(DType::Int8, {2})), ArgDef::output(wrong_size.output(DType::Int32, {3}))});
  EXPECT_NE(refusal(wrong_size).find("sizes differ"), std::string::npos);
}

TEST(Fill, RepeatsTheValue) {
  OneNode m;
  const uint32_t v = m.input(DType::Float32, {});
  const uint32_t y = m.output(DType::Float32, {2, 3});
  m.node("fill", {ArgDef::input(v), ArgDef::output(y)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<float>{-1.25f});
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<float>(0), std::vector<float>(6, -1.25f));
}

TEST(Fill, AConstantZeroMakesZerosOfAnyWidth) {
  OneNode m;
  const uint32_t zero = m.constant<int64_t>(DType::Int64, {}, {0});
  const uint32_t y = m.output(DType::Int64, {3});
  m.node("fill", {ArgDef::input(zero), ArgDef::output(y)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<int64_t>(0), std::vector<int64_t>(3, 0));
}

TEST(FillCheck, RefusesAValueOfSeveralElementsOrAnotherDtype) {
  OneNode several;
  several.node("fill", {ArgDef::input(several.input(DType::Int8, {2})), ArgDef::output(several.output(DType::Int8, {4}))});
  EXPECT_NE(refusal(several).find("one element"), std::string::npos);
  OneNode other;
  other.node("fill", {ArgDef::input(other.input(DType::Int8, {})), ArgDef::output(other.output(DType::Int16, {4}))});
  EXPECT_NE(refusal(other).find("dtypes differ"), std::string::npos);
}

TEST(BroadcastTo, RepeatsAlongSizeOneAndMissingDimensions) {
  // [3, 1] -> [2, 3, 2]
  OneNode m;
  const uint32_t x = m.input(DType::Int8, {3, 1});
  const uint32_t y = m.output(DType::Int8, {2, 3, 2});
  m.node("broadcast_to", {ArgDef::input(x), ArgDef::output(y)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<int8_t>{1, 2, 3});
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<int8_t>(0), (std::vector<int8_t>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
}

TEST(BroadcastToCheck, RefusesAShapeItCannotBroadcastTo) {
  OneNode m;
  m.node("broadcast_to", {ArgDef::input(m.input(DType::Int8, {3, 2})), ArgDef::output(m.output(DType::Int8, {3, 3}))});
  EXPECT_NE(refusal(m).find("broadcastable"), std::string::npos);
  OneNode fewer;
  fewer.node("broadcast_to", {ArgDef::input(fewer.input(DType::Int8, {1, 3})), ArgDef::output(fewer.output(DType::Int8, {3}))});
  EXPECT_NE(refusal(fewer).find("more dimensions"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
