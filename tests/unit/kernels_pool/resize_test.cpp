// RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR: TFLM's source positions for each flag
// (align_corners, half_pixel_centers), the int8 fixed-point blend and its rounding of ties
// away from zero, the converters' refusals, and the bilinear kernels' init checks.
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

struct Flags {
  bool align_corners = false;
  bool half_pixel = false;
};

OpModel resize_model(tflite::BuiltinOperator op, tflite::TensorType type, std::vector<int32_t> in_shape,
                     std::vector<int32_t> size, Flags flags) {
  OpModel m;
  m.op = op;
  const float scale = type == tflite::TensorType::FLOAT32 ? 0.0f : 0.05f;
  m.inputs = {{type, in_shape, {}, scale, 0}, {tflite::TensorType::INT32, {2}, bytes_of(size)}};
  m.output = {type, {in_shape[0], size[0], size[1], in_shape[3]}, {}, scale, 0};
  m.options = [op, flags](flatbuffers::FlatBufferBuilder& fbb) {
    if (op == tflite::BuiltinOperator::RESIZE_BILINEAR) {
      return std::make_pair(tflite::BuiltinOptions::ResizeBilinearOptions,
                            tflite::CreateResizeBilinearOptions(fbb, flags.align_corners, flags.half_pixel).Union());
    }
    return std::make_pair(
        tflite::BuiltinOptions::ResizeNearestNeighborOptions,
        tflite::CreateResizeNearestNeighborOptions(fbb, flags.align_corners, flags.half_pixel).Union());
  };
  return m;
}

template <typename T>
std::vector<T> resize(tflite::BuiltinOperator op, tflite::TensorType type, std::vector<int32_t> in_shape,
                      const std::vector<T>& in, std::vector<int32_t> size, Flags flags = {}) {
  const OpRun run = import_and_run(resize_model(op, type, std::move(in_shape), std::move(size), flags), {bytes_of(in)});
  EXPECT_EQ(run.error, "");
  return values_of<T>(run.output);
}

constexpr auto kNearest = tflite::BuiltinOperator::RESIZE_NEAREST_NEIGHBOR;
constexpr auto kBilinear = tflite::BuiltinOperator::RESIZE_BILINEAR;

// ---- RESIZE_NEAREST_NEIGHBOR ----

TEST(ResizeNearestNeighbor, UpscalesByFlooringOrRoundingTheSourcePosition) {
  const std::vector<int16_t> in = {1, 2, 3, 4};  // [1, 2, 2, 1]
  // Scale 2/3: positions 0, 0.67, 1.33 floor to rows and columns 0, 0, 1.
  EXPECT_EQ(resize<int16_t>(kNearest, tflite::TensorType::INT16, {1, 2, 2, 1}, in, {3, 3}),
            (std::vector<int16_t>{1, 1, 2, 1, 1, 2, 3, 3, 4}));
  // align_corners: scale 1/2, positions 0, 0.5, 1 round (half away from zero) to 0, 1, 1.
  EXPECT_EQ(resize<int16_t>(kNearest, tflite::TensorType::INT16, {1, 2, 2, 1}, in, {3, 3}, {true, false}),
            (std::vector<int16_t>{1, 2, 2, 3, 4, 4, 3, 4, 4}));
}

TEST(ResizeNearestNeighbor, HalfPixelCentersShiftDownscaling) {
  const std::vector<int8_t> in = {10, 20, 30, 40};  // one row of four
  // Scale 4/3: positions 0, 1.33, 2.67 -> 0, 1, 2; with half pixels 0.67, 2, 3.33 -> 0, 2, 3.
  EXPECT_EQ(resize<int8_t>(kNearest, tflite::TensorType::INT8, {1, 1, 4, 1}, in, {1, 3}),
            (std::vector<int8_t>{10, 20, 30}));
  EXPECT_EQ(resize<int8_t>(kNearest, tflite::TensorType::INT8, {1, 1, 4, 1}, in, {1, 3}, {false, true}),
            (std::vector<int8_t>{10, 30, 40}));
}

TEST(ResizeNearestNeighbor, CopiesWholePixelsOfEveryBatch) {
  const std::vector<float> in = {1, -1, 2, -2, 3, -3, 4, -4};  // [2, 1, 2, 2]
  EXPECT_EQ(resize<float>(kNearest, tflite::TensorType::FLOAT32, {2, 1, 2, 2}, in, {1, 1}),
            (std::vector<float>{1, -1, 3, -3}));
}

TEST(ResizeNearestNeighborImport, RefusesWhatItCannotMatch) {
  OpModel int32 = resize_model(kNearest, tflite::TensorType::INT32, {1, 2, 2, 1}, {3, 3}, {});
  EXPECT_NE(import_and_run(int32, {}).error.find("not supported"), std::string::npos);
  OpModel variable_size = resize_model(kNearest, tflite::TensorType::INT8, {1, 2, 2, 1}, {3, 3}, {});
  variable_size.inputs[1].data.clear();
  EXPECT_NE(import_and_run(variable_size, {}).error.find("size must be a constant"), std::string::npos);
  OpModel wrong_output = resize_model(kNearest, tflite::TensorType::INT8, {1, 2, 2, 1}, {3, 3}, {});
  wrong_output.output.shape = {1, 3, 4, 1};
  EXPECT_NE(import_and_run(wrong_output, {}).error.find("resized to size"), std::string::npos);
  // A malformed size must not make the importer build gigantic tables.
  const OpModel huge = resize_model(kNearest, tflite::TensorType::INT8, {1, 2, 2, 1}, {1, 2000000}, {});
  EXPECT_NE(import_and_run(huge, {}).error.find("too large for index tables"), std::string::npos);
}

