// average_pool2d_s8's Cortex-M DSP path (kernels/src/dense/average_pool_dsp.h) on the host,
// each DSP instruction emulated in C (GRT_DSP_EMULATE), against the portable kernel run
// through a one-node model: windows clipped by padding, strides, channel counts around 4,
// batches, windows at the 256-position limit of the 16-bit lanes (all -128: the extreme
// sum), narrowed clamps; larger filters are declined without writing.
#define GRT_DSP_EMULATE 1

#include <gtest/gtest.h>

#include <random>

#include "dense/average_pool_dsp.h"
#include "dense_harness.h"

namespace grt::test::dense {
namespace {

namespace dsp = grt::kernels::dsp;

struct PoolCase {
  kernels::pool::Pool2d p;
  int32_t act_min = -128, act_max = 127;
};

std::vector<int8_t> run_portable(const PoolCase& c, const std::vector<int8_t>& input) {
  const kernels::pool::Pool2d& p = c.p;
  OneNode m;
  const uint32_t x = m.input("x", DType::Int8, {p.batches, p.in_h, p.in_w, p.channels});
  const uint32_t y = m.output("y", DType::Int8, {p.batches, p.out_h, p.out_w, p.channels});
  m.node("average_pool2d_s8", {ArgDef::input(x), ArgDef::output(y), ArgDef::integer(p.stride_h),
                               ArgDef::integer(p.stride_w), ArgDef::integer(p.filter_h), ArgDef::integer(p.filter_w),
                               ArgDef::integer(p.pad_top), ArgDef::integer(p.pad_left), ArgDef::integer(c.act_min),
                               ArgDef::integer(c.act_max)});
  const Outcome o = plan_and_run(m.model, {bytes_of(input)});
  EXPECT_EQ(o.run, GRT_OK) << o.message;
  return o.outputs.empty() ? std::vector<int8_t>{} : values_of<int8_t>(o.outputs[0]);
}

// Output size with `pad` before and after (TFLM's SAME-like padding), at least 1.
int out_size(int size, int filter, int stride, int pad) {
  const int out = (size + 2 * pad - filter) / stride + 1;
  return out < 1 ? 1 : out;
}

PoolCase make(int batches, int h, int w, int channels, int fh, int fw, int stride, int pad_top, int pad_left) {
  PoolCase c;
  c.p = {batches, h, w, channels, out_size(h, fh, stride, pad_top), out_size(w, fw, stride, pad_left),
         stride, stride, fh, fw, pad_top, pad_left};
  return c;
}

TEST(AveragePoolDsp, MatchesThePortableKernelOnRandomWindows) {
  std::mt19937 engine(31);
  std::vector<PoolCase> cases = {
      make(1, 25, 5, 64, 25, 5, 1, 0, 0),  // KWS: one window over the image
      make(1, 16, 16, 7, 16, 16, 1, 0, 0),  // 256 positions, the lanes' limit
      make(2, 3, 3, 9, 2, 2, 1, 1, 1),
  };
  for (int i = 0; i < 120; ++i) {
    const int fh = 1 + int(engine() % 5), fw = 1 + int(engine() % 5);
    cases.push_back(make(1 + int(engine() % 2), 1 + int(engine() % 9), 1 + int(engine() % 9), 1 + int(engine() % 19),
                         fh, fw, 1 + int(engine() % 3), int(engine() % unsigned(fh)), int(engine() % unsigned(fw))));
    if (engine() % 4 == 0) {
      cases.back().act_min = -90;
      cases.back().act_max = 70;
    }
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    const PoolCase& c = cases[i];
    const kernels::pool::Pool2d& p = c.p;
    std::vector<int8_t> input(size_t(p.batches * p.in_h * p.in_w * p.channels));
    for (auto& v : input) v = int8_t(int(engine() % 256u) - 128);
    if (i == 1) std::fill(input.begin(), input.end(), int8_t{-128});  // the most negative sum
    const std::vector<int8_t> expected = run_portable(c, input);
    std::vector<int8_t> got(size_t(p.batches * p.out_h * p.out_w * p.channels), 0x55);
    ASSERT_TRUE(dsp::average_pool2d_s8(p, input.data(), got.data(), c.act_min, c.act_max));
    EXPECT_EQ(got, expected) << "case " << i << " input " << p.batches << "x" << p.in_h << "x" << p.in_w << "x"
                             << p.channels << " filter " << p.filter_h << "x" << p.filter_w;
  }
}

TEST(AveragePoolDsp, DeclinesWindowsAboveTheLanesLimitWithoutWriting) {
  for (const PoolCase& c : {make(1, 17, 16, 4, 17, 16, 1, 0, 0), make(1, 300, 1, 4, 300, 1, 1, 0, 0)}) {
    const kernels::pool::Pool2d& p = c.p;
    const std::vector<int8_t> input(size_t(p.in_h * p.in_w * p.channels), 1);
    std::vector<int8_t> got(size_t(p.out_h * p.out_w * p.channels), 0x55);
    EXPECT_FALSE(dsp::average_pool2d_s8(p, input.data(), got.data(), -128, 127));
    EXPECT_EQ(got, std::vector<int8_t>(got.size(), 0x55));
  }
}

}  // namespace
}  // namespace grt::test::dense
