// add_s8's Cortex-M DSP path (kernels/src/elementwise/add_dsp.h) on the host, each DSP
// instruction emulated in C (GRT_DSP_EMULATE), against the portable kernel run through a
// one-node model: same shapes and single-element broadcasts of lengths around multiples of
// 4, the extreme offsets, multipliers and shifts it accepts (input shifts of 0 included),
// halfway values, full, ReLU and narrowed clamps, ResNet-8's adds;
// the parameters and broadcast forms outside its preconditions are declined without writing.
#define GRT_DSP_EMULATE 1

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "elementwise/add_dsp.h"
#include "quantized_binary.h"

namespace grt::test {
namespace {

namespace dsp = grt::kernels::dsp;
using kernels::TwoInputRescaling;
using tools::DType;

struct AddCase {
  std::vector<int64_t> a_shape, b_shape, out_shape;
  TwoInputRescaling p;
  int32_t act_min = -128, act_max = 127;
};

int64_t count_of(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::vector<int8_t> run_portable(const AddCase& c, const std::vector<int8_t>& a, const std::vector<int8_t>& b) {
  const TwoInputRescaling& p = c.p;
  const QuantizedBinaryParams params{p.left_shift, p.a_offset, p.a_multiplier, p.a_shift, p.b_offset, p.b_multiplier,
                                     p.b_shift,    p.out_offset, p.out_multiplier, p.out_shift, c.act_min, c.act_max};
  return run_quantized_binary<int8_t>("add_s8", DType::Int8, c.a_shape, a, c.b_shape, b, c.out_shape, params);
}

// A host DLTensor over `data` with `shape`.
DLTensor tensor_of(std::vector<int64_t>& shape, void* data) {
  DLTensor t{};
  t.data = data;
  t.device = {kDLCPU, 0};
  t.ndim = int(shape.size());
  t.dtype = {kDLInt, 8, 1};
  t.shape = shape.data();
  return t;
}

// Runs the DSP path; true if it accepted the case (then `got` holds its outputs).
bool run_dsp(AddCase c, std::vector<int8_t> a, std::vector<int8_t> b, std::vector<int8_t>* got) {
  got->assign(size_t(count_of(c.out_shape)), int8_t{0x55});
  const DLTensor ta = tensor_of(c.a_shape, a.data()), tb = tensor_of(c.b_shape, b.data());
  DLTensor ty = tensor_of(c.out_shape, got->data());
  return dsp::add_s8(&ta, &tb, &ty, c.p, c.act_min, c.act_max);
}

// Whether add_dsp.h's preconditions on the parameters hold (written out from its comment).
bool parameters_accepted(const TwoInputRescaling& p) {
  if (p.left_shift < 15 || p.left_shift > 21 || p.a_shift > 0 || p.b_shift > 0 || p.out_shift > -1) return false;
  const int e = -p.out_shift;
  const int64_t constant = (int64_t{1} << (e - 1)) + int64_t{p.out_offset} * (int64_t{1} << e);
  return constant > -(int64_t{1} << 30) && constant < (int64_t{1} << 30);
}

int32_t pick(std::mt19937& engine, std::initializer_list<int32_t> extremes, int32_t lo, int32_t hi) {
  if (engine() % 3 == 0) return *(extremes.begin() + engine() % extremes.size());
  return lo + int32_t(engine() % uint32_t(int64_t{hi} - lo + 1));
}

TwoInputRescaling random_parameters(std::mt19937& engine) {
  TwoInputRescaling p;
  p.left_shift = engine() % 5 == 0 ? int(engine() % 24) : pick(engine, {15, 20, 21}, 15, 21);
  p.a_offset = pick(engine, {-127, 128, 0}, -127, 128);
  p.b_offset = pick(engine, {-127, 128, 0}, -127, 128);
  p.a_multiplier = pick(engine, {0, 1, INT32_MAX, 1 << 30}, 0, INT32_MAX);
  p.b_multiplier = pick(engine, {0, 1, INT32_MAX, 1 << 30}, 0, INT32_MAX);
  p.a_shift = pick(engine, {-1, -31, 0}, -31, -1);
  p.b_shift = pick(engine, {-1, -31, 0}, -31, -1);
  p.out_offset = pick(engine, {-128, 127, 0}, -128, 127);
  p.out_multiplier = pick(engine, {0, 1, INT32_MAX, 1 << 30}, 0, INT32_MAX);
  // TFLM's output shifts for int8 add are near -left_shift; the whole range besides.
  p.out_shift = engine() % 2 == 0 ? -(p.left_shift - 2 + int(engine() % 4)) : pick(engine, {-1, -23, -31, 0}, -31, -1);
  if (p.out_shift > 0) p.out_shift = -1;
  return p;
}

std::vector<int8_t> random_values(std::mt19937& engine, int64_t n) {
  std::vector<int8_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = engine() % 8 == 0 ? (engine() % 2 ? int8_t{-128} : int8_t{127}) : int8_t(int(engine() % 256u) - 128);
  return v;
}

std::string describe(const AddCase& c) {
  const TwoInputRescaling& p = c.p;
  return "left " + std::to_string(p.left_shift) + " a(" + std::to_string(p.a_offset) + ", " +
         std::to_string(p.a_multiplier) + ", " + std::to_string(p.a_shift) + ") b(" + std::to_string(p.b_offset) + ", " +
         std::to_string(p.b_multiplier) + ", " + std::to_string(p.b_shift) + ") out(" + std::to_string(p.out_offset) +
         ", " + std::to_string(p.out_multiplier) + ", " + std::to_string(p.out_shift) + ") clamp [" +
         std::to_string(c.act_min) + ", " + std::to_string(c.act_max) + "] elements " +
         std::to_string(count_of(c.out_shape));
}

TEST(AddDsp, MatchesThePortableKernelOnRandomShapesAndParameters) {
  std::mt19937 engine(13);
  int accepted = 0;
  const int kCases = 400;
  for (int i = 0; i < kCases; ++i) {
    AddCase c;
    c.out_shape = {1 + int64_t(engine() % 3), 1 + int64_t(engine() % 6), 1 + int64_t(engine() % 11)};
    c.a_shape = c.out_shape;
    c.b_shape = c.out_shape;
    switch (engine() % 4) {
      case 0: c.b_shape = {1}; break;           // a scalar second input
      case 1: c.a_shape = {1, 1, 1}; break;     // a scalar first input
      default: break;
    }
    c.p = random_parameters(engine);
    switch (engine() % 3) {
      case 0: break;
      case 1: c.act_min = c.p.out_offset; break;  // a fused ReLU
      default:
        c.act_min = -100 + int32_t(engine() % 50);
        c.act_max = c.act_min + int32_t(engine() % 120);
        break;
    }
    const std::vector<int8_t> a = random_values(engine, count_of(c.a_shape));
    const std::vector<int8_t> b = random_values(engine, count_of(c.b_shape));
    std::vector<int8_t> got;
    const bool ran = run_dsp(c, a, b, &got);
    ASSERT_EQ(ran, parameters_accepted(c.p)) << "case " << i << ": " << describe(c);
    if (!ran) {
      EXPECT_EQ(got, std::vector<int8_t>(got.size(), 0x55)) << "case " << i << " declined but wrote";
      continue;
    }
    ++accepted;
    EXPECT_EQ(got, run_portable(c, a, b)) << "case " << i << ": " << describe(c);
  }
  EXPECT_GT(accepted, kCases / 2);
}

// Every pair of int8 inputs, with TFLM's left shift, the widest offsets and the largest
// multipliers at shift -1, where the scaled sum is largest.
TEST(AddDsp, MatchesThePortableKernelOnEveryInputPairAtTheExtremes) {
  std::vector<int8_t> a, b;
  for (int i = -128; i <= 127; ++i) {
    for (int j = -128; j <= 127; ++j) {
      a.push_back(int8_t(i));
      b.push_back(int8_t(j));
    }
  }
  const int64_t n = int64_t(a.size());
  for (int left_shift : {15, 20, 21}) {
    for (int32_t offset : {-127, 128}) {
      AddCase c;
      c.a_shape = c.b_shape = c.out_shape = {n - 3};  // not a multiple of 4
      c.p = {left_shift, offset, INT32_MAX, -1, offset, INT32_MAX, -1, -5, INT32_MAX, -1};
      std::vector<int8_t> got;
      ASSERT_TRUE(run_dsp(c, {a.begin(), a.end() - 3}, {b.begin(), b.end() - 3}, &got)) << describe(c);
      EXPECT_EQ(got, run_portable(c, {a.begin(), a.end() - 3}, {b.begin(), b.end() - 3})) << describe(c);
      c.p.out_shift = -(left_shift - 1);  // TFLM's scale
      c.p.out_multiplier = 1518500250;
      c.p.a_multiplier = 1073741824;
      c.p.a_shift = -2;
      c.act_min = c.p.out_offset;
      ASSERT_TRUE(run_dsp(c, {a.begin(), a.end() - 3}, {b.begin(), b.end() - 3}, &got)) << describe(c);
      EXPECT_EQ(got, run_portable(c, {a.begin(), a.end() - 3}, {b.begin(), b.end() - 3})) << describe(c);
    }
  }
}

// Multipliers of 1/2 and shifts near the left shift put many scaled values exactly halfway
// between two integers, where rounding away from zero differs for negative values.
TEST(AddDsp, RoundsHalfwayValuesAsThePortableKernel) {
  std::vector<int8_t> a, b;
  for (int i = -128; i <= 127; ++i) {
    for (int j = -128; j <= 127; j += 3) {
      a.push_back(int8_t(i));
      b.push_back(int8_t(j));
    }
  }
  const int64_t n = int64_t(a.size());
  for (int left_shift : {15, 20}) {
    for (int e : {0, 1, left_shift - 2, left_shift - 1, left_shift, left_shift + 1, left_shift + 2}) {
      for (int out_shift : {-1, -2, -(left_shift - 1)}) {
        AddCase c;
        c.a_shape = c.b_shape = c.out_shape = {n};
        std::vector<int8_t> got;
        for (int b_shift : {-(e + 1), 0}) {
          c.p = {left_shift, 0, 1 << 30, -e, 1, 1 << 30, b_shift, 0, 1 << 30, out_shift};
          ASSERT_TRUE(run_dsp(c, a, b, &got)) << describe(c);
          EXPECT_EQ(got, run_portable(c, a, b)) << describe(c);
        }
      }
    }
  }
}

// ResNet-8's three residual adds (the importer's parameters), at their sizes.
TEST(AddDsp, MatchesThePortableKernelOnResNet8sAdds) {
  std::mt19937 engine(8);
  const TwoInputRescaling adds[] = {{20, 128, 1623821475, -2, -4, 1073741824, 0, -128, 1098017566, -17},
                                    {20, 17, 1699529983, -2, -4, 1073741824, 0, -128, 1140768826, -17},
                                    {20, -38, 1657902019, -2, 2, 1073741824, 0, -128, 1835721671, -18}};
  const int64_t sides[] = {32, 16, 8}, channels[] = {16, 32, 64};
  for (int i = 0; i < 3; ++i) {
    AddCase c;
    c.a_shape = c.b_shape = c.out_shape = {1, sides[i], sides[i], channels[i]};
    c.p = adds[i];
    const std::vector<int8_t> a = random_values(engine, count_of(c.a_shape)), b = random_values(engine, count_of(c.b_shape));
    std::vector<int8_t> got;
    ASSERT_TRUE(run_dsp(c, a, b, &got));
    EXPECT_EQ(got, run_portable(c, a, b)) << describe(c);
    std::swap(c.p.a_multiplier, c.p.b_multiplier);  // the unshifted input first
    std::swap(c.p.a_shift, c.p.b_shift);
    ASSERT_TRUE(run_dsp(c, a, b, &got));
    EXPECT_EQ(got, run_portable(c, a, b)) << describe(c);
  }
}

TEST(AddDsp, DeclinesOtherBroadcastFormsWithoutWriting) {
  const TwoInputRescaling p{20, 3, 1 << 30, -1, -7, 1 << 30, -2, 4, 1 << 30, -19};
  const std::vector<AddCase> cases = {
      {{5}, {3, 5}, {3, 5}, p},          // a row repeated
      {{3, 1}, {3, 5}, {3, 5}, p},       // a column repeated
      {{3, 1}, {1, 5}, {3, 5}, p},       // both broadcast
      {{2, 1, 4}, {2, 3, 4}, {2, 3, 4}, p},
  };
  for (const AddCase& c : cases) {
    std::vector<int8_t> got;
    EXPECT_FALSE(run_dsp(c, std::vector<int8_t>(size_t(count_of(c.a_shape)), 1),
                         std::vector<int8_t>(size_t(count_of(c.b_shape)), 2), &got));
    EXPECT_EQ(got, std::vector<int8_t>(got.size(), 0x55));
  }
}

}  // namespace
}  // namespace grt::test
