// BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND through the importer (3-D and 4-D, crops and
// paddings, the zero-point fill), the converters' refusals and space_to_batch_nd's check.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "one_node.h"
#include "pool_model.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

OpModel batch_space_model(tflite::BuiltinOperator op, tflite::TensorType type, std::vector<int32_t> in_shape,
                          std::vector<int32_t> block, std::vector<int32_t> margins, std::vector<int32_t> out_shape) {
  OpModel m;
  m.op = op;
  const int32_t spatial = static_cast<int32_t>(block.size());
  const float scale = type == tflite::TensorType::FLOAT32 ? 0.0f : 0.05f;
  m.inputs = {{type, std::move(in_shape), {}, scale, -5},
              {tflite::TensorType::INT32, {spatial}, bytes_of(block), 0.0f, 0},
              {tflite::TensorType::INT32, {spatial, 2}, bytes_of(margins), 0.0f, 0}};
  m.output = {type, std::move(out_shape), {}, scale, type == tflite::TensorType::FLOAT32 ? 0 : -5};
  m.options = [op](flatbuffers::FlatBufferBuilder& fbb) {
    if (op == tflite::BuiltinOperator::BATCH_TO_SPACE_ND) {
      return std::make_pair(tflite::BuiltinOptions::BatchToSpaceNDOptions,
                            tflite::CreateBatchToSpaceNDOptions(fbb).Union());
    }
    return std::make_pair(tflite::BuiltinOptions::SpaceToBatchNDOptions,
                          tflite::CreateSpaceToBatchNDOptions(fbb).Union());
  };
  return m;
}

constexpr auto kBatchToSpace = tflite::BuiltinOperator::BATCH_TO_SPACE_ND;
constexpr auto kSpaceToBatch = tflite::BuiltinOperator::SPACE_TO_BATCH_ND;

template <typename T>
std::vector<T> run(const OpModel& m, const std::vector<T>& in) {
  const OpRun r = import_and_run(m, {bytes_of(in)});
  EXPECT_EQ(r.error, "");
  return values_of<T>(r.output);
}

const std::vector<int8_t> kEight = {1, 2, 3, 4, 5, 6, 7, 8};

TEST(BatchToSpaceNdImport, InterleavesBatchesIntoBlocks) {
  // Batches [1, 2], [3, 4], [5, 6], [7, 8] of one row each, 2x2 blocks.
  EXPECT_EQ(
      run(batch_space_model(kBatchToSpace, tflite::TensorType::INT8, {4, 1, 2, 1}, {2, 2}, {0, 0, 0, 0}, {1, 2, 4, 1}),
          kEight),
      (std::vector<int8_t>{1, 3, 2, 4, 5, 7, 6, 8}));
  // Crops take one column from each side.
  EXPECT_EQ(
      run(batch_space_model(kBatchToSpace, tflite::TensorType::INT8, {4, 1, 2, 1}, {2, 2}, {0, 0, 1, 1}, {1, 2, 2, 1}),
          kEight),
      (std::vector<int8_t>{3, 2, 7, 6}));
}

TEST(BatchToSpaceNdImport, KeepsSeveralOutputBatchesAndThreeDimensionalInputs) {
  // Block [2, 1]: input batch spatial_offset * 2 + b goes to output batch b.
  EXPECT_EQ(run(batch_space_model(kBatchToSpace, tflite::TensorType::FLOAT32, {4, 1, 1, 1}, {2, 1}, {0, 0, 0, 0},
                                  {2, 2, 1, 1}),
                std::vector<float>{1, 2, 3, 4}),
            (std::vector<float>{1, 3, 2, 4}));
  // 3-D [N, H, C]: one spatial dimension; the last row is cropped.
  EXPECT_EQ(run(batch_space_model(kBatchToSpace, tflite::TensorType::INT8, {2, 2, 1}, {2}, {0, 1}, {1, 3, 1}),
                std::vector<int8_t>{1, 2, 3, 4}),
            (std::vector<int8_t>{1, 3, 2}));
}

TEST(SpaceToBatchNdImport, SplitsBlocksIntoBatchesAndFillsPaddingWithTheZeroPoint) {
  EXPECT_EQ(
      run(batch_space_model(kSpaceToBatch, tflite::TensorType::INT8, {1, 2, 2, 1}, {2, 2}, {0, 0, 0, 0}, {4, 1, 1, 1}),
          std::vector<int8_t>{1, 2, 3, 4}),
      (std::vector<int8_t>{1, 2, 3, 4}));
  // One padding row above and below: zero point -5 fills them.
  EXPECT_EQ(
      run(batch_space_model(kSpaceToBatch, tflite::TensorType::INT8, {1, 2, 2, 1}, {2, 2}, {1, 1, 0, 0}, {4, 2, 1, 1}),
          std::vector<int8_t>{1, 2, 3, 4}),
      (std::vector<int8_t>{-5, 3, -5, 4, 1, -5, 2, -5}));
}

