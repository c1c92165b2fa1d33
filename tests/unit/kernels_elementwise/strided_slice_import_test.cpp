// The STRIDED_SLICE converter: TFLite's begin/end/strides with masks, negative indices and
// out-of-range bounds resolve into the kernel's per-dimension walks as TFLM resolves them.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "graphrt/tools/importer.h"
#include "one_node.h"
#include "tflite_generated.h"

namespace grt::test {
namespace {

struct SliceSpec {
  std::vector<int32_t> in_shape;
  std::vector<int32_t> begin, end, strides;
  int32_t begin_mask = 0, end_mask = 0, shrink_axis_mask = 0, ellipsis_mask = 0;
  std::vector<int32_t> out_shape;
};

std::vector<uint8_t> int32_bytes(const std::vector<int32_t>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(int32_t));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// int16 x -> STRIDED_SLICE(begin, end, strides as constants) -> y.
std::vector<uint8_t> strided_slice_tflite(const SliceSpec& s) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers{tflite::CreateBuffer(fbb)};
  const auto constant_buffer = [&](const std::vector<int32_t>& values) {
    const std::vector<uint8_t> bytes = int32_bytes(values);
    fbb.ForceVectorAlignment(bytes.size(), sizeof(uint8_t), 16);
    buffers.push_back(tflite::CreateBuffer(fbb, fbb.CreateVector(bytes)));
    return static_cast<uint32_t>(buffers.size() - 1);
  };
  const std::vector<int32_t> rank{static_cast<int32_t>(s.in_shape.size())};
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors{
      tflite::CreateTensorDirect(fbb, &s.in_shape, tflite::TensorType::INT16, 0, "x"),
      tflite::CreateTensorDirect(fbb, &rank, tflite::TensorType::INT32, constant_buffer(s.begin), "begin"),
      tflite::CreateTensorDirect(fbb, &rank, tflite::TensorType::INT32, constant_buffer(s.end), "end"),
      tflite::CreateTensorDirect(fbb, &rank, tflite::TensorType::INT32, constant_buffer(s.strides), "strides"),
      tflite::CreateTensorDirect(fbb, &s.out_shape, tflite::TensorType::INT16, 0, "y")};
  const auto options = tflite::CreateStridedSliceOptions(fbb, s.begin_mask, s.end_mask, s.ellipsis_mask, 0, s.shrink_axis_mask);
  const std::vector<int32_t> op_inputs{0, 1, 2, 3};
  const std::vector<int32_t> op_outputs{4};
  std::vector<flatbuffers::Offset<tflite::Operator>> operators{tflite::CreateOperatorDirect(
      fbb, 0, &op_inputs, &op_outputs, tflite::BuiltinOptions::StridedSliceOptions, options.Union())};
  const auto code = static_cast<int8_t>(tflite::BuiltinOperator::STRIDED_SLICE);
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes{
      tflite::CreateOperatorCode(fbb, code, 0, 1, tflite::BuiltinOperator::STRIDED_SLICE)};
  const std::vector<int32_t> inputs{0};
  const std::vector<int32_t> outputs{4};
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs{
      tflite::CreateSubGraphDirect(fbb, &tensors, &inputs, &outputs, &operators, "main")};
  tflite::FinishModelBuffer(fbb, tflite::CreateModelDirect(fbb, 3, &codes, &subgraphs, nullptr, &buffers));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

// Imports the slice and runs it on 0, 1, 2, ... ; returns the output (empty on failure).
std::vector<int16_t> slice_of_iota(const SliceSpec& s, std::string* error = nullptr) {
  const std::vector<uint8_t> tflite = strided_slice_tflite(s);
  tools::ModelDef def;
  const tools::ImportResult imported = tools::import_tflite(tflite.data(), tflite.size(), &def);
  if (!imported.ok) {
    if (error != nullptr) *error = imported.error;
    return {};
  }
  Loaded loaded(def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return {};
  const int n = std::accumulate(s.in_shape.begin(), s.in_shape.end(), 1, std::multiplies<>());
  std::vector<int16_t> in(static_cast<size_t>(n));
  std::iota(in.begin(), in.end(), int16_t{0});
  loaded.set_input(0, in);
  EXPECT_EQ(loaded.run(), GRT_OK);
  return loaded.output<int16_t>(0);
}

// x is [2, 5] holding 0..9 in every case below.
TEST(StridedSliceImport, MasksTakeWholeDimensionsAndNegativeStridesWalkBack) {
  // x[:, ::-2]: begin and end masks on both axes; the stride of -2 starts at the last column.
  SliceSpec s{.in_shape = {2, 5}, .begin = {0, 0}, .end = {0, 0}, .strides = {1, -2}, .begin_mask = 3, .end_mask = 3,
              .out_shape = {2, 3}};
  EXPECT_EQ(slice_of_iota(s), (std::vector<int16_t>{4, 2, 0, 9, 7, 5}));
}

TEST(StridedSliceImport, NegativeIndicesCountFromTheEnd) {
  // x[-1:, -2:-5:-1] -> row 1, columns 3, 2, 1
  SliceSpec s{.in_shape = {2, 5}, .begin = {-1, -2}, .end = {2, -5}, .strides = {1, -1}, .out_shape = {1, 3}};
  EXPECT_EQ(slice_of_iota(s), (std::vector<int16_t>{8, 7, 6}));
}

TEST(StridedSliceImport, BoundsBeyondTheInputAreClamped) {
  // x[-10:10, 3:100]
  SliceSpec s{.in_shape = {2, 5}, .begin = {-10, 3}, .end = {10, 100}, .strides = {1, 1}, .out_shape = {2, 2}};
  EXPECT_EQ(slice_of_iota(s), (std::vector<int16_t>{3, 4, 8, 9}));
}

TEST(StridedSliceImport, ShrinkAxisDropsADimension) {
  // x[1, 1:4]
  SliceSpec s{.in_shape = {2, 5}, .begin = {1, 1}, .end = {2, 4}, .strides = {1, 1}, .shrink_axis_mask = 1,
              .out_shape = {3}};
  EXPECT_EQ(slice_of_iota(s), (std::vector<int16_t>{6, 7, 8}));
}

TEST(StridedSliceImport, AnEmptySliceYieldsAnEmptyOutput) {
  // x[:, 3:1] is empty with a positive stride.
  SliceSpec s{.in_shape = {2, 5}, .begin = {0, 3}, .end = {2, 1}, .strides = {1, 1}, .out_shape = {2, 0}};
  EXPECT_TRUE(slice_of_iota(s).empty());
}

TEST(StridedSliceImport, RefusesWhatItCannotMatch) {
  std::string error;
  SliceSpec wrong_size{.in_shape = {2, 5}, .begin = {0, 0}, .end = {2, 5}, .strides = {1, 1}, .out_shape = {2, 4}};
  EXPECT_TRUE(slice_of_iota(wrong_size, &error).empty());
  EXPECT_NE(error.find("elements"), std::string::npos) << error;
  SliceSpec zero_stride{.in_shape = {2, 5}, .begin = {0, 0}, .end = {2, 5}, .strides = {1, 0}, .out_shape = {2, 5}};
  EXPECT_TRUE(slice_of_iota(zero_stride, &error).empty());
  EXPECT_NE(error.find("stride is zero"), std::string::npos) << error;
  SliceSpec ellipsis{.in_shape = {2, 5}, .begin = {0, 0}, .end = {2, 5}, .strides = {1, 1}, .ellipsis_mask = 1,
                     .out_shape = {2, 5}};
  EXPECT_TRUE(slice_of_iota(ellipsis, &error).empty());
  EXPECT_NE(error.find("ellipsis_mask"), std::string::npos) << error;
}

}  // namespace
}  // namespace grt::test
