// The MEAN, SUM, REDUCE_MAX/MIN and ARG_MAX/MIN converters: TFLite's axis resolution
// (negative and repeated axes), the walks they build, TFLM's requantization parameters, and
// what they refuse.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "one_op_tflite.h"

namespace grt::test::reduce {
namespace {

using tflite::BuiltinOperator;
using tflite::TensorType;

Options keep_dims(bool keep) {
  return {tflite::BuiltinOptions::ReducerOptions,
          [keep](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateReducerOptions(fbb, keep).Union(); }};
}

// x -> op(axes) -> y.
OneOp reduction(BuiltinOperator op, Tensor x, const std::vector<int32_t>& axes, Tensor y, bool keep = false) {
  const Tensor axis{TensorType::INT32, {static_cast<int32_t>(axes.size())}, 0.0f, 0, bytes_of(axes)};
  return OneOp{op, {std::move(x), axis, std::move(y)}, {0, 1}, {2}, keep_dims(keep)};
}

std::vector<int8_t> iota_int8(int n, int first = 0) {
  std::vector<int8_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<int8_t>(first + i);
  return v;
}

TEST(ReductionImport, MeanResolvesNegativeAndRepeatedAxesAndFoldsTheCount) {
  // [2, 3, 4] over axes {1, -1, 1} = {1, 2}: 12 values per output. TFLM folds 1/12 into
  // (2^30, 1): shift 3, multiplier 2^33 / 12 = 715827882, shift -2. Batch 0 sums 0..11 = 66:
  // 66 * 0.33333 = 21.99999 -> 22, / 4 = 5.5 -> 6; batch 1 sums 210 -> 70 -> 17.5 -> 18.
  const OneOp mean = reduction(BuiltinOperator::MEAN, {TensorType::INT8, {2, 3, 4}, 0.5f, 0}, {1, -1, 1},
                               {TensorType::INT8, {2, 1, 1}, 0.5f, 0}, /*keep=*/true);
  const Imported r = import_and_run(mean, {bytes_of(iota_int8(24))});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"mean_s8"}));
  EXPECT_EQ(values_of<int8_t>(r.outputs.at(0)), (std::vector<int8_t>{6, 18}));
}

TEST(ReductionImport, SumRequantizesWithTheReferenceDoubleRounding) {
  // Scales 0.05 -> 0.2: multiplier 0.25 = (2^30, -1). Zero points -5 in, 3 out.
  // Row 0: (-1 + 5) + (0 + 5) = 9 -> 9 * 0.5 = 4.5 -> 5 -> 5 / 2 = 2.5 -> 3 (not 2.25 -> 2), + 3.
  // Row 1: (-5 + 5) * 2 = 0 -> 3. Row 2: 127 + 127 + 10 = 264 -> 66, + 3 = 69.
  const OneOp sum = reduction(BuiltinOperator::SUM, {TensorType::INT8, {3, 2}, 0.05f, -5}, {1},
                              {TensorType::INT8, {3}, 0.2f, 3});
  const Imported r = import_and_run(sum, {bytes_of(std::vector<int8_t>{-1, 0, -5, -5, 127, 127})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"sum_s8"}));
  EXPECT_EQ(values_of<int8_t>(r.outputs.at(0)), (std::vector<int8_t>{6, 3, 69}));
}

TEST(ReductionImport, FloatMeanOverTheFirstAndLastAxes) {
  const OneOp mean = reduction(BuiltinOperator::MEAN, {TensorType::FLOAT32, {2, 3, 2}}, {0, 2}, {TensorType::FLOAT32, {3}});
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i);
  // Element (i, j, k) = 6i + 2j + k: the mean over i and k is 2j + 3.5.
  const Imported r = import_and_run(mean, {bytes_of(x)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"mean_f32"}));
  EXPECT_EQ(values_of<float>(r.outputs.at(0)), (std::vector<float>{3.5f, 5.5f, 7.5f}));
}