TEST(SpaceToBatchNdImport, ThreeDimensionalFloatPadsWithZero) {
  EXPECT_EQ(run(batch_space_model(kSpaceToBatch, tflite::TensorType::FLOAT32, {1, 3, 1}, {2}, {1, 0}, {2, 2, 1}),
                std::vector<float>{1, 2, 3}),
            (std::vector<float>{0, 2, 1, 3}));
}

TEST(BatchSpaceImport, RefusesWhatTflmRefuses) {
  const auto error = [](tflite::BuiltinOperator op, tflite::TensorType type, std::vector<int32_t> in_shape,
                        std::vector<int32_t> block, std::vector<int32_t> margins, std::vector<int32_t> out_shape) {
    return import_and_run(batch_space_model(op, type, std::move(in_shape), std::move(block), std::move(margins),
                                            std::move(out_shape)),
                          {})
        .error;
  };
  EXPECT_NE(error(kBatchToSpace, tflite::TensorType::INT16, {4, 1, 2, 1}, {2, 2}, {0, 0, 0, 0}, {1, 2, 4, 1})
                .find("int16 is not supported"),
            std::string::npos);
  EXPECT_NE(error(kBatchToSpace, tflite::TensorType::INT8, {3, 1, 2, 1}, {2, 2}, {0, 0, 0, 0}, {1, 2, 4, 1})
                .find("not a multiple of the block size"),
            std::string::npos);
  EXPECT_NE(error(kBatchToSpace, tflite::TensorType::INT8, {4, 1, 2, 1}, {2, 0}, {0, 0, 0, 0}, {1, 2, 4, 1})
                .find("block_shape must be 1 to 4096"),
            std::string::npos);
  EXPECT_NE(error(kBatchToSpace, tflite::TensorType::INT8, {4, 1, 2, 1}, {2, 2}, {0, 0, -1, 0}, {1, 2, 4, 1})
                .find("crops must not be negative"),
            std::string::npos);
  EXPECT_NE(error(kBatchToSpace, tflite::TensorType::INT8, {4, 1, 2, 1}, {2, 2}, {0, 0, 0, 0}, {1, 2, 3, 1})
                .find("output shape must be [1, 2, 4, 1]"),
            std::string::npos);
  EXPECT_NE(error(kSpaceToBatch, tflite::TensorType::INT8, {1, 3, 2, 1}, {2, 2}, {0, 0, 0, 0}, {4, 1, 1, 1})
                .find("not a multiple of the block shape"),
            std::string::npos);
  EXPECT_NE(
      error(kSpaceToBatch, tflite::TensorType::INT8, {1, 2, 1, 2, 1}, {2, 2, 1}, {0, 0, 0, 0, 0, 0}, {4, 1, 1, 1, 1})
          .find("3-D or 4-D"),
      std::string::npos);
}

OneNode space_to_batch_kernel(std::vector<int64_t> in_shape, std::vector<int64_t> out_shape, int64_t block_h,
                              int64_t block_w, int64_t pad_byte) {
  OneNode m;
  const uint32_t x = m.input(DType::Int8, std::move(in_shape));
  const uint32_t y = m.output(DType::Int8, std::move(out_shape));
  m.node("space_to_batch_nd", {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(block_h), ArgDef::integer(block_w),
                               ArgDef::integer(0), ArgDef::integer(0), ArgDef::integer(pad_byte)});
  return m;
}

TEST(SpaceToBatchNdCheck, RefusesShapesThatDoNotMatchTheBlock) {
  EXPECT_EQ(refusal(space_to_batch_kernel({1, 2, 2, 1}, {4, 1, 1, 1}, 2, 2, 0)), "");
  EXPECT_NE(refusal(space_to_batch_kernel({1, 2, 2, 1}, {2, 1, 1, 1}, 2, 2, 0)).find("times the block"),
            std::string::npos);
  EXPECT_NE(refusal(space_to_batch_kernel({1, 2, 1}, {4, 1, 1}, 2, 2, 0)).find("no width"), std::string::npos);
  EXPECT_NE(refusal(space_to_batch_kernel({1, 2, 2, 1}, {4, 1, 1, 2}, 2, 2, 0)).find("channels"), std::string::npos);
  EXPECT_NE(refusal(space_to_batch_kernel({1, 2, 2, 1}, {4, 1, 1, 1}, 2, 2, 256)).find("out of range"),
            std::string::npos);
  EXPECT_NE(refusal(space_to_batch_kernel({1, 2, 2, 1}, {4, 1, 1}, 2, 2, 0)).find("3-D or 4-D"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
