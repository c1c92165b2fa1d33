// mean_s8: per-channel spatial means with TFLM's folded multiplier, zero points,
// saturation, refusals. (Any axes, int16 and float32: tests/unit/kernels_reduce.)
#include <gtest/gtest.h>

#include "dense_harness.h"

namespace grt::test::dense {
namespace {

// Equal input and output scales: QuantizeMultiplier(1.0) = (2^30, 1). Folding in 1/4 as
// TFLM does: shift = log2(4) = 2, multiplier = (2^30 << 2) / 4 = 2^30, shift 1 - 2 = -1.
constexpr int64_t kMultiplier = int64_t{1} << 30;
constexpr int64_t kShift = -1;

// [1, 2, 2, 2] averaged over axes 1 and 2: the kept walk is the 2 channels (stride 1), the
// reduced walk the 4 pixels (stride 2), as the importer merges H and W.
struct Mean {
  std::vector<int64_t> in_shape{1, 2, 2, 2};
  std::vector<int64_t> out_shape{1, 1, 1, 2};
  std::vector<int32_t> kept{2, 1};
  std::vector<int32_t> reduced{4, 2};
  int64_t input_zero_point = 0, multiplier = kMultiplier, shift = kShift, output_zero_point = 0;

  Outcome run(const std::vector<int8_t>& input) const {
    OneNode m;
    const uint32_t x = m.input("x", DType::Int8, in_shape);
    const uint32_t y = m.output("y", DType::Int8, out_shape);
    m.node("mean_s8", {ArgDef::input(x), ArgDef::output(y), ArgDef::int_array(m.ints("kept", kept)),
                       ArgDef::int_array(m.ints("reduced", reduced)), ArgDef::integer(input_zero_point),
                       ArgDef::integer(multiplier), ArgDef::integer(shift), ArgDef::integer(output_zero_point)});
    return plan_and_run(m.model, {bytes_of(input)});
  }
  std::vector<int8_t> values(const std::vector<int8_t>& input) const {
    const Outcome o = run(input);
    EXPECT_EQ(o.run, GRT_OK) << o.message;
    return o.outputs.empty() ? std::vector<int8_t>{} : values_of<int8_t>(o.outputs[0]);
  }
};

TEST(MeanS8, AveragesEachChannelWithTheReferenceDoubleRounding) {
  // Channel 0: 4 + 8 + 12 + 16 = 40 -> 10. Channel 1: 1 + 1 + 1 + 2 = 5: 5/4 = 1.25, but the
  // reference rounds twice (5 * 0.5 = 2.5 -> 3, then 3 / 2 = 1.5 -> 2), and so do we.
  EXPECT_EQ(Mean{}.values({4, 1, 8, 1, 12, 1, 16, 2}), (std::vector<int8_t>{10, 2}));
}

TEST(MeanS8, AppliesZeroPoints) {
  Mean m;
  m.input_zero_point = -10;  // values + 10 are averaged
  m.output_zero_point = 5;
  EXPECT_EQ(m.values({-10, 0, -10, 0, -10, 0, -10, 0}), (std::vector<int8_t>{5, 15}));
}

TEST(MeanS8, SaturatesAtTypeLimits) {
  Mean m;
  m.input_zero_point = -128;
  m.output_zero_point = 100;
  EXPECT_EQ(m.values({127, -128, 127, -128, 127, -128, 127, -128}), (std::vector<int8_t>{127, 100}));
  m.input_zero_point = 127;
  m.output_zero_point = -100;
  EXPECT_EQ(m.values({-128, 127, -128, 127, -128, 127, -128, 127}), (std::vector<int8_t>{-128, -100}));
}

TEST(MeanS8, BatchesAndKeepDimsFreeOutput) {
  Mean m;
  m.in_shape = {2, 1, 1, 2};
  m.out_shape = {2, 2};  // keep_dims false
  m.kept = {4, 1};       // nothing is reduced: the size-1 axes were dropped
  m.reduced = {};
  m.shift = 1;  // count 1: no folding
  EXPECT_EQ(m.values({1, -2, 3, -4}), (std::vector<int8_t>{1, -2, 3, -4}));
}

TEST(MeanS8, RefusesBadArguments) {
  Mean m;
  m.out_shape = {1, 1, 1, 3};
  Outcome o = m.run({});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("every output element"), std::string::npos) << o.message;
  m = Mean{};
  m.reduced = {4, 3};  // the last pixel's channel 1 would be element 10 of 8
  o = m.run({});
  EXPECT_NE(o.message.find("reach past the input"), std::string::npos) << o.message;
  m = Mean{};
  m.shift = 31;
  o = m.run({});
  EXPECT_NE(o.message.find("argument 6 is out of range"), std::string::npos) << o.message;
  m = Mean{};
  m.input_zero_point = 128;
  o = m.run({});
  EXPECT_NE(o.message.find("argument 4 is out of range"), std::string::npos) << o.message;
  m = Mean{};
  m.multiplier = -1;
  o = m.run({});
  EXPECT_NE(o.message.find("argument 5 is out of range"), std::string::npos) << o.message;
}

}  // namespace
}  // namespace grt::test::dense
