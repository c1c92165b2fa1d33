// average_pool2d_sum_s8 / _finish_s8 and fully_connected_sum_s8 / _finish_s8 (and _f32): a
// reduction split into parts gives the whole kernel's bytes; the checks refuse parts that do
// not fit.
#include <gtest/gtest.h>

#include <random>

#include "dense_harness.h"

namespace grt::test::dense {
namespace {

std::vector<int8_t> random_values(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
  return v;
}

std::vector<int8_t> concatenated(const std::vector<int8_t>& a, const std::vector<int8_t>& b) {
  std::vector<int8_t> v = a;
  v.insert(v.end(), b.begin(), b.end());
  return v;
}

// A global average pool over [1, top + bottom, W, C], whole or as two sums and a finish.
struct SplitPool {
  int64_t top = 3, bottom = 4, width = 5, channels = 7;
  int64_t act_min = -100, act_max = 90;
  int64_t count_override = 0;  // for refusals: the finish's count, 0 = rows * width

  ModelDef whole() const {
    OneNode m;
    const uint32_t x = m.input("x", DType::Int8, {1, top + bottom, width, channels});
    const uint32_t y = m.output("y", DType::Int8, {1, 1, 1, channels});
    m.node("average_pool2d_s8", {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(1), ArgDef::integer(1),
                                 ArgDef::integer(top + bottom), ArgDef::integer(width), ArgDef::integer(0), ArgDef::integer(0),
                                 ArgDef::integer(act_min), ArgDef::integer(act_max)});
    return m.model;
  }
  ModelDef parts(int64_t sums_length = 0) const {
    OneNode m;
    const uint32_t a = m.input("a", DType::Int8, {1, top, width, channels});
    const uint32_t b = m.input("b", DType::Int8, {1, bottom, width, channels});
    const uint32_t s = m.model.add_activation("sums", DType::Int32, {sums_length == 0 ? channels : sums_length});
    const uint32_t y = m.output("y", DType::Int8, {1, 1, 1, channels});
    m.node("average_pool2d_sum_s8", {ArgDef::input(a), ArgDef::output(s), ArgDef::integer(0)});
    m.node("average_pool2d_sum_s8", {ArgDef::input(b), ArgDef::output(s), ArgDef::integer(1)});
    const int64_t count = count_override != 0 ? count_override : (top + bottom) * width;
    m.node("average_pool2d_finish_s8",
           {ArgDef::input(s), ArgDef::output(y), ArgDef::integer(count), ArgDef::integer(act_min), ArgDef::integer(act_max)});
    return m.model;
  }
};

TEST(AveragePoolParts, TwoSumsAndAFinishGiveTheWholePoolsBytes) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    SplitPool p;
    p.top = 1 + seed % 4;
    p.channels = 1 + static_cast<int64_t>(seed) * 3 % 19;
    const auto a = random_values(static_cast<size_t>(p.top * p.width * p.channels), seed);
    const auto b = random_values(static_cast<size_t>(p.bottom * p.width * p.channels), seed + 100);
    const Outcome whole = plan_and_run(p.whole(), {bytes_of(concatenated(a, b))});
    const Outcome parts = plan_and_run(p.parts(), {bytes_of(a), bytes_of(b)});
    ASSERT_EQ(whole.run, GRT_OK) << whole.message;
    ASSERT_EQ(parts.run, GRT_OK) << parts.message;
    EXPECT_EQ(parts.outputs, whole.outputs) << "seed " << seed;
  }
}

TEST(AveragePoolParts, RoundsHalfAwayFromZero) {
  SplitPool p;
  p.top = p.bottom = 1;
  p.width = 2;
  p.channels = 2;
  // Channel 0: 1 + 2 + 0 + 1 = 4 / 4 = 1; channel 1: -1 - 2 + 0 - 3 = -6 / 4 = -1.5 -> -2.
  const Outcome o = plan_and_run(p.parts(), {bytes_of(std::vector<int8_t>{1, -1, 2, -2}), bytes_of(std::vector<int8_t>{0, 0, 1, -3})});
  ASSERT_EQ(o.run, GRT_OK) << o.message;
  EXPECT_EQ(values_of<int8_t>(o.outputs[0]), (std::vector<int8_t>{1, -2}));
}

