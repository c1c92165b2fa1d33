// The converters that join and cut tensors: CONCATENATION, PACK, UNPACK, SPLIT, SPLIT_V,
// SLICE and REVERSE_V2, imported from TFLite and run; and what they refuse as TFLM does.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "one_op_tflite.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tflite::BuiltinOptions;
using tflite::TensorType;

template <typename T>
std::vector<T> iota(size_t n) {
  std::vector<T> v(n);
  std::iota(v.begin(), v.end(), T{0});
  return v;
}

OpTensor int8_tensor(std::vector<int32_t> shape, float scale = 0.5f, int64_t zero_point = -3) {
  return {.type = TensorType::INT8, .shape = std::move(shape), .scale = scale, .zero_point = zero_point};
}

template <typename T>
OpTensor constant(TensorType type, const std::vector<T>& values) {
  return {.type = type, .shape = {static_cast<int32_t>(values.size())}, .data = bytes_of(values)};
}

OneOp concatenation(std::vector<OpTensor> inputs, OpTensor out, int32_t axis,
                    tflite::ActivationFunctionType activation = tflite::ActivationFunctionType::NONE) {
  OneOp m;
  m.op = BuiltinOperator::CONCATENATION;
  for (OpTensor& t : inputs) m.inputs.push_back(m.add(std::move(t)));
  m.outputs = {m.add(std::move(out))};
  m.options_type = BuiltinOptions::ConcatenationOptions;
  m.options = [=](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateConcatenationOptions(fbb, axis, activation).Union(); };
  return m;
}

TEST(ConcatenationImport, NegativeAxisCountsFromTheEnd) {
  const OneOp m = concatenation({int8_tensor({2, 1}), int8_tensor({2, 2})}, int8_tensor({2, 3}), -1);
  const auto out = run_op<int8_t>(m, std::vector<std::vector<int8_t>>{{1, 2}, {3, 4, 5, 6}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<int8_t>{1, 3, 4, 2, 5, 6}));
}

TEST(ConcatenationImport, RefusesWhatTflmRefuses) {
  EXPECT_NE(import_error(concatenation({int8_tensor({2, 1}), int8_tensor({2, 2}, 0.25f)}, int8_tensor({2, 3}), 1)).find("scale"),
            std::string::npos);
  EXPECT_NE(import_error(concatenation({int8_tensor({2, 1}), int8_tensor({2, 2}, 0.5f, 0)}, int8_tensor({2, 3}), 1)).find("zero point"),
            std::string::npos);
  EXPECT_NE(import_error(concatenation({int8_tensor({2, 1}), int8_tensor({2, 2})}, int8_tensor({2, 3}), 1,
                                       tflite::ActivationFunctionType::RELU))
                .find("fused activation"),
            std::string::npos);
  const OpTensor int16{.type = TensorType::INT16, .shape = {2}, .scale = 0.5f, .zero_point = 1};
  EXPECT_NE(import_error(concatenation({int16, int16}, {.type = TensorType::INT16, .shape = {4}, .scale = 0.5f}, 0)).find("zero point 0"),
            std::string::npos);
  EXPECT_NE(import_error(concatenation({{.type = TensorType::UINT8, .shape = {2}}}, {.type = TensorType::UINT8, .shape = {2}}, 0))
                .find("TFLM accepts"),
            std::string::npos);
  EXPECT_NE(import_error(concatenation({int8_tensor({2, 1}), int8_tensor({2, 2})}, int8_tensor({2, 4}), 1)).find("add up"),
            std::string::npos);
  EXPECT_NE(import_error(concatenation({int8_tensor({2, 1})}, int8_tensor({2, 1}), 2)).find("axis 2"), std::string::npos);
}

OneOp pack(int inputs, int32_t values_count, int32_t axis) {
  OneOp m;
  m.op = BuiltinOperator::PACK;
  for (int i = 0; i < inputs; ++i) m.inputs.push_back(m.add(int8_tensor({2})));
  m.outputs = {m.add(int8_tensor({2, 2}))};
  m.options_type = BuiltinOptions::PackOptions;
  m.options = [=](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreatePackOptions(fbb, values_count, axis).Union(); };
  return m;
}

TEST(PackImport, StacksAlongANegativeAxis) {
  const auto out = run_op<int8_t>(pack(2, 2, -1), std::vector<std::vector<int8_t>>{{1, 2}, {3, 4}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<int8_t>{1, 3, 2, 4}));
  EXPECT_NE(import_error(pack(2, 3, 0)).find("values_count"), std::string::npos);
}

OneOp unpack_2x3_axis1() {
  OneOp m;
  m.op = BuiltinOperator::UNPACK;
  m.inputs = {m.add({.type = TensorType::FLOAT32, .shape = {2, 3}})};
  for (int i = 0; i < 3; ++i) m.outputs.push_back(m.add({.type = TensorType::FLOAT32, .shape = {2}}));
  m.options_type = BuiltinOptions::UnpackOptions;
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateUnpackOptions(fbb, 3, 1).Union(); };
  return m;
}

TEST(UnpackImport, EachOutputTakesOneIndexAlongTheAxis) {
  const OneOp m = unpack_2x3_axis1();
  const auto out = run_op<float>(m, std::vector<std::vector<float>>{iota<float>(6)});
  EXPECT_EQ(out, (std::vector<std::vector<float>>{{0, 3}, {1, 4}, {2, 5}}));
}

