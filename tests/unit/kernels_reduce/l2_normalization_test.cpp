// L2_NORMALIZATION: the int8 path through TFLM's fixed-point inverse square root (outputs in
// 1/128 steps, the norm of 0 treated as 1), float32 with its epsilon, the converter's
// refusals and the kernel's checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "one_node.h"
#include "one_op_tflite.h"

namespace grt::test::reduce {
namespace {

using tflite::TensorType;

OneOp l2_normalization(Tensor x, Tensor y, tflite::ActivationFunctionType activation = tflite::ActivationFunctionType::NONE) {
  return OneOp{tflite::BuiltinOperator::L2_NORMALIZATION,
               {std::move(x), std::move(y)},
               {0},
               {1},
               {tflite::BuiltinOptions::L2NormOptions, [activation](flatbuffers::FlatBufferBuilder& fbb) {
                  return tflite::CreateL2NormOptions(fbb, activation).Union();
                }}};
}

std::vector<int8_t> run_int8(const std::vector<int8_t>& x, std::vector<int32_t> shape, int64_t zero_point) {
  const OneOp model =
      l2_normalization({TensorType::INT8, shape, 0.05f, zero_point}, {TensorType::INT8, shape, 1.0f / 128, 0});
  const Imported r = import_and_run(model, {bytes_of(x)});
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"l2_normalization_s8"}));
  return r.outputs.empty() ? std::vector<int8_t>{} : values_of<int8_t>(r.outputs[0]);
}

TEST(L2NormalizationS8, DividesEachRowByItsNorm) {
  // (3, 4) / 5 = (0.6, 0.8) -> (76.8, 102.4) / 128 -> (77, 102); centred on zero point 5,
  // (5, -15, 5, -15) / sqrt(500) -> (28.6, -85.9) -> (29, -86).
  EXPECT_EQ(run_int8({3, 4}, {1, 2}, 0), (std::vector<int8_t>{77, 102}));
  EXPECT_EQ(run_int8({10, -10, 10, -10}, {1, 4}, 5), (std::vector<int8_t>{29, -86, 29, -86}));
}

TEST(L2NormalizationS8, SaturatesAtOneAndTreatsAZeroNormAsOne) {
  // A unit vector would be 128: the output saturates at 127. An all-zero row stays 0, and a
  // sum of squares of 1 is the inverse square root's special case (multiplier 2^31 - 1).
  EXPECT_EQ(run_int8({-128, 127}, {1, 2}, -128), (std::vector<int8_t>{0, 127}));
  EXPECT_EQ(run_int8({0, 0, 0, 1}, {2, 2}, 0), (std::vector<int8_t>{0, 0, 0, 127}));
}

TEST(L2NormalizationS8, LargeSumsOfSquaresAreScaledDown) {
  // 64 values of 255 above the zero point: a sum of squares of 4,161,600, each 1/8 -> 16.
  EXPECT_EQ(run_int8(std::vector<int8_t>(64, 127), {1, 64}, -128), std::vector<int8_t>(64, 16));
}

TEST(L2NormalizationF32, DividesByTheNormOrEpsilon) {
  const OneOp model = l2_normalization({TensorType::FLOAT32, {2, 2}}, {TensorType::FLOAT32, {2, 2}});
  const Imported r = import_and_run(model, {bytes_of(std::vector<float>{3.0f, -4.0f, 1e-8f, 0.0f})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"l2_normalization_f32"}));
  // The second row's norm 1e-8 is below epsilon 1e-6: divided by 1e-6 instead.
  EXPECT_EQ(values_of<float>(r.outputs.at(0)), (std::vector<float>{3.0f / 5.0f, -4.0f / 5.0f, 1e-8f / 1e-6f, 0.0f}));
}

TEST(L2NormalizationImport, RefusesWhatTflmRefuses) {
  const auto error = [](const OneOp& m) { return import_and_run(m, {}).error; };
  EXPECT_NE(error(l2_normalization({TensorType::FLOAT32, {4}}, {TensorType::FLOAT32, {4}},
                                   tflite::ActivationFunctionType::RELU))
                .find("fused activation"),
            std::string::npos);
  EXPECT_NE(error(l2_normalization({TensorType::FLOAT32, {1, 1, 1, 2, 2}}, {TensorType::FLOAT32, {1, 1, 1, 2, 2}}))
                .find("rank <= 4"),
            std::string::npos);
  EXPECT_NE(error(l2_normalization({TensorType::INT8, {4}, 0.5f, 0}, {TensorType::INT8, {4}, 0.5f, 0}))
                .find("scale 1/128 and zero point 0"),
            std::string::npos);
}

TEST(L2NormalizationCheck, RefusesBadArguments) {
  const auto refused = [](tools::DType out_type, std::vector<int64_t> out_shape, int64_t zero_point) {
    OneNode m;
    const uint32_t x = m.input(tools::DType::Int8, {2, 3});
    const uint32_t y = m.output(out_type, std::move(out_shape));
    m.node("l2_normalization_s8", {tools::ArgDef::input(x), tools::ArgDef::output(y), tools::ArgDef::integer(zero_point)});
    return refusal(m);
  };
  EXPECT_EQ(refused(tools::DType::Int8, {2, 3}, -128), "");
  EXPECT_NE(refused(tools::DType::Int8, {6}, 0).find("input's shape"), std::string::npos);
  EXPECT_NE(refused(tools::DType::Int16, {2, 3}, 0).find("argument 1 has the wrong dtype"), std::string::npos);
  EXPECT_NE(refused(tools::DType::Int8, {2, 3}, 128).find("argument 2 is out of range"), std::string::npos);
}

}  // namespace
}  // namespace grt::test::reduce
