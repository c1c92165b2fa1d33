// The fast paths of fully_connected_s8 / _f32 and average_pool2d_s8 / _f32 against the
// tests' statement of TFLM's loops: FC depths that fill, split and miss the 32/8-element
// blocks and the 256-element input stage (several chunks), unit counts around the 4-unit
// block, batches, filter offsets, wrapping sums; pools over channel counts around the
// 16/8-channel blocks, with padding and strides.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <cstdint>
#include <random>
#include <vector>

#include "dense_harness.h"

namespace grt::test::dense {
namespace {

template <typename T>
std::vector<T> random_values(size_t n, uint32_t seed, int low, int high) {
  std::mt19937 engine(seed);
  std::vector<T> v(n);
  for (auto& e : v) e = T(low + int(engine() % uint32_t(high - low + 1)));
  return v;
}

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 engine(seed);
  std::vector<float> v(n);
  for (auto& e : v) e = float(int(engine() % 20001u) - 10000) / 7919.0f;
  return v;
}

// TFLM's MultiplyByQuantizedMultiplier (gemmlowp rounding), shift in [-31, 30].
int32_t reference_requantize(int32_t x, int32_t m, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  const int32_t a = int32_t(uint32_t(x) << left);
  int32_t high;
  if (a == INT32_MIN && m == INT32_MIN) {
    high = INT32_MAX;
  } else {
    const int64_t ab = int64_t{a} * m;
    const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
    high = int32_t((ab + nudge) / (int64_t{1} << 31));
  }
  const int32_t mask = int32_t((int64_t{1} << right) - 1);
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> right) + ((high & mask) > threshold ? 1 : 0);
}

struct Fc {
  int batches = 1, units = 1, depth = 1;
  int32_t input_offset = 0, filter_offset = 0, output_offset = 0;
  bool per_channel = false;
  bool with_bias = true;
  int32_t act_min = -128, act_max = 127;
};

TEST(DenseSpeedPaths, FullyConnectedS8MatchesTheReferenceLoop) {
  uint32_t seed = 77;
  std::vector<Fc> cases;
  for (int depth : {1, 7, 8, 31, 32, 33, 72, 255, 256, 257, 300, 512, 640, 700}) {
    for (int units : {1, 4, 5, 11}) {
      Fc fc;
      fc.depth = depth;
      fc.units = units;
      fc.batches = 1 + (depth + units) % 3;
      fc.input_offset = depth % 2 == 0 ? 128 : -127 + units;
      fc.filter_offset = units == 5 ? (depth % 2 == 0 ? 128 : -127) : 0;
      fc.output_offset = -5 + units;
      fc.per_channel = units % 2 == 1;
      fc.with_bias = depth != 33;
      if (units == 11) fc.act_min = -60, fc.act_max = 70;
      cases.push_back(fc);
    }
  }
  for (const Fc& fc : cases) {
    const auto input = random_values<int8_t>(size_t(fc.batches) * fc.depth, seed++, -128, 127);
    auto weights = random_values<int8_t>(size_t(fc.units) * fc.depth, seed++, -128, 127);
    if (fc.depth == 640) std::fill(weights.begin(), weights.end(), int8_t(-128));  // largest products
    // Biases near the int32 limits make the sums wrap, as TFLM's int32 accumulator does.
    std::vector<int32_t> bias = random_values<int32_t>(size_t(fc.units), seed++, -100000, 100000);
    if (fc.depth == 700) bias[0] = INT32_MAX - 5, bias[fc.units - 1] = INT32_MIN + 3;
    const size_t channels = fc.per_channel ? size_t(fc.units) : 1;
    std::vector<int32_t> multipliers, shifts;
    for (size_t c = 0; c < channels; ++c) {
      multipliers.push_back(int32_t(1100000000 + (seed * 7919 + c * 104729) % 1000000000));
      shifts.push_back(-12 - int((seed + c) % 8));
    }
    if (fc.depth == 1) shifts[0] = 3;  // a left shift
    OneNode m;
    const uint32_t x = m.input("x", DType::Int8, {fc.batches, fc.depth});
    const uint32_t w = m.constant("w", DType::Int8, {fc.units, fc.depth}, weights);
    const uint32_t y = m.output("y", DType::Int8, {fc.batches, fc.units});
    const ArgDef b = fc.with_bias ? ArgDef::input(m.constant("b", DType::Int32, {fc.units}, bias)) : ArgDef::none();
    m.node("fully_connected_s8",
           {ArgDef::input(x), ArgDef::input(w), b, ArgDef::output(y), ArgDef::int_array(m.requantization(multipliers, shifts)), ArgDef::integer(fc.input_offset), ArgDef::integer(fc.filter_offset),
            ArgDef::integer(fc.output_offset), ArgDef::integer(fc.act_min), ArgDef::integer(fc.act_max)});
    const Outcome o = plan_and_run(m.model, {bytes_of(input)});
    ASSERT_EQ(o.init, GRT_OK) << o.message;
    ASSERT_EQ(o.run, GRT_OK) << o.message;
    std::vector<int8_t> expected;
    for (int bt = 0; bt < fc.batches; ++bt) {
      for (int u = 0; u < fc.units; ++u) {
        uint32_t acc = 0;
        for (int k = 0; k < fc.depth; ++k) {
          acc += uint32_t((weights[size_t(u) * fc.depth + k] + fc.filter_offset) *
                          (input[size_t(bt) * fc.depth + k] + fc.input_offset));
        }
        if (fc.with_bias) acc += uint32_t(bias[size_t(u)]);
        const size_t c = fc.per_channel ? size_t(u) : 0;
        int32_t v = reference_requantize(int32_t(acc), multipliers[c], shifts[c]) + fc.output_offset;
        v = v < fc.act_min ? fc.act_min : (v > fc.act_max ? fc.act_max : v);
        expected.push_back(int8_t(v));
      }
    }
    EXPECT_EQ(values_of<int8_t>(o.outputs[0]), expected)
        << "depth " << fc.depth << " units " << fc.units << " batches " << fc.batches;
  }
}

