// fully_connected_s8 / fully_connected_f32: hand-checked results and refused arguments.
#include <gtest/gtest.h>

#include <limits>

#include "dense_harness.h"

namespace grt::test::dense {
namespace {

constexpr int32_t kHalf = 1 << 30;  // Q31 0.5: with shift 1 it multiplies by exactly 1

// The parameters of one int8 fully connected node.
struct FcS8 {
  std::vector<int64_t> input_shape{1, 3};
  std::vector<int8_t> weights{1, 0, -1, 2, 2, 2};  // [2, 3]
  std::vector<int64_t> weight_shape{2, 3};
  std::vector<int32_t> bias{10, -5};
  bool with_bias = true;
  std::vector<int64_t> output_shape{1, 2};
  std::vector<int32_t> multipliers{kHalf};
  std::vector<int32_t> shifts{1};
  int64_t input_offset = 1;
  int64_t filter_offset = 0;
  int64_t output_offset = 3;
  int64_t act_min = -128;
  int64_t act_max = 127;

  ModelDef model() const {
    OneNode m;
    const uint32_t x = m.input("x", DType::Int8, input_shape);
    const uint32_t w = m.constant("w", DType::Int8, weight_shape, weights);
    const uint32_t y = m.output("y", DType::Int8, output_shape);
    const ArgDef b = with_bias ? ArgDef::input(m.constant("b", DType::Int32, {static_cast<int64_t>(bias.size())}, bias))
                               : ArgDef::none();
    m.node("fully_connected_s8",
           {ArgDef::input(x), ArgDef::input(w), b, ArgDef::output(y), ArgDef::int_array(m.requantization(multipliers, shifts)), ArgDef::integer(input_offset), ArgDef::integer(filter_offset),
            ArgDef::integer(output_offset), ArgDef::integer(act_min), ArgDef::integer(act_max)});
    return m.model;
  }
  std::vector<int8_t> run(const std::vector<int8_t>& input) const {
    const Outcome o = plan_and_run(model(), {bytes_of(input)});
    EXPECT_EQ(o.init, GRT_OK) << o.message;
    EXPECT_EQ(o.run, GRT_OK) << o.message;
    return o.outputs.empty() ? std::vector<int8_t>{} : values_of<int8_t>(o.outputs[0]);
  }
  std::string refusal() const {
    const Outcome o = plan_and_run(model(), {});
    EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS) << o.message;
    return o.message;
  }
};

TEST(FullyConnectedS8, AppliesZeroPointsBiasAndOutputOffset) {
  // x + 1 = {2, 3, 4}; unit 0: 2 - 4 + 10 = 8; unit 1: 2 * 9 - 5 = 13; then + 3.
  EXPECT_EQ(FcS8{}.run({1, 2, 3}), (std::vector<int8_t>{11, 16}));
}

TEST(FullyConnectedS8, WithoutBias) {
  FcS8 fc;
  fc.with_bias = false;
  EXPECT_EQ(fc.run({1, 2, 3}), (std::vector<int8_t>{-2 + 3, 18 + 3}));
}

TEST(FullyConnectedS8, RoundsLikeTheReferenceFixedPoint) {
  FcS8 fc;
  fc.shifts = {0};  // times 0.5, in the doubling high multiply alone: ties round up
  fc.output_offset = 0;
  fc.bias = {11, -31};
  // unit 0: 9 / 2 = 4.5 -> 5; unit 1: (18 - 31) / 2 = -6.5 -> -6.
  EXPECT_EQ(fc.run({1, 2, 3}), (std::vector<int8_t>{5, -6}));
  fc.shifts = {-1};  // times 0.25: the rounding right shift rounds ties away from zero
  fc.bias = {8, -24};
  // unit 0: 6 / 4 = 1.5 -> 2; unit 1: (18 - 24) / 4 = -1.5 -> -2.
  EXPECT_EQ(fc.run({1, 2, 3}), (std::vector<int8_t>{2, -2}));
}

TEST(FullyConnectedS8, PerChannelMultipliers) {
  FcS8 fc;
  fc.multipliers = {kHalf, kHalf};
  fc.shifts = {1, 0};  // unit 0 times 1, unit 1 times 0.5
  fc.output_offset = 0;
  EXPECT_EQ(fc.run({1, 2, 3}), (std::vector<int8_t>{8, 7}));
}

TEST(FullyConnectedS8, FilterOffsetIsApplied) {
  FcS8 fc;
  fc.filter_offset = 1;  // weights become {2, 1, 0, 3, 3, 3}
  fc.output_offset = 0;
  // unit 0: 4 + 3 + 0 + 10 = 17; unit 1: 27 - 5 = 22.
  EXPECT_EQ(fc.run({1, 2, 3}), (std::vector<int8_t>{17, 22}));
}

TEST(FullyConnectedS8, SaturatesAtTypeLimitsAndActivationRange) {
  FcS8 fc;
  fc.weights = {127, 127, 127, -128, -128, -128};
  fc.bias = {0, 0};
  fc.output_offset = 0;
  EXPECT_EQ(fc.run({127, 127, 127}), (std::vector<int8_t>{127, -128}));
  fc.act_min = 0;  // a fused RELU with zero point 0
  fc.act_max = 100;
  EXPECT_EQ(fc.run({127, 127, 127}), (std::vector<int8_t>{100, 0}));
}

TEST(FullyConnectedS8, ExtremeInputZeroPoint) {
  FcS8 fc;
  fc.input_offset = 128;  // zero point -128: the whole int8 range maps to [0, 255]
  fc.weights = {1, 1, 1, 0, 0, 1};
  fc.bias = {0, 0};
  fc.output_offset = -128;
  fc.shifts = {-1};  // times 1/4
  // unit 0: (0 + 128 + 255) / 4 = 95.75 -> 96; unit 1: 255 / 4 = 63.75 -> 64.
  EXPECT_EQ(fc.run({-128, 0, 127}), (std::vector<int8_t>{96 - 128, 64 - 128}));
}

TEST(FullyConnectedS8, BatchesComeFromTheOutputAndInputRankIsFree) {
  FcS8 fc;
  fc.input_shape = {1, 2, 1, 3};
  fc.output_shape = {2, 2};
  EXPECT_EQ(fc.run({1, 2, 3, 0, 0, 0}), (std::vector<int8_t>{11, 16, 10 + 0 + 3, 6 - 5 + 3}));
}

TEST(FullyConnectedS8, SingleUnitSingleDepth) {
  FcS8 fc;
  fc.input_shape = {1, 1};
  fc.weights = {-3};
  fc.weight_shape = {1, 1};
  fc.bias = {7};
  fc.output_shape = {1, 1};
  fc.input_offset = 0;
  fc.output_offset = 0;
  EXPECT_EQ(fc.run({5}), (std::vector<int8_t>{-8}));
}

TEST(FullyConnectedS8, RefusesBadArguments) {
  {
    FcS8 fc;
    fc.weight_shape = {6};
    EXPECT_NE(fc.refusal().find("argument 1 has the wrong rank"), std::string::npos);
  }
  {
    FcS8 fc;
    fc.output_shape = {1, 3};
    EXPECT_NE(fc.refusal().find("last dimension"), std::string::npos);
  }
  {
    FcS8 fc;
    fc.input_shape = {1, 4};
    EXPECT_NE(fc.refusal().find("batches * depth"), std::string::npos);
  }
  {
    FcS8 fc;
    fc.bias = {1, 2, 3};
    EXPECT_NE(fc.refusal().find("bias"), std::string::npos);
  }
  {
    FcS8 fc;
    fc.multipliers = {kHalf, kHalf, kHalf};
    fc.shifts = {0, 0, 0};
    EXPECT_NE(fc.refusal().find("requantization must hold multipliers then shifts"), std::string::npos);
  }
  {
    FcS8 fc;
    fc.shifts = {0, 0};  // three values: not pairs
    EXPECT_NE(fc.refusal().find("requantization must hold multipliers then shifts"), std::string::npos);
  }
  {
    FcS8 fc;
    fc.shifts = {31};
    EXPECT_NE(fc.refusal().find("shifts must lie"), std::string::npos);
  }
  {
    FcS8 fc;
    fc.shifts = {-32};
    EXPECT_NE(fc.refusal().find("shifts must lie"), std::string::npos);
  }
  {
    FcS8 fc;
    fc.input_offset = 200;
    EXPECT_NE(fc.refusal().find("argument 5 is out of range"), std::string::npos);
  }
  {
    FcS8 fc;
    fc.act_min = 10;
    fc.act_max = 5;
    EXPECT_NE(fc.refusal().find("act_min"), std::string::npos);
  }
}

TEST(FullyConnectedS8, RefusesWrongKindsAndCounts) {
  OneNode m;
  const uint32_t x = m.input("x", DType::Int8, {1, 3});
  const uint32_t w = m.constant("w", DType::Int8, {2, 3}, std::vector<int8_t>(6, 1));
  const uint32_t y = m.output("y", DType::Int8, {1, 2});
  const uint32_t requantization = m.requantization({kHalf}, {1});
  // The requantization as a plain integer instead of an array.
  m.node("fully_connected_s8", {ArgDef::input(x), ArgDef::input(w), ArgDef::none(), ArgDef::output(y), ArgDef::integer(kHalf),
                                ArgDef::integer(0), ArgDef::integer(0), ArgDef::integer(0), ArgDef::integer(-128),
                                ArgDef::integer(127)});
  Outcome o = plan_and_run(m.model, {});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("argument 4 is not a tensor"), std::string::npos) << o.message;

