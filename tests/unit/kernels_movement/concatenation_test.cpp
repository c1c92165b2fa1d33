// The concatenation kernel (CONCATENATION and PACK): rows of each input in turn along the
// axis, and the init check refusing shapes that do not fit.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

TEST(Concatenation, JoinsRowsAlongTheAxis) {
  // [2, 2] and [2, 3] along axis 1 -> [2, 5]
  OneNode m;
  const uint32_t a = m.input(DType::Int8, {2, 2});
  const uint32_t b = m.input(DType::Int8, {2, 3});
  const uint32_t y = m.output(DType::Int8, {2, 5});
  m.node("concatenation", {ArgDef::output(y), ArgDef::integer(1), ArgDef::input(a), ArgDef::input(b)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<int8_t>{1, 2, 3, 4});
  loaded.set_input(1, std::vector<int8_t>{-1, -2, -3, -4, -5, -6});
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<int8_t>(0), (std::vector<int8_t>{1, 2, -1, -2, -3, 3, 4, -4, -5, -6}));
}

TEST(Concatenation, StacksInputsOfOneRankLessAsPack) {
  // PACK of three int16 [2] along axis 1 -> [2, 3]: y[i, j] = input j's element i.
  OneNode m;
  const uint32_t a = m.input(DType::Int16, {2});
  const uint32_t b = m.input(DType::Int16, {2});
  const uint32_t c = m.input(DType::Int16, {2});
  const uint32_t y = m.output(DType::Int16, {2, 3});
  m.node("concatenation", {ArgDef::output(y), ArgDef::integer(1), ArgDef::input(a), ArgDef::input(b), ArgDef::input(c)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<int16_t>{1, 2});
  loaded.set_input(1, std::vector<int16_t>{300, 400});
  loaded.set_input(2, std::vector<int16_t>{-5, -6});
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<int16_t>(0), (std::vector<int16_t>{1, 300, -5, 2, 400, -6}));
}

TEST(Concatenation, AxisZeroAppendsWholeTensors) {
  OneNode m;
  const uint32_t a = m.input(DType::Float32, {1, 2});
  const uint32_t b = m.input(DType::Float32, {2, 2});
  const uint32_t y = m.output(DType::Float32, {3, 2});
  m.node("concatenation", {ArgDef::output(y), ArgDef::integer(0), ArgDef::input(a), ArgDef::input(b)});
  Loaded loaded(m.def);
  ASSERT_EQ(loaded.status(), GRT_OK) << loaded.message();
  loaded.set_input(0, std::vector<float>{0.5f, -0.5f});
  loaded.set_input(1, std::vector<float>{1, 2, 3, 4});
  ASSERT_EQ(loaded.run(), GRT_OK);
  EXPECT_EQ(loaded.output<float>(0), (std::vector<float>{0.5f, -0.5f, 1, 2, 3, 4}));
}

std::string concatenation_refusal(std::vector<int64_t> a_shape, std::vector<int64_t> b_shape, DType b_type,
                                  std::vector<int64_t> out_shape, int64_t axis) {
  OneNode m;
  const uint32_t a = m.input(DType::Int8, std::move(a_shape));
  const uint32_t b = m.input(b_type, std::move(b_shape));
  const uint32_t y = m.output(DType::Int8, std::move(out_shape));
  m.node("concatenation", {ArgDef::output(y), ArgDef::integer(axis), ArgDef::input(a), ArgDef::input(b)});
  return refusal(m);
}

TEST(ConcatenationCheck, RefusesShapesThatDoNotFitTheOutput) {
  EXPECT_EQ(concatenation_refusal({2, 2}, {2, 3}, DType::Int8, {2, 5}, 1), "");
  EXPECT_NE(concatenation_refusal({2, 2}, {3, 3}, DType::Int8, {2, 5}, 1).find("off the axis"), std::string::npos);
  EXPECT_NE(concatenation_refusal({2, 2}, {2, 3}, DType::Int8, {2, 6}, 1).find("add up"), std::string::npos);
  EXPECT_NE(concatenation_refusal({2, 2}, {2, 3}, DType::Int16, {2, 5}, 1).find("dtypes differ"), std::string::npos);
  EXPECT_NE(concatenation_refusal({2, 2}, {2, 3}, DType::Int8, {2, 5}, 2).find("out of range"), std::string::npos);
  // A rank-1 input stands for PACK only where it fits.
  EXPECT_NE(concatenation_refusal({2, 2}, {3}, DType::Int8, {2, 3}, 1).find("off the axis"), std::string::npos);
}

TEST(ConcatenationCheck, RefusesANodeWithoutInputs) {
  OneNode m;
  const uint32_t y = m.output(DType::Int8, {2});
  m.node("concatenation", {ArgDef::output(y), ArgDef::integer(0)});
  EXPECT_NE(refusal(m).find("number of arguments"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