TEST(DenseSpeedPaths, FullyConnectedF32WithinFloatRounding) {
  uint32_t seed = 500;
  for (int depth : {1, 5, 8, 9, 16, 63, 640}) {
    for (int units : {1, 3, 6}) {
      const int batches = 1 + depth % 2;
      const auto input = random_floats(size_t(batches) * depth, seed++);
      const auto weights = random_floats(size_t(units) * depth, seed++);
      const auto bias = random_floats(size_t(units), seed++);
      OneNode m;
      const uint32_t x = m.input("x", DType::Float32, {batches, depth});
      const uint32_t w = m.constant("w", DType::Float32, {units, depth}, weights);
      const uint32_t y = m.output("y", DType::Float32, {batches, units});
      m.node("fully_connected_f32", {ArgDef::input(x), ArgDef::input(w),
                                     ArgDef::input(m.constant("b", DType::Float32, {units}, bias)), ArgDef::output(y),
                                     ArgDef::real(-1e30), ArgDef::real(1e30)});
      const Outcome o = plan_and_run(m.model, {bytes_of(input)});
      ASSERT_EQ(o.run, GRT_OK) << o.message;
      const auto got = values_of<float>(o.outputs[0]);
      for (int bt = 0; bt < batches; ++bt) {
        for (int u = 0; u < units; ++u) {
          double exact = 0.0, magnitude = 0.0;
          for (int k = 0; k < depth; ++k) {
            const double p = double(input[size_t(bt) * depth + k]) * weights[size_t(u) * depth + k];
            exact += p;
            magnitude += std::fabs(p);
          }
          exact += bias[size_t(u)];
          EXPECT_NEAR(got[size_t(bt) * units + u], exact, 1e-6 * (magnitude + 1.0)) << "depth " << depth;
        }
      }
    }
  }
}

struct PoolCase {
  std::vector<int64_t> in;
  int out_h, out_w, stride, filter_h, filter_w, pad_top, pad_left;
};