TEST(UnpackImport, OutputsShareTheirEqualStridesAndExtents) {
  // Three strided_slice nodes: three begins, but one stride array and one count array.
  const std::vector<uint8_t> bytes = unpack_2x3_axis1().tflite();
  tools::ModelDef def;
  ASSERT_TRUE(tools::import_tflite(bytes.data(), bytes.size(), &def).ok);
  ASSERT_EQ(def.nodes.size(), 3u);
  size_t constants = 0;
  for (const tools::TensorDef& t : def.tensors) constants += t.kind == tools::TensorKind::Constant ? 1 : 0;
  EXPECT_EQ(constants, 5u);
}

TEST(SplitImport, CutsEqualPiecesAlongANegativeAxis) {
  OneOp m;
  m.op = BuiltinOperator::SPLIT;
  const int32_t axis = m.add(constant<int32_t>(TensorType::INT32, {-1}));
  m.inputs = {axis, m.add({.type = TensorType::INT16, .shape = {2, 4}})};
  for (int i = 0; i < 2; ++i) m.outputs.push_back(m.add({.type = TensorType::INT16, .shape = {2, 2}}));
  m.options_type = BuiltinOptions::SplitOptions;
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateSplitOptions(fbb, 2).Union(); };
  const auto out = run_op<int16_t>(m, std::vector<std::vector<int16_t>>{iota<int16_t>(8)});
  EXPECT_EQ(out, (std::vector<std::vector<int16_t>>{{0, 1, 4, 5}, {2, 3, 6, 7}}));
}

TEST(SplitImport, RefusesAnAxisComputedAtRunTime) {
  OneOp m;
  m.op = BuiltinOperator::SPLIT;
  m.inputs = {m.add({.type = TensorType::INT32, .shape = {1}}), m.add({.type = TensorType::INT16, .shape = {2, 4}})};
  for (int i = 0; i < 2; ++i) m.outputs.push_back(m.add({.type = TensorType::INT16, .shape = {2, 2}}));
  EXPECT_NE(import_error(m).find("axis must be a constant"), std::string::npos);
}

OneOp split_v(std::vector<int32_t> sizes, std::vector<std::vector<int32_t>> out_shapes) {
  OneOp m;
  m.op = BuiltinOperator::SPLIT_V;
  const int32_t x = m.add(int8_tensor({3, 2}));
  const int32_t size_splits = m.add(constant<int32_t>(TensorType::INT32, sizes));
  m.inputs = {x, size_splits, m.add(constant<int32_t>(TensorType::INT32, {0}))};
  for (auto& shape : out_shapes) m.outputs.push_back(m.add(int8_tensor(std::move(shape))));
  return m;
}

TEST(SplitVImport, PiecesFollowTheOutputsShapesIncludingAMinusOneSize) {
  const auto out = run_op<int8_t>(split_v({1, -1}, {{1, 2}, {2, 2}}), std::vector<std::vector<int8_t>>{iota<int8_t>(6)});
  EXPECT_EQ(out, (std::vector<std::vector<int8_t>>{{0, 1}, {2, 3, 4, 5}}));
  EXPECT_NE(import_error(split_v({1, 1}, {{1, 2}, {1, 2}})).find("add up"), std::string::npos);
}

OneOp slice(std::vector<int64_t> begin, std::vector<int64_t> size, std::vector<int32_t> out_shape) {
  OneOp m;
  m.op = BuiltinOperator::SLICE;
  const int32_t x = m.add(int8_tensor({3, 4}));
  const int32_t b = m.add(constant<int64_t>(TensorType::INT64, begin));
  m.inputs = {x, b, m.add(constant<int64_t>(TensorType::INT64, size))};
  m.outputs = {m.add(int8_tensor(std::move(out_shape)))};
  return m;
}

TEST(SliceImport, AMinusOneSizeTakesTheRestOfTheDimension) {
  // x[1:, 1:3] of a [3, 4] iota, with int64 begin and size.
  const auto out = run_op<int8_t>(slice({1, 1}, {-1, 2}, {2, 2}), std::vector<std::vector<int8_t>>{iota<int8_t>(12)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<int8_t>{5, 6, 9, 10}));
}

TEST(SliceImport, RefusesASliceOutsideTheInput) {
  EXPECT_NE(import_error(slice({2, 0}, {2, 4}, {2, 4})).find("leaves the input"), std::string::npos);
  EXPECT_NE(import_error(slice({-1, 0}, {1, 4}, {1, 4})).find("leaves the input"), std::string::npos);
  EXPECT_NE(import_error(slice({0, 0}, {1, 4}, {2, 4})).find("does not match"), std::string::npos);
  // Operands that would overflow if added are refused, not added.
  EXPECT_NE(import_error(slice({1, 0}, {INT64_MAX, 4}, {2, 4})).find("leaves the input"), std::string::npos);
  EXPECT_NE(import_error(slice({INT64_MIN, 0}, {-1, 4}, {2, 4})).find("leaves the input"), std::string::npos);
}

OneOp reverse(std::vector<int32_t> axes) {
  OneOp m;
  m.op = BuiltinOperator::REVERSE_V2;
  const int32_t x = m.add(int8_tensor({2, 2, 3}));
  m.inputs = {x, m.add(constant<int32_t>(TensorType::INT32, axes))};
  m.outputs = {m.add(int8_tensor({2, 2, 3}))};
  return m;
}

TEST(ReverseV2Import, ReversesContiguousAxes) {
  const auto out = run_op<int8_t>(reverse({-1, 1}), std::vector<std::vector<int8_t>>{iota<int8_t>(12)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (std::vector<int8_t>{5, 4, 3, 2, 1, 0, 11, 10, 9, 8, 7, 6}));
  EXPECT_NE(import_error(reverse({0, 2})).find("contiguous"), std::string::npos);
  EXPECT_NE(import_error(reverse({1, 1})).find("contiguous"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
