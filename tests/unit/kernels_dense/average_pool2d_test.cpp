// average_pool2d_s8 / average_pool2d_f32: windows, padding, rounding, clamps, refusals.
#include <gtest/gtest.h>

#include "dense_harness.h"

namespace grt::test::dense {
namespace {

struct Pool {
  std::vector<int64_t> in_shape{1, 3, 3, 1};
  std::vector<int64_t> out_shape{1, 2, 2, 1};
  int64_t stride_h = 1, stride_w = 1, filter_h = 2, filter_w = 2, pad_top = 0, pad_left = 0;
  int64_t act_min = -128, act_max = 127;

  ModelDef model(DType dtype) const {
    OneNode m;
    const uint32_t x = m.input("x", dtype, in_shape);
    const uint32_t y = m.output("y", dtype, out_shape);
    std::vector<ArgDef> args = {ArgDef::input(x),          ArgDef::output(y),         ArgDef::integer(stride_h),
                                ArgDef::integer(stride_w), ArgDef::integer(filter_h), ArgDef::integer(filter_w),
                                ArgDef::integer(pad_top),  ArgDef::integer(pad_left)};
    if (dtype == DType::Int8) {
      args.push_back(ArgDef::integer(act_min));
      args.push_back(ArgDef::integer(act_max));
      m.node("average_pool2d_s8", args);
    } else {
      args.push_back(ArgDef::real(static_cast<double>(act_min)));
      args.push_back(ArgDef::real(static_cast<double>(act_max)));
      m.node("average_pool2d_f32", args);
    }
    return m.model;
  }
  std::vector<int8_t> run_s8(const std::vector<int8_t>& input) const {
    const Outcome o = plan_and_run(model(DType::Int8), {bytes_of(input)});
    EXPECT_EQ(o.run, GRT_OK) << o.message;
    return o.outputs.empty() ? std::vector<int8_t>{} : values_of<int8_t>(o.outputs[0]);
  }
  std::vector<float> run_f32(const std::vector<float>& input) const {
    const Outcome o = plan_and_run(model(DType::Float32), {bytes_of(input)});
    EXPECT_EQ(o.run, GRT_OK) << o.message;
    return o.outputs.empty() ? std::vector<float>{} : values_of<float>(o.outputs[0]);
  }
  std::string refusal(DType dtype = DType::Int8) const {
    const Outcome o = plan_and_run(model(dtype), {});
    EXPECT_EQ(o.init, GRT_ERR_KERNEL_ARGS) << o.message;
    return o.message;
  }
};

TEST(AveragePool2dS8, ValidWindows) {
  // 1 2 3 / 4 5 6 / 7 8 9 with 2x2 windows: 12/4, 16/4, 24/4, 28/4.
  EXPECT_EQ(Pool{}.run_s8({1, 2, 3, 4, 5, 6, 7, 8, 9}), (std::vector<int8_t>{3, 4, 6, 7}));
}

TEST(AveragePool2dS8, PaddedPositionsAreNotCounted) {
  Pool p;  // SAME padding of a 2x2 image with a 3x3 filter: one pixel of padding all round
  p.in_shape = {1, 2, 2, 1};
  p.filter_h = p.filter_w = 3;
  p.pad_top = p.pad_left = 1;
  // Every window holds the 4 pixels: 10 / 4 = 2.5 -> 3, and -2.5 -> -3.
  EXPECT_EQ(p.run_s8({1, 2, 3, 4}), (std::vector<int8_t>{3, 3, 3, 3}));
  EXPECT_EQ(p.run_s8({-1, -2, -3, -4}), (std::vector<int8_t>{-3, -3, -3, -3}));
}

TEST(AveragePool2dS8, RoundsHalfAwayFromZeroAndKeepsChannelsApart) {
  Pool p;
  p.in_shape = {1, 1, 2, 2};
  p.out_shape = {1, 1, 1, 2};
  p.filter_h = 1;
  // Channel 0: (1 + 2) / 2 = 1.5 -> 2; channel 1: (-1 - 2) / 2 = -1.5 -> -2.
  EXPECT_EQ(p.run_s8({1, -1, 2, -2}), (std::vector<int8_t>{2, -2}));
}

TEST(AveragePool2dS8, StridesBatchesAndTypeLimits) {
  Pool p;
  p.in_shape = {2, 2, 4, 1};
  p.out_shape = {2, 1, 2, 1};
  p.stride_w = 2;
  EXPECT_EQ(p.run_s8({127, 127, -128, -128, 127, 127, -128, -128, 0, 1, 2, 3, 4, 5, 6, 7}),
            (std::vector<int8_t>{127, -128, 3 /* 10/4 = 2.5 */, 5 /* 18/4 = 4.5 */}));
}

TEST(AveragePool2dS8, ClampsToTheActivationRange) {
  Pool p;
  p.act_min = 4;
  p.act_max = 6;
  EXPECT_EQ(p.run_s8({1, 2, 3, 4, 5, 6, 7, 8, 9}), (std::vector<int8_t>{4, 4, 6, 6}));
}

TEST(AveragePool2dS8, SinglePixel) {
  Pool p;
  p.in_shape = p.out_shape = {1, 1, 1, 1};
  p.filter_h = p.filter_w = 1;
  EXPECT_EQ(p.run_s8({-77}), (std::vector<int8_t>{-77}));
}

TEST(AveragePool2dS8, RefusesBadArguments) {
  {
    Pool p;
    p.pad_top = 2;  // as large as the filter: the first window would be empty
    EXPECT_NE(p.refusal().find("padding"), std::string::npos);
  }
  {
    Pool p;
    p.out_shape = {1, 4, 2, 1};  // the last rows' windows start below the image
    EXPECT_NE(p.refusal().find("last output row"), std::string::npos);
  }
  {
    Pool p;
    p.out_shape = {1, 2, 5, 1};
    EXPECT_NE(p.refusal().find("last output column"), std::string::npos);
  }
  {
    Pool p;
    p.out_shape = {1, 2, 2, 2};
    EXPECT_NE(p.refusal().find("channels"), std::string::npos);
  }
  {
    Pool p;
    p.stride_h = 0;
    EXPECT_NE(p.refusal().find("argument 2 is out of range"), std::string::npos);
  }
  {
    Pool p;
    p.filter_w = 0;
    EXPECT_NE(p.refusal().find("argument 5 is out of range"), std::string::npos);
  }
  {
    Pool p;
    p.pad_left = -1;
    EXPECT_NE(p.refusal().find("argument 7 is out of range"), std::string::npos);
  }
  {
    Pool p;
    p.act_min = 5;
    p.act_max = 4;
    EXPECT_NE(p.refusal().find("act_min"), std::string::npos);
  }
  {
    Pool p;
    p.in_shape = {1, 3, 3};
    EXPECT_NE(p.refusal().find("argument 0 has the wrong rank"), std::string::npos);
  }
}

TEST(AveragePool2dF32, AveragesAndClamps) {
  Pool p;
  EXPECT_EQ(p.run_f32({1, 2, 3, 4, 5, 6, 7, 8, 10}), (std::vector<float>{3.0f, 4.0f, 6.0f, 7.25f}));
  p.act_min = 0;
  p.act_max = 5;
  EXPECT_EQ(p.run_f32({-1, -2, -3, -4, 5, 6, 7, 8, 9}), (std::vector<float>{0.0f, 1.5f, 4.0f, 5.0f}));
}

TEST(AveragePool2dF32, PaddedPositionsAreNotCounted) {
  Pool p;
  p.in_shape = {1, 2, 2, 1};
  p.filter_h = p.filter_w = 3;
  p.pad_top = p.pad_left = 1;
  EXPECT_EQ(p.run_f32({1, 2, 3, 5}), (std::vector<float>{2.75f, 2.75f, 2.75f, 2.75f}));
}

TEST(AveragePool2dF32, RefusesBadArguments) {
  Pool p;
  p.pad_left = 3;
  EXPECT_NE(p.refusal(DType::Float32).find("padding"), std::string::npos);
}

}  // namespace
}  // namespace grt::test::dense