template <typename T>
std::vector<T> reference_pool(const PoolCase& p, const std::vector<T>& x, double lo, double hi) {
  const int64_t n = p.in[0], h = p.in[1], w = p.in[2], c = p.in[3];
  std::vector<T> out;
  for (int64_t b = 0; b < n; ++b)
    for (int oy = 0; oy < p.out_h; ++oy)
      for (int ox = 0; ox < p.out_w; ++ox)
        for (int64_t ch = 0; ch < c; ++ch) {
          using Sum = std::conditional_t<std::is_same_v<T, float>, float, int32_t>;
          Sum sum = 0;
          int count = 0;
          for (int fy = 0; fy < p.filter_h; ++fy)
            for (int fx = 0; fx < p.filter_w; ++fx) {
              const int64_t iy = int64_t(oy) * p.stride - p.pad_top + fy, ix = int64_t(ox) * p.stride - p.pad_left + fx;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
              sum = Sum(sum + x[size_t(((b * h + iy) * w + ix) * c + ch)]);
              ++count;
            }
          if constexpr (std::is_same_v<T, float>) {
            out.push_back(std::min(std::max(sum / float(count), float(lo)), float(hi)));
          } else {
            const int32_t s = int32_t(sum);
            int32_t avg = s > 0 ? (s + count / 2) / count : (s - count / 2) / count;
            avg = std::min<int32_t>(std::max<int32_t>(avg, int32_t(lo)), int32_t(hi));
            out.push_back(T(avg));
          }
        }
  return out;
}

TEST(DenseSpeedPaths, AveragePoolChannelBlocksMatchTheReference) {
  const std::vector<PoolCase> cases = {
      {{1, 8, 8, 16}, 1, 1, 8, 8, 8, 0, 0},   // global pool, one 16-block
      {{1, 5, 6, 24}, 3, 3, 2, 3, 3, 1, 1},   // 16 + 8, padded borders
      {{2, 4, 5, 25}, 2, 3, 2, 2, 2, 0, 0},   // 16 + 8 + 1, batches
      {{1, 6, 6, 3}, 3, 3, 2, 3, 3, 1, 1},    // single channels
      {{1, 7, 7, 40}, 7, 7, 1, 3, 3, 1, 1},   // 32 + 8, SAME
  };
  uint32_t seed = 31;
  for (const PoolCase& p : cases) {
    const size_t in_elements = size_t(p.in[0] * p.in[1] * p.in[2] * p.in[3]);
    const std::vector<int64_t> out_shape = {p.in[0], p.out_h, p.out_w, p.in[3]};
    for (bool is_float : {false, true}) {
      OneNode m;
      const DType dt = is_float ? DType::Float32 : DType::Int8;
      const uint32_t x = m.input("x", dt, p.in);
      const uint32_t y = m.output("y", dt, out_shape);
      std::vector<ArgDef> args = {ArgDef::input(x),         ArgDef::output(y),          ArgDef::integer(p.stride),
                                  ArgDef::integer(p.stride), ArgDef::integer(p.filter_h), ArgDef::integer(p.filter_w),
                                  ArgDef::integer(p.pad_top), ArgDef::integer(p.pad_left)};
      if (is_float) {
        args.push_back(ArgDef::real(-1.0));
        args.push_back(ArgDef::real(1.0));
        m.node("average_pool2d_f32", args);
        const auto input = random_floats(in_elements, seed++);
        const Outcome o = plan_and_run(m.model, {bytes_of(input)});
        ASSERT_EQ(o.run, GRT_OK) << o.message;
        const auto expected = reference_pool<float>(p, input, -1.0, 1.0);
        const auto got = values_of<float>(o.outputs[0]);
        ASSERT_EQ(got.size(), expected.size());
        EXPECT_EQ(0, std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)));
      } else {
        args.push_back(ArgDef::integer(-100));
        args.push_back(ArgDef::integer(120));
        m.node("average_pool2d_s8", args);
        const auto input = random_values<int8_t>(in_elements, seed++, -128, 127);
        const Outcome o = plan_and_run(m.model, {bytes_of(input)});
        ASSERT_EQ(o.run, GRT_OK) << o.message;
        EXPECT_EQ(values_of<int8_t>(o.outputs[0]), reference_pool<int8_t>(p, input, -100, 120));
      }
    }
  }
}

}  // namespace
}  // namespace grt::test::dense