  m.model.nodes[0].args = {ArgDef::input(x), ArgDef::input(w), ArgDef::none(), ArgDef::output(y), ArgDef::int_array(requantization),
                           ArgDef::integer(0)};
  o = plan_and_run(m.model, {});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("wrong number of arguments"), std::string::npos) << o.message;

  // A float input where int8 is expected.
  OneNode f;
  const uint32_t fx = f.input("x", DType::Float32, {1, 3});
  const uint32_t fw = f.constant("w", DType::Int8, {2, 3}, std::vector<int8_t>(6, 1));
  const uint32_t fy = f.output("y", DType::Int8, {1, 2});
  f.node("fully_connected_s8", {ArgDef::input(fx), ArgDef::input(fw), ArgDef::none(), ArgDef::output(fy),
                                ArgDef::int_array(f.requantization({kHalf}, {1})), ArgDef::integer(0),
                                ArgDef::integer(0), ArgDef::integer(0), ArgDef::integer(-128), ArgDef::integer(127)});
  o = plan_and_run(f.model, {});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("argument 0 has the wrong dtype"), std::string::npos) << o.message;
}

// ---- float32 ----

struct FcF32 {
  std::vector<int64_t> input_shape{2, 2};
  std::vector<float> weights{1.0f, 1.0f, 0.5f, -1.0f};
  std::vector<int64_t> weight_shape{2, 2};
  std::vector<float> bias{0.5f, 0.0f};
  bool with_bias = true;
  std::vector<int64_t> output_shape{2, 2};
  double act_min = std::numeric_limits<float>::lowest();
  double act_max = std::numeric_limits<float>::max();

