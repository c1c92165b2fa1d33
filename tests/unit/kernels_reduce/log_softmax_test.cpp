// LOG_SOFTMAX: the int8 fixed-point path (TFLM's LogSoftmaxQuantized with its parameters from
// PreprocessLogSoftmaxScalingExp), float32, the converter's refusals and the kernel's checks.
// int8 expectations were worked through TFLM's integer arithmetic; each is within one step
// of the exact log-softmax (output scale 1/16, zero point 127).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "one_node.h"
#include "one_op_tflite.h"

namespace grt::test::reduce {
namespace {

using tflite::TensorType;

OneOp log_softmax(Tensor x, Tensor y) {
  return OneOp{tflite::BuiltinOperator::LOG_SOFTMAX, {std::move(x), std::move(y)}, {0}, {1}, {}};
}

OneOp int8_log_softmax(std::vector<int32_t> shape, float input_scale = 0.1f) {
  return log_softmax({TensorType::INT8, shape, input_scale, -10}, {TensorType::INT8, shape, 16.0f / 256, 127});
}

std::vector<int8_t> run_int8(const std::vector<int8_t>& x, std::vector<int32_t> shape) {
  const Imported r = import_and_run(int8_log_softmax(std::move(shape)), {bytes_of(x)});
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"log_softmax_s8"}));
  return r.outputs.empty() ? std::vector<int8_t>{} : values_of<int8_t>(r.outputs[0]);
}

TEST(LogSoftmaxS8, EqualValuesShareTheProbability) {
  // log(1/4) = -1.386 = -22.2 steps of 1/16 below 127; the zero point cancels out.
  EXPECT_EQ(run_int8({0, 0, 0, 0, 7, 7, 7, 7}, {2, 4}), (std::vector<int8_t>{105, 105, 105, 105, 105, 105, 105, 105}));
}

TEST(LogSoftmaxS8, FarValuesDropToTheLowestOutput) {
  // Scale 0.1: differences of -255 (-25.5) lie beyond diff_min (-248) and give -128; -117
  // (-11.7) gives 127 - 187.2 -> -60; the maximum gives log(1) -> 127.
  EXPECT_EQ(run_int8({127, -128, -128, 10}, {1, 4}), (std::vector<int8_t>{127, -128, -128, -60}));
  // A single element is certain.
  EXPECT_EQ(run_int8({5}, {1}), (std::vector<int8_t>{127}));
}

TEST(LogSoftmaxS8, StepsFollowTheInputScale) {
  // Differences of 1.0 are 16 output steps apart: log-softmax of (2, 1, 0, -1) is
  // (-0.44, -1.44, -2.44, -3.44) -> 127 - (7, 23, 39, 55).
  EXPECT_EQ(run_int8({20, 10, 0, -10}, {1, 4}), (std::vector<int8_t>{120, 104, 88, 72}));
}

TEST(LogSoftmaxF32, SubtractsTheLogOfTheSumOfExponentials) {
  const OneOp model = log_softmax({TensorType::FLOAT32, {2, 2}}, {TensorType::FLOAT32, {2, 2}});
  const Imported r = import_and_run(model, {bytes_of(std::vector<float>{1.0f, 1.0f, 0.0f, 100.0f})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"log_softmax_f32"}));
  const std::vector<float> y = values_of<float>(r.outputs.at(0));
  EXPECT_FLOAT_EQ(y.at(0), -std::log(2.0f));
  EXPECT_FLOAT_EQ(y.at(1), -std::log(2.0f));
  EXPECT_FLOAT_EQ(y.at(2), -100.0f);  // exp(-100) vanishes next to exp(0)
  EXPECT_FLOAT_EQ(y.at(3), 0.0f);
}

TEST(LogSoftmaxImport, RefusesOutputsTflmDoesNotProduce) {
  const auto error = [](const OneOp& m) { return import_and_run(m, {}).error; };
  OneOp model = int8_log_softmax({1, 4});
  model.tensors[1].zero_point = 0;
  EXPECT_NE(error(model).find("scale 16/256 and zero point 127"), std::string::npos);
  model = int8_log_softmax({1, 4}, 1e-9f);  // beta * scale * 2^26 <= 1
  EXPECT_NE(error(model).find("too small"), std::string::npos);
  EXPECT_NE(error(log_softmax({TensorType::INT16, {4}, 0.5f, 0}, {TensorType::INT16, {4}, 0.5f, 0})).find("int8 and float32"),
            std::string::npos);
  EXPECT_NE(error(log_softmax({TensorType::FLOAT32, {4}}, {TensorType::FLOAT32, {2, 2}})).find("input's shape"),
            std::string::npos);
}

TEST(LogSoftmaxCheck, RefusesBadParameters) {
  const auto refused = [](std::vector<int64_t> params, std::vector<int64_t> out_shape = {2, 3}) {
    OneNode m;
    const uint32_t x = m.input(tools::DType::Int8, {2, 3});
    const uint32_t y = m.output(tools::DType::Int8, std::move(out_shape));
    std::vector<tools::ArgDef> args = {tools::ArgDef::input(x), tools::ArgDef::output(y)};
    for (const int64_t p : params) args.push_back(tools::ArgDef::integer(p));
    m.node("log_softmax_s8", std::move(args));
    return refusal(m);
  };
  const std::vector<int64_t> good = {1717986944, 23, 1342177260, -22, -248};
  EXPECT_EQ(refused(good), "");
  EXPECT_NE(refused(good, {3, 2}).find("input's shape"), std::string::npos);
  std::vector<int64_t> bad = good;
  bad[1] = 32;
  EXPECT_NE(refused(bad).find("argument 3 is out of range"), std::string::npos);
  bad = good;
  bad[3] = 1;
  EXPECT_NE(refused(bad).find("argument 5 is out of range"), std::string::npos);
  bad = good;
  bad[4] = 1;
  EXPECT_NE(refused(bad).find("argument 6 is out of range"), std::string::npos);
}

}  // namespace
}  // namespace grt::test::reduce
