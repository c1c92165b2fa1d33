// softmax_s8's Cortex-M DSP path (kernels/src/dense/softmax_dsp.h: the row maximum four
// lanes per load, the exp's products without the saturation test) on the host, each DSP
// instruction emulated in C (GRT_DSP_EMULATE), against the portable kernels run through a
// one-node model: rows of every length to 70 (most not multiples of 4), the maximum in
// every lane position, extreme multipliers, left shifts and diff_min, int8 and int16
// outputs; and the product against the saturating one where the exp takes it.
#define GRT_DSP_EMULATE 1

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "dense/softmax_dsp.h"
#include "dense/softmax_int8.h"
#include "dense_harness.h"

namespace grt::test::dense {
namespace {

namespace dsp = grt::kernels::dsp;
namespace fixed = grt::kernels::softmax;

template <typename OutputT>
std::vector<OutputT> run_portable(const std::vector<int8_t>& input, int64_t rows, int64_t depth,
                                  const fixed::Int8Softmax& p) {
  OneNode m;
  const uint32_t x = m.input("x", DType::Int8, {rows, depth});
  const uint32_t y = m.output("y", sizeof(OutputT) == 1 ? DType::Int8 : DType::Int16, {rows, depth});
  m.node(sizeof(OutputT) == 1 ? "softmax_s8" : "softmax_s8_s16",
         {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(p.input_multiplier), ArgDef::integer(p.input_left_shift),
          ArgDef::integer(p.diff_min)});
  const Outcome o = plan_and_run(m.model, {bytes_of(input)});
  EXPECT_EQ(o.run, GRT_OK) << o.message;
  return o.outputs.empty() ? std::vector<OutputT>{} : values_of<OutputT>(o.outputs[0]);
}

template <typename OutputT>
std::vector<OutputT> run_dsp(const std::vector<int8_t>& input, int64_t rows, int64_t depth, const fixed::Int8Softmax& p) {
  std::vector<OutputT> out(input.size(), OutputT{0x55});
  for (int64_t r = 0; r < rows; ++r) {
    fixed::softmax_int8_row<OutputT, dsp::SoftmaxOps>(p, input.data() + r * depth, out.data() + r * depth, int(depth));
  }
  return out;
}

TEST(SoftmaxDsp, RowMaximumOfEveryLengthAndLane) {
  std::mt19937 engine(7);
  for (int depth = 0; depth <= 70; ++depth) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<int8_t> row(static_cast<size_t>(depth));
      for (auto& v : row) v = int8_t(-128 + int(engine() % 100u));  // the maximum below 127 mostly
      if (depth > 0 && trial % 2 == 0) row[size_t(trial / 2) % size_t(depth)] = int8_t(trial == 0 ? -128 : 127);
      if (trial == 1) std::fill(row.begin(), row.end(), int8_t{-128});
      const int8_t expected = depth == 0 ? INT8_MIN : *std::max_element(row.begin(), row.end());
      EXPECT_EQ(dsp::SoftmaxOps::row_max(row.data(), depth), expected) << "depth " << depth << " trial " << trial;
    }
  }
}

TEST(SoftmaxDsp, ProductMatchesTheSaturatingOneUnlessBothAreMinimal) {
  std::mt19937 engine(11);
  const int32_t extremes[] = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, INT32_MAX, 1 << 30, -(1 << 30)};
  for (int32_t a : extremes) {
    for (int32_t b : extremes) {
      if (a == INT32_MIN && b == INT32_MIN) continue;
      EXPECT_EQ(dsp::SoftmaxOps::product(a, b), fixed::mul(a, b)) << a << " * " << b;
    }
  }
  for (int i = 0; i < 200000; ++i) {
    const int32_t a = int32_t(engine()), b = int32_t(engine());
    if (a == INT32_MIN && b == INT32_MIN) continue;
    ASSERT_EQ(dsp::SoftmaxOps::product(a, b), fixed::mul(a, b)) << a << " * " << b;
  }
  // The exp over Q5.26 inputs from 0 down to the most negative.
  for (int64_t a = 0; a >= INT32_MIN; a -= 4099) {
    ASSERT_EQ(fixed::exp_on_negative_values_q5<dsp::SoftmaxOps>(int32_t(a)), fixed::exp_on_negative_values_q5(int32_t(a)))
        << a;
  }
}

template <typename OutputT>
void check_random_rows(uint32_t seed) {
  std::mt19937 engine(seed);
  for (int i = 0; i < 150; ++i) {
    const int64_t rows = 1 + int64_t(engine() % 3), depth = 1 + int64_t(engine() % 70);
    fixed::Int8Softmax p{};
    switch (engine() % 4) {
      case 0: p = {1 << 30, 23, -248}; break;  // input scale 1/16, beta 1
      case 1: p = {INT32_MAX, int(engine() % 32), INT32_MIN}; break;
      case 2: p = {int32_t(engine() % 2147483648u), int(engine() % 32), -int32_t(engine() % 300)}; break;
      default: p = {int32_t(1073741824 + engine() % 1073741823u), 20 + int(engine() % 8), -int32_t(engine() % 256)}; break;
    }
    std::vector<int8_t> input(size_t(rows * depth));
    const int spread = 1 + int(engine() % 256);
    for (auto& v : input) v = int8_t(-128 + int(engine() % unsigned(spread)) + int(engine() % unsigned(257 - spread)));
    EXPECT_EQ(run_dsp<OutputT>(input, rows, depth, p), run_portable<OutputT>(input, rows, depth, p))
        << "case " << i << " rows " << rows << " depth " << depth << " multiplier " << p.input_multiplier
        << " left shift " << p.input_left_shift << " diff_min " << p.diff_min;
  }
}

TEST(SoftmaxDsp, MatchesThePortableKernelWithInt8Output) { check_random_rows<int8_t>(23); }
TEST(SoftmaxDsp, MatchesThePortableKernelWithInt16Output) { check_random_rows<int16_t>(29); }

}  // namespace
}  // namespace grt::test::dense