  Outcome run(const std::vector<float>& input) const {
    OneNode m;
    const uint32_t x = m.input("x", DType::Float32, input_shape);
    const uint32_t w = m.constant("w", DType::Float32, weight_shape, weights);
    const uint32_t y = m.output("y", DType::Float32, output_shape);
    const ArgDef b = with_bias ? ArgDef::input(m.constant("b", DType::Float32, {static_cast<int64_t>(bias.size())}, bias))
                               : ArgDef::none();
    m.node("fully_connected_f32",
           {ArgDef::input(x), ArgDef::input(w), b, ArgDef::output(y), ArgDef::real(act_min), ArgDef::real(act_max)});
    return plan_and_run(m.model, {bytes_of(input)});
  }
};

TEST(FullyConnectedF32, ComputesRowsWithBias) {
  const Outcome o = FcF32{}.run({1.0f, 2.0f, 3.0f, 4.0f});
  ASSERT_EQ(o.run, GRT_OK) << o.message;
  EXPECT_EQ(values_of<float>(o.outputs[0]), (std::vector<float>{3.5f, -1.5f, 7.5f, -2.5f}));
}

TEST(FullyConnectedF32, ClampsToTheActivationRange) {
  FcF32 fc;
  fc.act_min = 0.0;
  fc.act_max = 6.0;
  fc.with_bias = false;
  const Outcome o = fc.run({1.0f, 2.0f, 3.0f, 4.0f});
  ASSERT_EQ(o.run, GRT_OK) << o.message;
  EXPECT_EQ(values_of<float>(o.outputs[0]), (std::vector<float>{3.0f, 0.0f, 6.0f, 0.0f}));
}

TEST(FullyConnectedF32, RefusesBadArguments) {
  FcF32 fc;
  fc.bias = {1.0f};
  Outcome o = fc.run({1.0f, 2.0f, 3.0f, 4.0f});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("bias"), std::string::npos) << o.message;

  fc = FcF32{};
  fc.act_min = 1.0;
  fc.act_max = 0.0;
  o = fc.run({1.0f, 2.0f, 3.0f, 4.0f});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("act_min"), std::string::npos) << o.message;

  fc = FcF32{};
  fc.output_shape = {1, 2};
  o = fc.run({1.0f, 2.0f, 3.0f, 4.0f});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("batches * depth"), std::string::npos) << o.message;
}

}  // namespace
}  // namespace grt::test::dense
