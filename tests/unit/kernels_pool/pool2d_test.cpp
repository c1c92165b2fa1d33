// MAX_POOL_2D and L2_POOL_2D: windows clipped at the edges, the fused activation's clamp,
// int8, int16 and float32 max pooling, float32 L2 pooling, the converters' quantized ranges
// and refusals, and the kernels' init checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "one_node.h"
#include "pool_model.h"
#include "run_one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

struct Window2d {
  int64_t stride_h = 1, stride_w = 1, filter_h = 1, filter_w = 1, pad_top = 0, pad_left = 0;
};

OneNode max_pool_model(const char* kernel, DType dtype, std::vector<int64_t> in_shape, std::vector<int64_t> out_shape,
                       const Window2d& w, ArgDef act_min, ArgDef act_max) {
  OneNode m;
  const uint32_t x = m.input(dtype, std::move(in_shape));
  const uint32_t y = m.output(dtype, std::move(out_shape));
  m.node(kernel, {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(w.stride_h), ArgDef::integer(w.stride_w),
                  ArgDef::integer(w.filter_h), ArgDef::integer(w.filter_w), ArgDef::integer(w.pad_top),
                  ArgDef::integer(w.pad_left), act_min, act_max});
  return m;
}

template <typename T>
std::vector<T> run_max_pool(const OneNode& m, const std::vector<T>& in) {
  return run_one_input<T>(m, in);
}

// 3x3 image, 2x2 filter, stride 2, SAME: the right column and bottom row windows are clipped.
const std::vector<int8_t> kImage3x3 = {1, -5, 3, -7, 9, -2, 4, 0, -8};
const Window2d kSame2x2{2, 2, 2, 2, 0, 0};

TEST(MaxPool2d, ClipsWindowsAtTheImageEdge) {
  const OneNode m = max_pool_model("max_pool2d_s8", DType::Int8, {1, 3, 3, 1}, {1, 2, 2, 1}, kSame2x2,
                                   ArgDef::integer(-128), ArgDef::integer(127));
  EXPECT_EQ(run_max_pool<int8_t>(m, kImage3x3), (std::vector<int8_t>{9, 3, 4, -8}));
}

TEST(MaxPool2d, ClampsToTheActivationRange) {
  const OneNode m = max_pool_model("max_pool2d_s8", DType::Int8, {1, 3, 3, 1}, {1, 2, 2, 1}, kSame2x2,
                                   ArgDef::integer(-5), ArgDef::integer(5));
  EXPECT_EQ(run_max_pool<int8_t>(m, kImage3x3), (std::vector<int8_t>{5, 3, 4, -5}));
}

TEST(MaxPool2d, LeadingPaddingShiftsTheWindows) {
  // 3x3 filter, stride 1, one row and column of padding in front: a SAME 3x3 pool.
  const OneNode m = max_pool_model("max_pool2d_s8", DType::Int8, {1, 3, 3, 1}, {1, 3, 3, 1}, {1, 1, 3, 3, 1, 1},
                                   ArgDef::integer(-128), ArgDef::integer(127));
  EXPECT_EQ(run_max_pool<int8_t>(m, kImage3x3), (std::vector<int8_t>{9, 9, 9, 9, 9, 9, 9, 9, 9}));
  const std::vector<int8_t> corner_peaks = {9, -1, -1, -1, -1, -1, -1, -1, 7};
  EXPECT_EQ(run_max_pool<int8_t>(m, corner_peaks), (std::vector<int8_t>{9, 9, -1, 9, 9, 7, -1, 7, 7}));
}

TEST(MaxPool2d, Int16KeepsTheTypesExtremes) {
  const OneNode m = max_pool_model("max_pool2d_s16", DType::Int16, {1, 2, 2, 2}, {1, 1, 1, 2}, {1, 1, 2, 2, 0, 0},
                                   ArgDef::integer(-32768), ArgDef::integer(32767));
  EXPECT_EQ(run_max_pool<int16_t>(m, {-32768, 32767, -32768, -1, -32768, 0, -32768, 5}),
            (std::vector<int16_t>{-32768, 32767}));
}

TEST(MaxPool2d, FloatChannelsArePooledApart) {
  const std::vector<float> in = {0.5f, -0.25f, -1.5f, -0.75f, 2.25f, -4.0f, -3.0f, -0.5f};
  const OneNode none = max_pool_model("max_pool2d_f32", DType::Float32, {1, 2, 2, 2}, {1, 1, 1, 2}, {1, 1, 2, 2, 0, 0},
                                      ArgDef::real(-3.4028234663852886e38), ArgDef::real(3.4028234663852886e38));
  EXPECT_EQ(run_max_pool<float>(none, in), (std::vector<float>{2.25f, -0.25f}));
  const OneNode relu_n1 = max_pool_model("max_pool2d_f32", DType::Float32, {1, 2, 2, 2}, {1, 1, 1, 2},
                                         {1, 1, 2, 2, 0, 0}, ArgDef::real(-1.0), ArgDef::real(1.0));
  EXPECT_EQ(run_max_pool<float>(relu_n1, in), (std::vector<float>{1.0f, -0.25f}));
}

