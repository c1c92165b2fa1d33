// add_s8 / sub_s8 / add_s16 compute TFLM's three MultiplyByQuantizedMultiplier steps with
// constants worked out once per call (kernels/src/conv/depthwise_requantize.h). Every input
// pair over random scales and shifts, against the reference formula written out here.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

int32_t reference_requantize(int32_t x, int32_t m, int shift) {  // shift <= 0, m >= 0 here
  const int64_t ab = int64_t{x} * m;
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (1 - (int64_t{1} << 30));
  const int32_t high = int32_t((ab + nudge) / (int64_t{1} << 31));
  const int right = -shift;
  const int32_t mask = int32_t((int64_t{1} << right) - 1);
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> right) + ((high & mask) > threshold ? 1 : 0);
}

template <typename T>
void check_all_pairs(const char* kernel, DType dtype, bool subtract, uint32_t seed) {
  std::mt19937 engine(seed);
  const int bits = int(sizeof(T) * 8);
  const int32_t lo = sizeof(T) == 1 ? INT8_MIN : INT16_MIN, hi = sizeof(T) == 1 ? INT8_MAX : INT16_MAX;
  // Every a against every b for int8; a strided sample for int16.
  std::vector<T> a, b;
  const int32_t step = sizeof(T) == 1 ? 1 : 257;
  for (int32_t i = lo; i <= hi; i += step) {
    for (int32_t j = lo; j <= hi; j += step) {
      a.push_back(T(i));
      b.push_back(T(j));
    }
  }
  const int64_t n = int64_t(a.size());
  const int left_shift = bits == 8 ? 20 : 15;
  const int32_t a_offset = int32_t(engine() % 255) - 127, b_offset = int32_t(engine() % 255) - 127;
  const int32_t a_mult = int32_t(1073741824 + engine() % 1073741823u), b_mult = int32_t(1073741824 + engine() % 1073741823u);
  const int a_shift = -int(engine() % 3), b_shift = -int(engine() % 3);
  const int32_t out_mult = int32_t(1073741824 + engine() % 1073741823u);
  const int out_shift = -(left_shift - 1) - int(engine() % 3);
  const int32_t out_offset = int32_t(engine() % 21) - 10;
  const int32_t act_min = lo + 3, act_max = hi - 5;

  OneNode m;
  const uint32_t ta = m.input(dtype, {n});
  const uint32_t tb = m.input(dtype, {n});
  const uint32_t ty = m.output(dtype, {n});
  m.node(kernel, {ArgDef::input(ta), ArgDef::input(tb), ArgDef::output(ty), ArgDef::integer(left_shift),
                  ArgDef::integer(a_offset), ArgDef::integer(a_mult), ArgDef::integer(a_shift), ArgDef::integer(b_offset),
                  ArgDef::integer(b_mult), ArgDef::integer(b_shift), ArgDef::integer(out_offset),
                  ArgDef::integer(out_mult), ArgDef::integer(out_shift), ArgDef::integer(act_min),
                  ArgDef::integer(act_max)});
  Loaded x(m.def);
  ASSERT_EQ(x.status(), GRT_OK) << x.message();
  x.set_input(0, a);
  x.set_input(1, b);
  ASSERT_EQ(x.run(), GRT_OK) << x.run_message();
  const std::vector<T> got = x.output<T>(0);
  ASSERT_EQ(int64_t(got.size()), n);
  int64_t mismatches = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t sa = reference_requantize((a[size_t(i)] + a_offset) * (1 << left_shift), a_mult, a_shift);
    const int32_t sb = reference_requantize((b[size_t(i)] + b_offset) * (1 << left_shift), b_mult, b_shift);
    int32_t v = reference_requantize(subtract ? sa - sb : sa + sb, out_mult, out_shift) + out_offset;
    v = v < act_min ? act_min : (v > act_max ? act_max : v);
    if (got[size_t(i)] != T(v) && mismatches++ < 5) {
      ADD_FAILURE() << kernel << " a=" << int(a[size_t(i)]) << " b=" << int(b[size_t(i)]) << " got " << int(got[size_t(i)])
                    << " want " << v;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(AddSubRequantize, AddS8EveryPair) {
  for (uint32_t seed : {1u, 2u, 3u}) check_all_pairs<int8_t>("add_s8", DType::Int8, false, seed);
}
TEST(AddSubRequantize, SubS8EveryPair) { check_all_pairs<int8_t>("sub_s8", DType::Int8, true, 4); }
TEST(AddSubRequantize, AddS16Sampled) { check_all_pairs<int16_t>("add_s16", DType::Int16, false, 5); }

}  // namespace
}  // namespace grt::test
