// DEPTH_TO_SPACE, SPACE_TO_DEPTH and MIRROR_PAD through the importer: TFLM's index
// arithmetic on small hand-checked tensors, and the refusals of what TFLM refuses.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "pool_model.h"

namespace grt::test {
namespace {

OpModel block_model(tflite::BuiltinOperator op, tflite::TensorType type, std::vector<int32_t> in_shape,
                    std::vector<int32_t> out_shape, int block) {
  OpModel m;
  m.op = op;
  m.inputs = {{type, std::move(in_shape), {}, 0.05f, -5}};
  m.output = {type, std::move(out_shape), {}, 0.05f, -5};
  m.options = [op, block](flatbuffers::FlatBufferBuilder& fbb) {
    if (op == tflite::BuiltinOperator::DEPTH_TO_SPACE) {
      return std::make_pair(tflite::BuiltinOptions::DepthToSpaceOptions,
                            tflite::CreateDepthToSpaceOptions(fbb, block).Union());
    }
    return std::make_pair(tflite::BuiltinOptions::SpaceToDepthOptions,
                          tflite::CreateSpaceToDepthOptions(fbb, block).Union());
  };
  return m;
}

constexpr auto kDepthToSpace = tflite::BuiltinOperator::DEPTH_TO_SPACE;
constexpr auto kSpaceToDepth = tflite::BuiltinOperator::SPACE_TO_DEPTH;

// Two pixels of four channels a0..a3 = 1..4 and b0..b3 = 5..8 spread into 2x2 blocks.
const std::vector<int8_t> kDepth = {1, 2, 3, 4, 5, 6, 7, 8};
const std::vector<int8_t> kSpace = {1, 2, 5, 6, 3, 4, 7, 8};

TEST(DepthToSpaceImport, SpreadsChannelsIntoBlocks) {
  const OpRun run = import_and_run(block_model(kDepthToSpace, tflite::TensorType::INT8, {1, 1, 2, 4}, {1, 2, 4, 1}, 2),
                                   {bytes_of(kDepth)});
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(values_of<int8_t>(run.output), kSpace);
}

TEST(SpaceToDepthImport, GathersBlocksIntoChannels) {
  const OpRun run = import_and_run(block_model(kSpaceToDepth, tflite::TensorType::INT8, {1, 2, 4, 1}, {1, 1, 2, 4}, 2),
                                   {bytes_of(kSpace)});
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(values_of<int8_t>(run.output), kDepth);
}

TEST(SpaceToDepthImport, KeepsChannelsInsideEachBlockPosition) {
  // [1, 2, 2, 2] -> [1, 1, 1, 8]: pixel (dy, dx) lands at channels (dy * 2 + dx) * 2.
  const std::vector<float> in = {0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 3.5f, -3.5f};
  const OpRun run = import_and_run(
      block_model(kSpaceToDepth, tflite::TensorType::FLOAT32, {1, 2, 2, 2}, {1, 1, 1, 8}, 2), {bytes_of(in)});
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(values_of<float>(run.output), in);
}

TEST(DepthToSpaceImport, RefusesWhatTflmRefuses) {
  EXPECT_NE(import_and_run(block_model(kDepthToSpace, tflite::TensorType::INT16, {1, 1, 2, 4}, {1, 2, 4, 1}, 2), {})
                .error.find("int16 is not supported"),
            std::string::npos);
  EXPECT_NE(import_and_run(block_model(kDepthToSpace, tflite::TensorType::INT8, {1, 1, 2, 4}, {1, 2, 4, 1}, 0), {})
                .error.find("block_size must be positive"),
            std::string::npos);
  EXPECT_NE(import_and_run(block_model(kDepthToSpace, tflite::TensorType::INT8, {1, 1, 2, 4}, {1, 2, 4, 1}, 5000), {})
                .error.find("block_size is too large"),
            std::string::npos);
  EXPECT_NE(import_and_run(block_model(kDepthToSpace, tflite::TensorType::INT8, {1, 1, 2, 6}, {1, 2, 4, 1}, 2), {})
                .error.find("multiple of block_size squared"),
            std::string::npos);
  EXPECT_NE(import_and_run(block_model(kSpaceToDepth, tflite::TensorType::INT8, {1, 3, 4, 1}, {1, 1, 2, 4}, 2), {})
                .error.find("multiples of block_size"),
            std::string::npos);
  EXPECT_NE(import_and_run(block_model(kSpaceToDepth, tflite::TensorType::INT8, {1, 2, 4, 1}, {1, 2, 1, 4}, 2), {})
                .error.find("output shape must be [1, 1, 2, 4]"),
            std::string::npos);
}

// ---- MIRROR_PAD ----

OpModel mirror_pad_model(tflite::TensorType type, std::vector<int32_t> in_shape, std::vector<int32_t> paddings,
                         std::vector<int32_t> out_shape, tflite::MirrorPadMode mode) {
  OpModel m;
  m.op = tflite::BuiltinOperator::MIRROR_PAD;
  const int32_t rank = static_cast<int32_t>(in_shape.size());
  m.inputs = {{type, std::move(in_shape), {}, 0.05f, 0}, {tflite::TensorType::INT32, {rank, 2}, bytes_of(paddings)}};
  m.output = {type, std::move(out_shape), {}, 0.05f, 0};
  m.options = [mode](flatbuffers::FlatBufferBuilder& fbb) {
    return std::make_pair(tflite::BuiltinOptions::MirrorPadOptions, tflite::CreateMirrorPadOptions(fbb, mode).Union());
  };
  return m;
}

std::vector<int8_t> mirror_pad(std::vector<int32_t> in_shape, const std::vector<int8_t>& in,
                               std::vector<int32_t> paddings, std::vector<int32_t> out_shape,
                               tflite::MirrorPadMode mode) {
  const OpRun run = import_and_run(
      mirror_pad_model(tflite::TensorType::INT8, std::move(in_shape), std::move(paddings), std::move(out_shape), mode),
      {bytes_of(in)});
  EXPECT_EQ(run.error, "");
  return values_of<int8_t>(run.output);
}

TEST(MirrorPadImport, ReflectLeavesTheEdgeOutSymmetricRepeatsIt) {
  EXPECT_EQ(mirror_pad({1, 3}, {1, 2, 3}, {0, 0, 2, 2}, {1, 7}, tflite::MirrorPadMode::REFLECT),
            (std::vector<int8_t>{3, 2, 1, 2, 3, 2, 1}));
  EXPECT_EQ(mirror_pad({1, 3}, {1, 2, 3}, {0, 0, 2, 2}, {1, 7}, tflite::MirrorPadMode::SYMMETRIC),
            (std::vector<int8_t>{2, 1, 1, 2, 3, 3, 2}));
  EXPECT_EQ(mirror_pad({1, 3}, {1, 2, 3}, {0, 0, 3, 0}, {1, 6}, tflite::MirrorPadMode::SYMMETRIC),
            (std::vector<int8_t>{3, 2, 1, 1, 2, 3}));
}

TEST(MirrorPadImport, PadsSeveralDimensionsAtOnce) {
  // [2, 2] padded by one row on each side and one column in front, SYMMETRIC.
  EXPECT_EQ(mirror_pad({2, 2}, {1, 2, 3, 4}, {1, 1, 1, 0}, {4, 3}, tflite::MirrorPadMode::SYMMETRIC),
            (std::vector<int8_t>{1, 1, 2, 1, 1, 2, 3, 3, 4, 3, 3, 4}));
  // [2, 1, 2]: only the batch dimension padded; rows of channels stay contiguous runs.
  EXPECT_EQ(mirror_pad({2, 1, 2}, {1, 2, 3, 4}, {1, 0, 0, 0, 0, 0}, {3, 1, 2}, tflite::MirrorPadMode::REFLECT),
            (std::vector<int8_t>{3, 4, 1, 2, 3, 4}));
}

TEST(MirrorPadImport, RefusesWhatTflmRefuses) {
  EXPECT_NE(
      import_and_run(
          mirror_pad_model(tflite::TensorType::INT8, {1, 3}, {0, 0, 3, 0}, {1, 6}, tflite::MirrorPadMode::REFLECT), {})
          .error.find("must be 0 to 2"),
      std::string::npos);
  EXPECT_NE(
      import_and_run(
          mirror_pad_model(tflite::TensorType::INT16, {1, 3}, {0, 0, 1, 1}, {1, 5}, tflite::MirrorPadMode::REFLECT), {})
          .error.find("int16 is not supported"),
      std::string::npos);
  EXPECT_NE(
      import_and_run(
          mirror_pad_model(tflite::TensorType::INT8, {1, 3}, {0, 0, 1, 1}, {1, 6}, tflite::MirrorPadMode::REFLECT), {})
          .error.find("output shape must be [1, 5]"),
      std::string::npos);
  OpModel variable =
      mirror_pad_model(tflite::TensorType::INT8, {1, 3}, {0, 0, 1, 1}, {1, 5}, tflite::MirrorPadMode::REFLECT);
  variable.inputs[1].data.clear();
  EXPECT_NE(import_and_run(variable, {}).error.find("paddings must be a constant"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
