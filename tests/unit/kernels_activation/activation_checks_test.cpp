// What the activation converters refuse (as TFLM's Prepare or its type switch refuses it)
// and what the kernels' init checks refuse.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "activation_harness.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tools::ArgDef;
using tools::DType;

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ActivationConverters, RefuseWhatTflmRefuses) {
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::LOGISTIC, int8(0.1f, 0), int8(1.0f / 256, 0)), "zero point must be -128"));
  // int16 LOGISTIC and TANH: TFLM's Prepare wants zero points 0, output scale 2^-15 and an
  // input scale its table rescaling can take.
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::TANH, int16(1.0f / 4096, 2), int16(1.0f / 32768)), "zero point 0"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::LOGISTIC, int16(1.0f / 4096), int16(1.0f / 16384)), "must be 2^-15"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::LOGISTIC, int16(4.0f), int16(1.0f / 32768)), "too large"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::RELU, int16(0.01f, 3), int16(0.01f)), "zero points must be 0"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::ABS, int16(0.01f), int16(0.01f, 2)), "zero points must be 0"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::ABS, int16(0.0f), int16(0.0f)), "needs quantized tensors"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::HARD_SWISH, int16(0.01f), int16(0.01f)), "int16 is not supported"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::ELU, int16(0.01f), int16(0.01f)), "int16 is not supported"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::RSQRT, int16(0.01f), int16(0.01f)), "int16 is not supported"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::NEG, int8(0.1f, 0), int8(0.1f, 0)), "int8 is not supported"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::EXP, int8(0.1f, 0), int8(0.1f, 0)), "int8 is not supported"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::RELU, int8(0.1f, 0), int16(0.1f)), "types differ"));
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::RELU, int8(0.0f, 0), int8(0.1f, 0)), "quantized per tensor"));
  // HardSwishPrepare: the output multiplier may not shift left.
  EXPECT_TRUE(mentions(unary_refusal(BuiltinOperator::HARD_SWISH, int8(1.0f, 0), int8(1e-5f, 0)), "output scale is too small"));
  EXPECT_EQ(unary_refusal(BuiltinOperator::RELU, int8(0.1f, 0), int8(0.1f, 0)), "");
}

TEST(ActivationConverters, RefuseAQuantizedPreluWithAFloatAlpha) {
  OneOperator m;
  m.op = BuiltinOperator::PRELU;
  m.shape = {2};
  m.in = int8(0.5f, 0);
  m.out = int8(0.5f, 0);
  m.constant_operand = float32();
  m.constant_shape = {2};
  m.constant = bytes_of<float>({0.5f, 0.5f});
  EXPECT_TRUE(mentions(m.refusal(), "int8 alpha"));
}

// A kernel whose arguments are (x, y, extra...) on [4] tensors.
std::string kernel_refusal(const char* kernel, DType in, DType out, int64_t out_elements, std::vector<ArgDef> extra) {
  OneNode m;
  const uint32_t x = m.input(in, {4});
  const uint32_t y = m.output(out, {out_elements});
  std::vector<ArgDef> args{ArgDef::input(x), ArgDef::output(y)};
  args.insert(args.end(), extra.begin(), extra.end());
  m.node(kernel, args);
  return refusal(m);
}

