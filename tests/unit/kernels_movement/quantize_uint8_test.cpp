// uint8 in QUANTIZE (int8 <-> uint8 requantization, as TFLM's Requantize) and DEQUANTIZE,
// through the kernels and through the converters.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "one_node.h"
#include "one_op_tflite.h"
#include "run_one_node.h"

namespace grt::test {
namespace {

using tflite::TensorType;
using tools::ArgDef;
using tools::DType;

TEST(RequantizeU8S8, SameScaleShiftsBy128) {
  // multiplier 1.0 = (2^30, 1); zero points 128 -> 0
  EXPECT_EQ((run_unary_kernel<uint8_t, int8_t>("requantize_u8_s8", DType::UInt8, DType::Int8, {0, 128, 255, 1},
                                         {ArgDef::integer(128), ArgDef::integer(0), ArgDef::integer(1 << 30), ArgDef::integer(1)})),
            (std::vector<int8_t>{-128, 0, 127, -127}));
}

TEST(RequantizeS8U8, DoublesAndSaturatesAtTheUint8Range) {
  // multiplier 2.0 = (2^30, 2); zero points 0 -> 100
  EXPECT_EQ((run_unary_kernel<int8_t, uint8_t>("requantize_s8_u8", DType::Int8, DType::UInt8, {-50, -51, 77, 78, 127},
                                         {ArgDef::integer(0), ArgDef::integer(100), ArgDef::integer(1 << 30), ArgDef::integer(2)})),
            (std::vector<uint8_t>{0, 0, 254, 255, 255}));
}

TEST(RequantizeU8Check, RefusesZeroPointsOutsideUint8) {
  OneNode m;
  m.node("requantize_u8_s8", {ArgDef::input(m.input(DType::UInt8, {2})), ArgDef::output(m.output(DType::Int8, {2})),
                              ArgDef::integer(-1), ArgDef::integer(0), ArgDef::integer(1 << 30), ArgDef::integer(1)});
  EXPECT_NE(refusal(m).find("out of range"), std::string::npos);
}

TEST(DequantizeU8F32, SubtractsTheZeroPointAndScales) {
  EXPECT_EQ((run_unary_kernel<uint8_t, float>("dequantize_u8_f32", DType::UInt8, DType::Float32, {0, 128, 255},
                                        {ArgDef::real(0.5), ArgDef::integer(128)})),
            (std::vector<float>{-64.0f, 0.0f, 63.5f}));
}

// x -> QUANTIZE or DEQUANTIZE -> y, imported and run; or the importer's refusal in *error.
template <typename In, typename Out>
std::vector<Out> imported_conversion(tflite::BuiltinOperator op, OpTensor in, OpTensor out, const std::vector<In>& values,
                                     std::string* error = nullptr) {
  OneOp m;
  m.op = op;
  m.inputs = {m.add(std::move(in))};
  m.outputs = {m.add(std::move(out))};
  if (error != nullptr) {
    *error = import_error(m);
    return {};
  }
  const auto outputs = run_op<Out>(m, std::vector<std::vector<In>>{values});
  return outputs.empty() ? std::vector<Out>{} : outputs[0];
}

TEST(QuantizeImport, Uint8ToInt8RescalesWithTflmsRounding) {
  // scales 0.25 -> 0.5: a ratio of exactly 0.5; zero points 120 -> -10. (x - 120) / 2 rounds
  // 1.5 up to 2 but -1.5 toward zero to -1 (the doubling high multiply's nudge).
  const std::vector<uint8_t> x{123, 117, 255, 0, 120};
  EXPECT_EQ((imported_conversion<uint8_t, int8_t>(tflite::BuiltinOperator::QUANTIZE,
                                                  {.type = TensorType::UINT8, .shape = {5}, .scale = 0.25f, .zero_point = 120},
                                                  {.type = TensorType::INT8, .shape = {5}, .scale = 0.5f, .zero_point = -10}, x)),
            (std::vector<int8_t>{-8, -11, 58, -70, -10}));
}

TEST(QuantizeImport, Int8ToUint8MovesTheZeroPoint) {
  EXPECT_EQ((imported_conversion<int8_t, uint8_t>(tflite::BuiltinOperator::QUANTIZE,
                                                  {.type = TensorType::INT8, .shape = {3}, .scale = 0.5f, .zero_point = 0},
                                                  {.type = TensorType::UINT8, .shape = {3}, .scale = 0.5f, .zero_point = 128},
                                                  std::vector<int8_t>{-128, 0, 127})),
            (std::vector<uint8_t>{0, 128, 255}));
}

TEST(QuantizeImport, RefusesUint8PairsTflmDoesNotList) {
  std::string error;
  imported_conversion<uint8_t, int16_t>(tflite::BuiltinOperator::QUANTIZE,
                                        {.type = TensorType::UINT8, .shape = {2}, .scale = 0.5f, .zero_point = 128},
                                        {.type = TensorType::INT16, .shape = {2}, .scale = 0.5f, .zero_point = 0}, {1, 2}, &error);
  EXPECT_NE(error.find("not supported"), std::string::npos) << error;
  imported_conversion<float, uint8_t>(tflite::BuiltinOperator::QUANTIZE, {.type = TensorType::FLOAT32, .shape = {2}},
                                      {.type = TensorType::UINT8, .shape = {2}, .scale = 0.5f, .zero_point = 128}, {1, 2}, &error);
  EXPECT_NE(error.find("int8 or int16 only"), std::string::npos) << error;
}

TEST(DequantizeImport, Uint8ToFloat) {
  EXPECT_EQ((imported_conversion<uint8_t, float>(tflite::BuiltinOperator::DEQUANTIZE,
                                                 {.type = TensorType::UINT8, .shape = {3}, .scale = 0.5f, .zero_point = 128},
                                                 {.type = TensorType::FLOAT32, .shape = {3}}, std::vector<uint8_t>{0, 128, 255})),
            (std::vector<float>{-64.0f, 0.0f, 63.5f}));
}

}  // namespace
}  // namespace grt::test
