// The CAST, FILL, ZEROS_LIKE, SHAPE and BROADCAST_TO converters, imported from TFLite and
// run; and what they refuse as TFLM does.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "one_op_tflite.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

OneOp unary(BuiltinOperator op, OpTensor in, OpTensor out) {
  OneOp m;
  m.op = op;
  m.inputs = {m.add(std::move(in))};
  m.outputs = {m.add(std::move(out))};
  return m;
}

TEST(CastImport, NarrowsInt32ToInt8ByWrapping) {
  const OneOp m = unary(BuiltinOperator::CAST, {.type = TensorType::INT32, .shape = {3}}, {.type = TensorType::INT8, .shape = {3}});
  EXPECT_EQ(run_op<int8_t>(m, std::vector<std::vector<int32_t>>{{200, -200, 5}}), (std::vector<std::vector<int8_t>>{{-56, 56, 5}}));
}

TEST(CastImport, ASameTypeCastIsACopy) {
  const OneOp m = unary(BuiltinOperator::CAST, {.type = TensorType::INT16, .shape = {2}}, {.type = TensorType::INT16, .shape = {2}});
  EXPECT_EQ(run_op<int16_t>(m, std::vector<std::vector<int16_t>>{{-7, 300}}), (std::vector<std::vector<int16_t>>{{-7, 300}}));
}

TEST(CastImport, RefusesTypesTflmDoesNotCast) {
  EXPECT_NE(import_error(unary(BuiltinOperator::CAST, {.type = TensorType::FLOAT32, .shape = {2}}, {.type = TensorType::BOOL, .shape = {2}}))
                .find("output type bool"),
            std::string::npos);
  EXPECT_NE(import_error(unary(BuiltinOperator::CAST, {.type = TensorType::UINT8, .shape = {2}}, {.type = TensorType::INT8, .shape = {2}}))
                .find("input type uint8"),
            std::string::npos);
}

// FILL(dims, value) -> y [2, 3].
OneOp fill(OpTensor dims, TensorType value_type = TensorType::INT8, std::vector<int32_t> value_shape = {}) {
  OneOp m;
  m.op = BuiltinOperator::FILL;
  const int32_t d = m.add(std::move(dims));
  m.inputs = {d, m.add({.type = value_type, .shape = std::move(value_shape)})};
  m.outputs = {m.add({.type = TensorType::INT8, .shape = {2, 3}})};
  return m;
}

OpTensor int64_dims(const std::vector<int64_t>& values) {
  return {.type = TensorType::INT64, .shape = {static_cast<int32_t>(values.size())}, .data = bytes_of(values)};
}

TEST(FillImport, FillsTheOutputShape) {
  EXPECT_EQ(run_op<int8_t>(fill(int64_dims({2, 3})), std::vector<std::vector<int8_t>>{{-9}}),
            (std::vector<std::vector<int8_t>>{std::vector<int8_t>(6, -9)}));
}

TEST(FillImport, RefusesDimsThatAreNotTheOutputsOrNotConstant) {
  EXPECT_NE(import_error(fill(int64_dims({3, 2}))).find("dims do not match"), std::string::npos);
  EXPECT_NE(import_error(fill({.type = TensorType::INT32, .shape = {2}})).find("dims must be a constant"), std::string::npos);
  EXPECT_NE(import_error(fill(int64_dims({2, 3}), TensorType::INT8, {1})).find("scalar"), std::string::npos);
  EXPECT_NE(import_error(fill(int64_dims({2, 3}), TensorType::INT16)).find("value and output types differ"), std::string::npos);
}

TEST(ZerosLikeImport, WritesZeroBytesNotTheZeroPoint) {
  const OneOp m = unary(BuiltinOperator::ZEROS_LIKE, {.type = TensorType::INT8, .shape = {4}, .scale = 0.5f, .zero_point = -5},
                        {.type = TensorType::INT8, .shape = {4}, .scale = 0.5f, .zero_point = -5});
  EXPECT_EQ(run_op<int8_t>(m, std::vector<std::vector<int8_t>>{{1, 2, 3, 4}}), (std::vector<std::vector<int8_t>>{{0, 0, 0, 0}}));
  EXPECT_NE(import_error(unary(BuiltinOperator::ZEROS_LIKE, {.type = TensorType::INT16, .shape = {2}},
                               {.type = TensorType::INT16, .shape = {2}}))
                .find("int16 is not supported"),
            std::string::npos);
}

TEST(ShapeImport, WritesTheStaticShape) {
  const OneOp m = unary(BuiltinOperator::SHAPE, {.type = TensorType::FLOAT32, .shape = {1, 5, 3}}, {.type = TensorType::INT32, .shape = {3}});
  EXPECT_EQ(run_op<int32_t>(m, std::vector<std::vector<float>>{std::vector<float>(15, 0.0f)}),
            (std::vector<std::vector<int32_t>>{{1, 5, 3}}));
  // TFLM's SHAPE writes int32 only.
  EXPECT_NE(import_error(unary(BuiltinOperator::SHAPE, {.type = TensorType::FLOAT32, .shape = {1, 5, 3}},
                               {.type = TensorType::INT64, .shape = {3}}))
                .find("output type int64"),
            std::string::npos);
}

OneOp broadcast_to(std::vector<int32_t> in_shape, const std::vector<int32_t>& target) {
  OneOp m;
  m.op = BuiltinOperator::BROADCAST_TO;
  const int32_t x = m.add({.type = TensorType::INT16, .shape = std::move(in_shape)});
  m.inputs = {x, m.add({.type = TensorType::INT32, .shape = {static_cast<int32_t>(target.size())}, .data = bytes_of(target)})};
  m.outputs = {m.add({.type = TensorType::INT16, .shape = target})};
  return m;
}

TEST(BroadcastToImport, RepeatsTheInput) {
  EXPECT_EQ(run_op<int16_t>(broadcast_to({2}, {3, 2}), std::vector<std::vector<int16_t>>{{-1, 1000}}),
            (std::vector<std::vector<int16_t>>{{-1, 1000, -1, 1000, -1, 1000}}));
  EXPECT_NE(import_error(broadcast_to({2}, {2, 3})).find("not broadcastable"), std::string::npos);
  EXPECT_NE(import_error(broadcast_to({1}, {1, 1, 1, 1, 1, 2})).find("at most 5"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