// ---- RESIZE_BILINEAR ----

TEST(ResizeBilinear, Int8BlendsInTenBitFixedPointAndRoundsTiesAwayFromZero) {
  // Width 2 -> 4: scale 512/1024, positions 0, 0.5, 1, 1.5 (the last clamps to column 1).
  EXPECT_EQ(resize<int8_t>(kBilinear, tflite::TensorType::INT8, {1, 1, 2, 1}, {0, 101}, {1, 4}),
            (std::vector<int8_t>{0, 51, 101, 101}));  // 50.5 -> 51
  EXPECT_EQ(resize<int8_t>(kBilinear, tflite::TensorType::INT8, {1, 1, 2, 1}, {-101, 0}, {1, 4}),
            (std::vector<int8_t>{-101, -51, 0, 0}));  // -50.5 -> -51
}

TEST(ResizeBilinear, Int8BlendsRowsAndColumnsTogether) {
  // 2x2 -> 3x3 with align_corners: the centre is the mean of the four corners.
  EXPECT_EQ(resize<int8_t>(kBilinear, tflite::TensorType::INT8, {1, 2, 2, 1}, {-128, 0, 0, 127}, {3, 3}, {true, false}),
            (std::vector<int8_t>{-128, -64, 0, -64, 0, 64, 0, 64, 127}));
}

TEST(ResizeBilinear, FloatHalfPixelCentersExtrapolateAtTheEdge) {
  // Positions -0.25, 0.25, 0.75, 1.25: the first clamps to column 0 with weight -0.25.
  EXPECT_EQ(resize<float>(kBilinear, tflite::TensorType::FLOAT32, {1, 1, 2, 1}, {0.0f, 1.0f}, {1, 4}, {false, true}),
            (std::vector<float>{0.0f, 0.25f, 0.75f, 1.0f}));
  EXPECT_EQ(resize<float>(kBilinear, tflite::TensorType::FLOAT32, {1, 1, 2, 1}, {0.0f, 1.0f}, {1, 4}),
            (std::vector<float>{0.0f, 0.5f, 1.0f, 1.0f}));
}

TEST(ResizeBilinearImport, RefusesWhatTflmRefuses) {
  const OpModel int16 = resize_model(kBilinear, tflite::TensorType::INT16, {1, 2, 2, 1}, {3, 3}, {});
  EXPECT_NE(import_and_run(int16, {}).error.find("int16 is not supported"), std::string::npos);
  const OpModel both = resize_model(kBilinear, tflite::TensorType::INT8, {1, 2, 2, 1}, {3, 3}, {true, true});
  EXPECT_NE(import_and_run(both, {}).error.find("cannot both be set"), std::string::npos);
  const OpModel flat = resize_model(kBilinear, tflite::TensorType::INT8, {1, 2, 2, 1}, {0, 3}, {});
  EXPECT_NE(import_and_run(flat, {}).error.find("size must be positive"), std::string::npos);
}

OneNode bilinear_s8_model(const std::vector<int32_t>& rows, const std::vector<int32_t>& cols) {
  OneNode m;
  const uint32_t x = m.input(DType::Int8, {1, 2, 2, 1});
  const uint32_t y = m.output(DType::Int8, {1, 1, 2, 1});
  m.node("resize_bilinear_s8",
         {ArgDef::input(x), ArgDef::output(y), ArgDef::int_array(m.ints(rows)), ArgDef::int_array(m.ints(cols))});
  return m;
}

TEST(ResizeBilinearCheck, RefusesNeighboursOutsideTheInputAndHugeWeights) {
  EXPECT_EQ(refusal(bilinear_s8_model({0, 1, 512}, {0, 1, 0, 1, 1, 0})), "");
  EXPECT_NE(refusal(bilinear_s8_model({0, 2, 512}, {0, 1, 0, 1, 1, 0})).find("row neighbour"), std::string::npos);
  EXPECT_NE(refusal(bilinear_s8_model({0, 1, 512}, {0, 1, 0, -1, 1, 0})).find("column neighbour"), std::string::npos);
  EXPECT_NE(refusal(bilinear_s8_model({0, 1, (1 << 20) + 1}, {0, 1, 0, 1, 1, 0})).find("weight"), std::string::npos);
  EXPECT_NE(refusal(bilinear_s8_model({0, 1, 512}, {0, 1, 0})).find("one entry per output column"), std::string::npos);
}

TEST(ResizeBilinearCheck, FloatNeedsOneFractionPerRowAndColumn) {
  OneNode m;
  const uint32_t x = m.input(DType::Float32, {1, 2, 2, 1});
  const uint32_t y = m.output(DType::Float32, {1, 1, 2, 1});
  m.node("resize_bilinear_f32", {ArgDef::input(x), ArgDef::output(y), ArgDef::int_array(m.ints({0, 1})),
                                 ArgDef::int_array(m.ints({0, 1, 1, 1})),
                                 ArgDef::input(m.constant(DType::Float32, {1}, std::vector<float>{0.5f})),
                                 ArgDef::input(m.constant(DType::Float32, {1}, std::vector<float>{0.5f}))});
  EXPECT_NE(refusal(m).find("fractions"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