TEST(AveragePoolParts, RefusesSumsOfAnotherLengthAndAnEmptyCount) {
  SplitPool p;
  const Outcome wrong_sums = plan_and_run(p.parts(p.channels + 1), {});
  EXPECT_EQ(wrong_sums.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(wrong_sums.message.find("sums"), std::string::npos) << wrong_sums.message;
  p.count_override = -1;
  const Outcome no_count = plan_and_run(p.parts(), {});
  EXPECT_EQ(no_count.init, GRT_ERR_KERNEL_ARGS) << no_count.message;
}

// An int8 fully connected layer over `left + right` inputs, whole or as two sums and a finish.
struct SplitFc {
  int64_t left = 15, right = 25, units = 6;
  bool per_channel = true, with_bias = true;
  int64_t input_offset = 7, filter_offset = 0, output_offset = -3;
  int64_t right_column = 0;  // for refusals: the second sum's first column, 0 = left

  std::vector<int8_t> weights() const { return random_values(static_cast<size_t>(units * (left + right)), 99); }
  std::vector<int32_t> multipliers() const {
    std::vector<int32_t> m(per_channel ? static_cast<size_t>(units) : 1);
    for (size_t i = 0; i < m.size(); ++i) m[i] = (1 << 30) + static_cast<int32_t>(i) * 12345;
    return m;
  }
  std::vector<int32_t> shifts() const { return std::vector<int32_t>(per_channel ? static_cast<size_t>(units) : 1, -6); }
  ArgDef bias(OneNode* m) const {
    if (!with_bias) return ArgDef::none();
    std::vector<int32_t> b(static_cast<size_t>(units));
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int32_t>(i) * 1000 - 2500;
    return ArgDef::input(m->constant("b", DType::Int32, {units}, b));
  }

  ModelDef whole() const {
    OneNode m;
    const uint32_t x = m.input("x", DType::Int8, {1, left + right});
    const uint32_t w = m.constant("w", DType::Int8, {units, left + right}, weights());
    const ArgDef b = bias(&m);
    const uint32_t y = m.output("y", DType::Int8, {1, units});
    m.node("fully_connected_s8", {ArgDef::input(x), ArgDef::input(w), b, ArgDef::output(y),
                                  ArgDef::int_array(m.requantization(multipliers(), shifts())),
                                  ArgDef::integer(input_offset), ArgDef::integer(filter_offset), ArgDef::integer(output_offset),
                                  ArgDef::integer(-128), ArgDef::integer(127)});
    return m.model;
  }
  ModelDef parts() const {
    OneNode m;
    const uint32_t a = m.input("a", DType::Int8, {1, left});
    const uint32_t c = m.input("c", DType::Int8, {1, right});
    const uint32_t w = m.constant("w", DType::Int8, {units, left + right}, weights());
    const ArgDef b = bias(&m);
    const uint32_t s = m.model.add_activation("sums", DType::Int32, {units});
    const uint32_t y = m.output("y", DType::Int8, {1, units});
    const auto sum = [&](uint32_t x, int64_t first, int64_t accumulate) {
      m.node("fully_connected_sum_s8", {ArgDef::input(x), ArgDef::input(w), ArgDef::output(s), ArgDef::integer(first),
                                        ArgDef::integer(input_offset), ArgDef::integer(filter_offset), ArgDef::integer(accumulate)});
    };
    // The right part first: the order of the parts does not change a wrapping sum.
    sum(c, right_column != 0 ? right_column : left, 0);
    sum(a, 0, 1);
    m.node("fully_connected_finish_s8",
           {ArgDef::input(s), b, ArgDef::output(y), ArgDef::int_array(m.requantization(multipliers(), shifts())), ArgDef::integer(output_offset), ArgDef::integer(-128), ArgDef::integer(127)});
    return m.model;
  }
};

TEST(FullyConnectedParts, TwoSumsAndAFinishGiveTheWholeLayersBytes) {
  for (uint32_t seed = 1; seed <= 16; ++seed) {
    SplitFc f;
    f.left = 1 + seed * 7 % 40;
    f.units = 1 + seed % 9;
    f.per_channel = seed % 2 == 0;
    f.with_bias = seed % 3 != 0;
    f.filter_offset = f.per_channel ? 0 : static_cast<int64_t>(seed % 5) - 2;
    const auto a = random_values(static_cast<size_t>(f.left), seed);
    const auto c = random_values(static_cast<size_t>(f.right), seed + 50);
    const Outcome whole = plan_and_run(f.whole(), {bytes_of(concatenated(a, c))});
    const Outcome parts = plan_and_run(f.parts(), {bytes_of(a), bytes_of(c)});
    ASSERT_EQ(whole.run, GRT_OK) << whole.message;
    ASSERT_EQ(parts.run, GRT_OK) << parts.message;
    EXPECT_EQ(parts.outputs, whole.outputs) << "seed " << seed;
  }
}

TEST(FullyConnectedParts, RefusesAPartPastTheWeightsDepth) {
  SplitFc f;
  f.right_column = f.left + 1;  // the right part's last column would be one past the depth
  const Outcome o = plan_and_run(f.parts(), {});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("depth"), std::string::npos) << o.message;
}

