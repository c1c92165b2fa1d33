// SELECT_V2 kernels: the condition, x and y broadcast together, single-element operands of
// mixed ranks (accepted as TFLM accepts them), any non-zero condition byte as true, refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "node_call.h"

namespace grt::test {
namespace {

using tools::DType;

TEST(SelectV2, BroadcastsConditionXAndY) {
  // condition [1, 3], x [2, 3], y [2, 1] -> out [2, 3].
  NodeCall call;
  call.in<uint8_t>(DType::Bool, {1, 3}, {1, 0, 2});
  call.in<int8_t>(DType::Int8, {2, 3}, {1, 2, 3, 4, 5, 6}).in<int8_t>(DType::Int8, {2, 1}, {-1, -2});
  call.out(DType::Int8, {2, 3});
  EXPECT_EQ(call.run<int8_t>("select_v2_s8"), (std::vector<int8_t>{1, -1, 3, 4, -2, 6}));
}

TEST(SelectV2, SameShapesElementwise) {
  NodeCall floats;
  floats.in<uint8_t>(DType::Bool, {3}, {0, 1, 0});
  floats.in<float>(DType::Float32, {3}, {1.5f, 2.5f, 3.5f}).in<float>(DType::Float32, {3}, {-1.0f, -2.0f, -3.0f});
  floats.out(DType::Float32, {3});
  EXPECT_EQ(floats.run<float>("select_v2_f32"), (std::vector<float>{-1.0f, 2.5f, -3.0f}));

  NodeCall shorts;
  shorts.in<uint8_t>(DType::Bool, {2}, {1, 0}).in<int16_t>(DType::Int16, {2}, {-32768, 7});
  shorts.in<int16_t>(DType::Int16, {1}, {32767}).out(DType::Int16, {2});
  EXPECT_EQ(shorts.run<int16_t>("select_v2_s16"), (std::vector<int16_t>{-32768, 32767}));
}

TEST(SelectV2, SingleElementsOfMixedRanks) {
  // TFLM's "mixed scalar" case: every operand holds one element, whatever its rank.
  NodeCall call;
  call.in<uint8_t>(DType::Bool, {1, 1}, {0}).in<float>(DType::Float32, {}, {1.0f}).in<float>(DType::Float32, {1, 1, 1}, {2.0f});
  call.out(DType::Float32, {1});
  EXPECT_EQ(call.run<float>("select_v2_f32"), (std::vector<float>{2.0f}));
}

TEST(SelectV2Check, RefusesBadOperands) {
  NodeCall int_condition;
  int_condition.in<int8_t>(DType::Int8, {2}, {}).in<int8_t>(DType::Int8, {2}, {}).in<int8_t>(DType::Int8, {2}, {});
  int_condition.out(DType::Int8, {2});
  EXPECT_NE(int_condition.refusal("select_v2_s8").find("dtype"), std::string::npos);

  NodeCall shape;
  shape.in<uint8_t>(DType::Bool, {2}, {}).in<int8_t>(DType::Int8, {3}, {}).in<int8_t>(DType::Int8, {1}, {});
  shape.out(DType::Int8, {3});
  EXPECT_NE(shape.refusal("select_v2_s8").find("broadcast"), std::string::npos);

  NodeCall too_small;
  too_small.in<uint8_t>(DType::Bool, {2, 1}, {}).in<int8_t>(DType::Int8, {3}, {}).in<int8_t>(DType::Int8, {1}, {});
  too_small.out(DType::Int8, {3});
  EXPECT_NE(too_small.refusal("select_v2_s8").find("broadcast"), std::string::npos);

  NodeCall mixed;
  mixed.in<uint8_t>(DType::Bool, {2}, {}).in<float>(DType::Float32, {2}, {}).in<int8_t>(DType::Int8, {2}, {});
  mixed.out(DType::Float32, {2});
  EXPECT_NE(mixed.refusal("select_v2_f32"), "");
}

}  // namespace
}  // namespace grt::test