TEST(ReductionImport, Int16SumAndScalarReductions) {
  // Scales 2^-10 -> 2^-8: multiplier 0.25 = (2^30, -1). 3001 * 0.25 = 750.25, but TFLM rounds
  // twice: 3001 * 0.5 = 1500.5 -> 1501, then / 2 = 750.5 -> 751.
  const OneOp sum = reduction(BuiltinOperator::SUM, {TensorType::INT16, {1, 3}, 1.0f / 1024, 0}, {-1},
                              {TensorType::INT16, {1, 1}, 1.0f / 256, 0}, /*keep=*/true);
  Imported r = import_and_run(sum, {bytes_of(std::vector<int16_t>{1000, 1000, 1001})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"sum_s16"}));
  EXPECT_EQ(values_of<int16_t>(r.outputs.at(0)), (std::vector<int16_t>{751}));
  // No axes at all: every element is its own output.
  const OneOp none = reduction(BuiltinOperator::REDUCE_MAX, {TensorType::FLOAT32, {2, 2}}, {}, {TensorType::FLOAT32, {2, 2}});
  r = import_and_run(none, {bytes_of(std::vector<float>{1, -2, 3, -4})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(values_of<float>(r.outputs.at(0)), (std::vector<float>{1, -2, 3, -4}));
}

TEST(ReductionImport, MinMaxNeedMatchingInt8Quantization) {
  const OneOp max = reduction(BuiltinOperator::REDUCE_MIN, {TensorType::INT8, {2, 3}, 0.05f, -5}, {0},
                              {TensorType::INT8, {3}, 0.05f, -5});
  const Imported r = import_and_run(max, {bytes_of(std::vector<int8_t>{1, -9, 3, -4, 5, 3})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"reduce_min_s8"}));
  EXPECT_EQ(values_of<int8_t>(r.outputs.at(0)), (std::vector<int8_t>{-4, -9, 3}));
  const OneOp rescaled = reduction(BuiltinOperator::REDUCE_MAX, {TensorType::INT8, {2, 3}, 0.05f, -5}, {0},
                                   {TensorType::INT8, {3}, 0.1f, -5});
  EXPECT_NE(import_and_run(rescaled, {}).error.find("quantization differ"), std::string::npos);
}

TEST(ReductionImport, ArgMaxWritesInt32OrInt64Indices) {
  OneOp arg = reduction(BuiltinOperator::ARG_MAX, {TensorType::INT8, {2, 3}, 0.05f, -5}, {-1}, {TensorType::INT64, {2}});
  Imported r = import_and_run(arg, {bytes_of(std::vector<int8_t>{1, 7, 7, -1, -2, -3})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"arg_max_s8_i64"}));
  EXPECT_EQ(values_of<int64_t>(r.outputs.at(0)), (std::vector<int64_t>{1, 0}));
  arg = reduction(BuiltinOperator::ARG_MIN, {TensorType::FLOAT32, {2, 3}}, {0}, {TensorType::INT32, {3}});
  r = import_and_run(arg, {bytes_of(std::vector<float>{1, 7, -7, -1, 7, -3})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"arg_min_f32_s32"}));
  EXPECT_EQ(values_of<int32_t>(r.outputs.at(0)), (std::vector<int32_t>{1, 0, 0}));
}

TEST(ReductionImport, RefusesWhatTflmRefusesOrCannotBeReduced) {
  const auto error = [](const OneOp& m) { return import_and_run(m, {}).error; };
  // Wrong output size.
  EXPECT_NE(error(reduction(BuiltinOperator::SUM, {TensorType::FLOAT32, {2, 3}}, {1}, {TensorType::FLOAT32, {3}}))
                .find("reduction gives 2"),
            std::string::npos);
  // Axis out of range.
  EXPECT_NE(error(reduction(BuiltinOperator::MEAN, {TensorType::FLOAT32, {2, 3}}, {2}, {TensorType::FLOAT32, {2}}))
                .find("out of range"),
            std::string::npos);
  // A computed axis.
  OneOp computed = reduction(BuiltinOperator::MEAN, {TensorType::FLOAT32, {2, 3}}, {1}, {TensorType::FLOAT32, {2}});
  computed.tensors[1].data.clear();
  EXPECT_NE(error(computed).find("axis must be a constant"), std::string::npos);
  // Types TFLM's kernels do not take.
  EXPECT_NE(error(reduction(BuiltinOperator::REDUCE_MAX, {TensorType::INT16, {2, 3}, 0.5f, 0}, {1},
                            {TensorType::INT16, {2}, 0.5f, 0}))
                .find("int8 and float32 only"),
            std::string::npos);
  EXPECT_NE(error(reduction(BuiltinOperator::SUM, {TensorType::INT32, {2, 3}}, {1}, {TensorType::INT32, {2}}))
                .find("int8, int16 and float32 only"),
            std::string::npos);
  EXPECT_NE(error(reduction(BuiltinOperator::ARG_MAX, {TensorType::FLOAT32, {2, 3}}, {1}, {TensorType::INT16, {2}}))
                .find("int32 or int64"),
            std::string::npos);
  EXPECT_NE(error(reduction(BuiltinOperator::ARG_MIN, {TensorType::FLOAT32, {2, 3}}, {0, 1}, {TensorType::INT32, {}}))
                .find("one value"),
            std::string::npos);
  OneOp int64_axis = reduction(BuiltinOperator::SUM, {TensorType::FLOAT32, {2, 3}}, {}, {TensorType::FLOAT32, {2}});
  int64_axis.tensors[1] = Tensor(TensorType::INT64, {1}, 0.0f, 0, bytes_of(std::vector<int64_t>{1}));
  EXPECT_NE(error(int64_axis).find("constant int32"), std::string::npos);
  // Unquantized int8.
  EXPECT_NE(error(reduction(BuiltinOperator::MEAN, {TensorType::INT8, {2, 3}}, {1}, {TensorType::INT8, {2}, 0.5f, 0}))
                .find("quantized"),
            std::string::npos);
}

}  // namespace
}  // namespace grt::test::reduce