TEST(MaxPool2dCheck, RefusesBadWindowsAndRanges) {
  const auto message = [](const char* kernel, DType dtype, std::vector<int64_t> out_shape, const Window2d& w,
                          ArgDef low, ArgDef high) {
    return refusal(max_pool_model(kernel, dtype, {1, 3, 3, 2}, std::move(out_shape), w, low, high));
  };
  const ArgDef lo = ArgDef::integer(-128);
  const ArgDef hi = ArgDef::integer(127);
  EXPECT_EQ(message("max_pool2d_s8", DType::Int8, {1, 2, 2, 2}, kSame2x2, lo, hi), "");
  EXPECT_NE(message("max_pool2d_s8", DType::Int8, {1, 2, 2, 2}, kSame2x2, hi, lo).find("act_min exceeds act_max"),
            std::string::npos);
  EXPECT_NE(
      message("max_pool2d_s8", DType::Int8, {1, 2, 2, 2}, kSame2x2, ArgDef::integer(-129), hi).find("out of range"),
      std::string::npos);
  EXPECT_NE(
      message("max_pool2d_s8", DType::Int8, {1, 2, 2, 2}, {2, 2, 2, 2, 2, 0}, lo, hi).find("smaller than the filter"),
      std::string::npos);
  EXPECT_NE(message("max_pool2d_s8", DType::Int8, {1, 3, 2, 2}, kSame2x2, lo, hi).find("misses the input"),
            std::string::npos);
  EXPECT_NE(message("max_pool2d_s8", DType::Int8, {1, 2, 2, 1}, kSame2x2, lo, hi).find("channels"), std::string::npos);
  EXPECT_NE(message("max_pool2d_s8", DType::Int8, {1, 2, 2, 2}, {0, 2, 2, 2, 0, 0}, lo, hi).find("out of range"),
            std::string::npos);
  EXPECT_NE(message("max_pool2d_s16", DType::Int8, {1, 2, 2, 2}, kSame2x2, lo, hi).find("dtype"), std::string::npos);
  EXPECT_NE(message("max_pool2d_f32", DType::Float32, {1, 2, 2, 2}, kSame2x2, lo, hi).find("not a float"),
            std::string::npos);
}

// ---- the converter ----

BuiltinOptionsWriter pool_options(tflite::Padding padding, int stride, int filter, tflite::ActivationFunctionType act) {
  return [=](flatbuffers::FlatBufferBuilder& fbb) {
    return std::make_pair(tflite::BuiltinOptions::Pool2DOptions,
                          tflite::CreatePool2DOptions(fbb, padding, stride, stride, filter, filter, act).Union());
  };
}

OpModel int8_max_pool(tflite::ActivationFunctionType act, int64_t out_zero_point = -5) {
  OpModel m;
  m.op = tflite::BuiltinOperator::MAX_POOL_2D;
  m.inputs = {{tflite::TensorType::INT8, {1, 2, 4, 1}, {}, 0.05f, -5}};
  m.output = {tflite::TensorType::INT8, {1, 1, 2, 1}, {}, 0.05f, out_zero_point};
  m.options = pool_options(tflite::Padding::VALID, 2, 2, act);
  return m;
}

TEST(MaxPool2dImport, RelUN1To1ClampsToTheQuantizedUnitRange) {
  // scale 0.05, zero point -5: -1.0 is -25 and 1.0 is 15.
  const std::vector<int8_t> in = {100, -100, -128, -30, 3, 4, -90, -100};
  const OpRun run = import_and_run(int8_max_pool(tflite::ActivationFunctionType::RELU_N1_TO_1), {bytes_of(in)});
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(values_of<int8_t>(run.output), (std::vector<int8_t>{15, -25}));
  const OpRun relu = import_and_run(int8_max_pool(tflite::ActivationFunctionType::RELU), {bytes_of(in)});
  ASSERT_EQ(relu.error, "");
  EXPECT_EQ(values_of<int8_t>(relu.output), (std::vector<int8_t>{100, -5}));
}