// A float fully connected layer over `left + right` inputs, whole or as two sums (left part
// first: float sums keep the whole kernel's order) and a finish.
struct SplitFcF32 {
  int64_t left = 13, right = 22, units = 5;
  bool with_bias = true;
  int64_t sum_lanes = 8;  // for refusals: the sums' second dimension

  std::vector<float> values(size_t n, uint32_t seed) const {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2.0f, 2.0f);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
  }
  std::vector<float> weights() const { return values(static_cast<size_t>(units * (left + right)), 7); }
  ArgDef bias(OneNode* m) const {
    return with_bias ? ArgDef::input(m->constant("b", DType::Float32, {units}, values(static_cast<size_t>(units), 8))) : ArgDef::none();
  }
  ModelDef whole() const {
    OneNode m;
    const uint32_t x = m.input("x", DType::Float32, {1, left + right});
    const uint32_t w = m.constant("w", DType::Float32, {units, left + right}, weights());
    const ArgDef b = bias(&m);
    const uint32_t y = m.output("y", DType::Float32, {1, units});
    m.node("fully_connected_f32", {ArgDef::input(x), ArgDef::input(w), b, ArgDef::output(y), ArgDef::real(-3.0), ArgDef::real(3.0)});
    return m.model;
  }
  ModelDef parts() const {
    OneNode m;
    const uint32_t a = m.input("a", DType::Float32, {1, left});
    const uint32_t c = m.input("c", DType::Float32, {1, right});
    const uint32_t w = m.constant("w", DType::Float32, {units, left + right}, weights());
    const ArgDef b = bias(&m);
    const uint32_t s = m.model.add_activation("sums", DType::Float32, {units, sum_lanes});
    const uint32_t y = m.output("y", DType::Float32, {1, units});
    m.node("fully_connected_sum_f32", {ArgDef::input(a), ArgDef::input(w), ArgDef::output(s), ArgDef::integer(0), ArgDef::integer(0)});
    m.node("fully_connected_sum_f32", {ArgDef::input(c), ArgDef::input(w), ArgDef::output(s), ArgDef::integer(left), ArgDef::integer(1)});
    m.node("fully_connected_finish_f32", {ArgDef::input(s), b, ArgDef::output(y), ArgDef::real(-3.0), ArgDef::real(3.0)});
    return m.model;
  }
};

TEST(FullyConnectedParts, FloatSumsKeepTheWholeLayersLanesAndBits) {
  for (uint32_t seed = 1; seed <= 16; ++seed) {
    SplitFcF32 f;
    f.left = 1 + seed * 5 % 29;  // most splits fall inside a lane group of eight
    f.units = 1 + seed % 6;
    f.with_bias = seed % 3 != 0;
    const auto a = f.values(static_cast<size_t>(f.left), seed);
    const auto c = f.values(static_cast<size_t>(f.right), seed + 50);
    std::vector<float> whole_input = a;
    whole_input.insert(whole_input.end(), c.begin(), c.end());
    const Outcome whole = plan_and_run(f.whole(), {bytes_of(whole_input)});
    const Outcome parts = plan_and_run(f.parts(), {bytes_of(a), bytes_of(c)});
    ASSERT_EQ(whole.run, GRT_OK) << whole.message;
    ASSERT_EQ(parts.run, GRT_OK) << parts.message;
    EXPECT_EQ(parts.outputs, whole.outputs) << "seed " << seed;  // bytes: the same bits
  }
}

TEST(FullyConnectedParts, RefusesFloatSumsThatAreNotEightLanesPerUnit) {
  SplitFcF32 f;
  f.sum_lanes = 4;
  const Outcome o = plan_and_run(f.parts(), {});
  EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS);
  EXPECT_NE(o.message.find("sums must be [units, 8]"), std::string::npos) << o.message;
}

}  // namespace
}  // namespace grt::test::dense