TEST(ActivationKernelChecks, RefuseBadTensorsAndParameters) {
  const auto lookup = [](int64_t table_size, int64_t out_elements) {
    OneNode m;
    const uint32_t x = m.input(DType::Int8, {4});
    const uint32_t y = m.output(DType::Int8, {out_elements});
    const uint32_t t = m.constant<int8_t>(DType::Int8, {table_size}, std::vector<int8_t>(static_cast<size_t>(table_size)));
    m.node("lookup_s8", {ArgDef::input(x), ArgDef::output(y), ArgDef::input(t)});
    return refusal(m);
  };
  EXPECT_EQ(lookup(256, 4), "");
  EXPECT_TRUE(mentions(lookup(255, 4), "256 entries"));
  EXPECT_TRUE(mentions(lookup(256, 5), "sizes differ"));

  const auto relu = [](int64_t zero_point, int64_t shift, int64_t low, int64_t high) {
    return kernel_refusal("relu_s16", DType::Int16, DType::Int16, 4,
                          {ArgDef::integer(zero_point), ArgDef::integer(0), ArgDef::integer(1 << 30), ArgDef::integer(shift),
                           ArgDef::integer(low), ArgDef::integer(high)});
  };
  EXPECT_EQ(relu(0, 1, 0, 100), "");
  EXPECT_TRUE(mentions(relu(0, 1, 100, 0), "low is above high"));
  EXPECT_NE(relu(40000, 1, 0, 100), "");
  EXPECT_NE(relu(0, 31, 0, 100), "");
  EXPECT_NE(kernel_refusal("abs_s16", DType::Int8, DType::Int8, 4,
                           {ArgDef::integer(0), ArgDef::integer(0), ArgDef::integer(1 << 30), ArgDef::integer(1)}),
            "");
  EXPECT_TRUE(mentions(kernel_refusal("relu_f32", DType::Float32, DType::Float32, 4, {ArgDef::real(1.0), ArgDef::real(0.0)}),
                       "low is above high"));
  EXPECT_TRUE(mentions(kernel_refusal("exp_f32", DType::Float32, DType::Float32, 3, {}), "sizes differ"));
  EXPECT_NE(kernel_refusal("sin_f32", DType::Int8, DType::Int8, 4, {}), "");
  EXPECT_NE(kernel_refusal("floor_f32", DType::Float32, DType::Float32, 4, {ArgDef::real(1.0)}), "");
}

TEST(ActivationKernelChecks, SigmoidNeedsItsTableAndA15BitMultiplier) {
  const auto sigmoid = [](const char* kernel, int64_t table_size, int64_t multiplier) {
    OneNode m;
    const uint32_t x = m.input(DType::Int16, {4});
    const uint32_t y = m.output(DType::Int16, {4});
    const uint32_t t = m.constant<int16_t>(DType::Int16, {table_size}, std::vector<int16_t>(static_cast<size_t>(table_size)));
    m.node(kernel, {ArgDef::input(x), ArgDef::output(y), ArgDef::input(t), ArgDef::integer(multiplier), ArgDef::integer(0)});
    return refusal(m);
  };
  EXPECT_EQ(sigmoid("logistic_s16", 256, 3), "");
  EXPECT_TRUE(mentions(sigmoid("tanh_s16", 128, 3), "256 entries"));
  EXPECT_NE(sigmoid("logistic_s16", 256, 40000), "");
}

TEST(ActivationKernelChecks, PreluNeedsBroadcastableShapes) {
  const auto prelu = [](std::vector<int64_t> alpha_shape, int64_t alpha_zero_point) {
    OneNode m;
    const uint32_t x = m.input(DType::Int8, {2, 3});
    const uint32_t y = m.output(DType::Int8, {2, 3});
    int64_t n = 1;
    for (const int64_t d : alpha_shape) n *= d;
    const uint32_t a = m.constant<int8_t>(DType::Int8, alpha_shape, std::vector<int8_t>(static_cast<size_t>(n)));
    m.node("prelu_s8", {ArgDef::input(x), ArgDef::input(a), ArgDef::output(y), ArgDef::integer(0), ArgDef::integer(alpha_zero_point),
                        ArgDef::integer(0), ArgDef::integer(1 << 30), ArgDef::integer(1), ArgDef::integer(1 << 30),
                        ArgDef::integer(0)});
    return refusal(m);
  };
  EXPECT_EQ(prelu({3}, 0), "");
  EXPECT_EQ(prelu({2, 1}, 0), "");
  EXPECT_TRUE(mentions(prelu({2}, 0), "broadcast"));
  EXPECT_NE(prelu({3}, 200), "");
}

}  // namespace
}  // namespace grt::test