TEST(MaxPool2dImport, SamePaddingFromTheOptions) {
  OpModel m;
  m.op = tflite::BuiltinOperator::MAX_POOL_2D;
  m.inputs = {{tflite::TensorType::FLOAT32, {1, 3, 3, 1}, {}, 0.0f, 0}};
  m.output = {tflite::TensorType::FLOAT32, {1, 2, 2, 1}, {}, 0.0f, 0};
  m.options = pool_options(tflite::Padding::SAME, 2, 2, tflite::ActivationFunctionType::RELU6);
  const OpRun run = import_and_run(m, {bytes_of(std::vector<float>{1, -5, 3, -7, 9, -2, 4, 0, -8})});
  ASSERT_EQ(run.error, "");
  EXPECT_EQ(values_of<float>(run.output), (std::vector<float>{6, 3, 4, 0}));
}

TEST(MaxPool2dImport, RefusesWhatTflmRefuses) {
  EXPECT_NE(
      import_and_run(int8_max_pool(tflite::ActivationFunctionType::NONE, -4), {}).error.find("quantization differ"),
      std::string::npos);
  EXPECT_NE(import_and_run(int8_max_pool(tflite::ActivationFunctionType::TANH), {}).error.find("TANH is not supported"),
            std::string::npos);
  OpModel wrong_shape = int8_max_pool(tflite::ActivationFunctionType::NONE);
  wrong_shape.output.shape = {1, 1, 3, 1};
  EXPECT_NE(import_and_run(wrong_shape, {}).error.find("pooling parameters give 1x2"), std::string::npos);
  OpModel int32 = int8_max_pool(tflite::ActivationFunctionType::NONE);
  int32.inputs[0].type = tflite::TensorType::INT32;
  int32.output.type = tflite::TensorType::INT32;
  EXPECT_NE(import_and_run(int32, {}).error.find("not supported"), std::string::npos);
}

// ---- L2_POOL_2D ----

OpModel float_pool(tflite::BuiltinOperator op, tflite::TensorType type, tflite::ActivationFunctionType act) {
  OpModel m;
  m.op = op;
  m.inputs = {{type, {1, 3, 3, 1}, {}, 0.0f, 0}};
  m.output = {type, {1, 2, 2, 1}, {}, 0.0f, 0};
  m.options = pool_options(tflite::Padding::SAME, 2, 2, act);
  return m;
}

TEST(L2Pool2dImport, RootMeanSquareOfTheClippedWindows) {
  // Windows {1, -5, -7, 9}, {3, -2}, {4, 0}, {-8}: sqrt of 156 / 4, 13 / 2, 16 / 2 and 64 / 1.
  const std::vector<float> in = {1, -5, 3, -7, 9, -2, 4, 0, -8};
  const OpRun none = import_and_run(float_pool(tflite::BuiltinOperator::L2_POOL_2D, tflite::TensorType::FLOAT32,
                                               tflite::ActivationFunctionType::NONE),
                                    {bytes_of(in)});
  ASSERT_EQ(none.error, "");
  EXPECT_EQ(values_of<float>(none.output),
            (std::vector<float>{std::sqrt(39.0f), std::sqrt(6.5f), std::sqrt(8.0f), 8.0f}));
  const OpRun relu6 = import_and_run(float_pool(tflite::BuiltinOperator::L2_POOL_2D, tflite::TensorType::FLOAT32,
                                                tflite::ActivationFunctionType::RELU6),
                                     {bytes_of(in)});
  ASSERT_EQ(relu6.error, "");
  EXPECT_EQ(values_of<float>(relu6.output), (std::vector<float>{6.0f, std::sqrt(6.5f), std::sqrt(8.0f), 6.0f}));
}

TEST(L2Pool2dImport, RefusesQuantizedTensors) {
  OpModel int8 =
      float_pool(tflite::BuiltinOperator::L2_POOL_2D, tflite::TensorType::INT8, tflite::ActivationFunctionType::NONE);
  int8.inputs[0].scale = int8.output.scale = 0.05f;
  EXPECT_NE(import_and_run(int8, {}).error.find("float32 only"), std::string::npos);
}

TEST(L2Pool2dCheck, RefusesIntegerRangesAndEmptyWindows) {
  const ArgDef lo = ArgDef::real(0.0);
  const ArgDef hi = ArgDef::real(6.0);
  EXPECT_EQ(refusal(max_pool_model("l2_pool2d_f32", DType::Float32, {1, 3, 3, 1}, {1, 2, 2, 1}, kSame2x2, lo, hi)), "");
  EXPECT_NE(refusal(max_pool_model("l2_pool2d_f32", DType::Float32, {1, 3, 3, 1}, {1, 2, 2, 1}, kSame2x2,
                                   ArgDef::integer(0), ArgDef::integer(6)))
                .find("not a float"),
            std::string::npos);
  EXPECT_NE(refusal(max_pool_model("l2_pool2d_f32", DType::Float32, {1, 3, 3, 1}, {1, 3, 2, 1}, kSame2x2, lo, hi))
                .find("misses the input"),
            std::string::npos);
}

}  // namespace
}  // namespace grt::test
