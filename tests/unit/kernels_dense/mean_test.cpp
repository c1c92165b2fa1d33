// mean_s8: per-channel spatial means with TFLM's folded multiplier, zero points,
// saturation, workspace, refusals.
#include <gtest/gtest.h>

#include "dense_harness.h"

namespace grt::test::dense {
namespace {

// Equal input and output scales: QuantizeMultiplier(1.0) = (2^30, 1). Folding in 1/4 as
// TFLM does: shift = log2(4) = 2, multiplier = (2^30 << 2) / 4 = 2^30, shift 1 - 2 = -1.
constexpr int64_t kMultiplier = int64_t{1} << 30;
constexpr int64_t kShift = -1;
constexpr uint64_t kWorkspace = 64;  // GRT_STACK_ALLOCATION_BYTES(4 * 2 channels, 16) = 32

struct Mean {
  std::vector<int64_t> in_shape{1, 2, 2, 2};
  std::vector<int64_t> out_shape{1, 1, 1, 2};
  int64_t input_zero_point = 0, multiplier = kMultiplier, shift = kShift, output_zero_point = 0;
  uint64_t workspace = kWorkspace;

  Outcome run(const std::vector<int8_t>& input) const {
    OneNode m;
    const uint32_t x = m.input("x", DType::Int8, in_shape);
    const uint32_t y = m.output("y", DType::Int8, out_shape);
    m.node("mean_s8",
           {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(input_zero_point), ArgDef::integer(multiplier),
            ArgDef::integer(shift), ArgDef::integer(output_zero_point)},
           workspace);
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
  m.multiplier = kMultiplier;
  m.shift = 1;  // count 1: no folding
  EXPECT_EQ(m.values({1, -2, 3, -4}), (std::vector<int8_t>{1, -2, 3, -4}));
}

TEST(MeanS8, FailsCleanlyWithoutItsWorkspace) {
  Mean m;
  m.workspace = 0;
  const Outcome o = m.run({0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(o.init, GRT_OK) << o.message;
  EXPECT_EQ(o.run, GRT_ERR_KERNEL_FAILED);
  EXPECT_NE(o.message.find("workspace"), std::string::npos) << o.message;
}

TEST(MeanS8, RefusesBadArguments) {
  Mean m;
  m.out_shape = {1, 1, 1, 3};
  Outcome o = m.run({});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("batches * channels"), std::string::npos) << o.message;
  m = Mean{};
  m.in_shape = {1, 4, 2};
  o = m.run({});
  EXPECT_NE(o.message.find("argument 0 has the wrong rank"), std::string::npos) << o.message;
  m = Mean{};
  m.shift = 31;
  o = m.run({});
  EXPECT_NE(o.message.find("argument 4 is out of range"), std::string::npos) << o.message;
  m = Mean{};
  m.input_zero_point = 128;
  o = m.run({});
  EXPECT_NE(o.message.find("argument 2 is out of range"), std::string::npos) << o.message;
  m = Mean{};
  m.in_shape = {1, 0, 2, 2};
  o = m.run({});
  EXPECT_NE(o.message.find("non-empty image"), std::string::npos) << o.message;
}

}  // namespace
}  // namespace grt::test::dense
