// CUMSUM through the converter: inclusive / exclusive, forward / reversed, any axis, int32
// wrap-around, TFLM's int8 arithmetic (its running sum starts at the negative input zero
// point, so outputs are offset by it), refusals and the kernel's checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "one_node.h"
#include "one_op_tflite.h"

namespace grt::test::reduce {
namespace {

using tflite::TensorType;

OneOp cumsum(Tensor x, int32_t axis, bool exclusive, bool reverse, Tensor y) {
  const Tensor axis_tensor{TensorType::INT32, {1}, 0.0f, 0, bytes_of(std::vector<int32_t>{axis})};
  return OneOp{tflite::BuiltinOperator::CUMSUM,
               {std::move(x), axis_tensor, std::move(y)},
               {0, 1},
               {2},
               {tflite::BuiltinOptions::CumsumOptions, [exclusive, reverse](flatbuffers::FlatBufferBuilder& fbb) {
                  return tflite::CreateCumsumOptions(fbb, exclusive, reverse).Union();
                }}};
}

std::vector<float> float_cumsum(int32_t axis, bool exclusive, bool reverse) {
  const Tensor x{TensorType::FLOAT32, {2, 3}};
  const Imported r = import_and_run(cumsum(x, axis, exclusive, reverse, x), {bytes_of(std::vector<float>{1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"cumsum_f32"}));
  return r.outputs.empty() ? std::vector<float>{} : values_of<float>(r.outputs[0]);
}

TEST(CumsumF32, InclusiveExclusiveForwardAndReversed) {
  // Rows (1, 2, 3) and (4, 5, 6) along axis 1.
  EXPECT_EQ(float_cumsum(1, false, false), (std::vector<float>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(float_cumsum(1, true, false), (std::vector<float>{0, 1, 3, 0, 4, 9}));
  EXPECT_EQ(float_cumsum(1, false, true), (std::vector<float>{6, 5, 3, 15, 11, 6}));
  EXPECT_EQ(float_cumsum(1, true, true), (std::vector<float>{5, 3, 0, 11, 6, 0}));
  // Axis -2 is axis 0: down the columns.
  EXPECT_EQ(float_cumsum(-2, false, false), (std::vector<float>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(float_cumsum(0, true, true), (std::vector<float>{4, 5, 6, 0, 0, 0}));
}

TEST(CumsumS32, WrapsAround) {
  const Tensor x{TensorType::INT32, {3}};
  const Imported r = import_and_run(cumsum(x, 0, false, false, x),
                                    {bytes_of(std::vector<int32_t>{std::numeric_limits<int32_t>::max(), 1, -1})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"cumsum_s32"}));
  EXPECT_EQ(values_of<int32_t>(r.outputs.at(0)),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::max()}));
}

std::vector<int8_t> int8_cumsum(const std::vector<int8_t>& x, int64_t input_zero_point, bool exclusive) {
  // Scales 0.5 -> 0.5: the input multiplier is 0.5 (2^30, 0), the output one 2 * 0.5 /
  // (2^20 * 0.5) = 2^-19 (2^30, -18), so each centred value adds 2^19 and 2^19 reads as 1.
  const auto n = static_cast<int32_t>(x.size());
  const OneOp model = cumsum({TensorType::INT8, {n}, 0.5f, input_zero_point}, 0, exclusive, false,
                             {TensorType::INT8, {n}, 0.5f, 0});
  const Imported r = import_and_run(model, {bytes_of(x)});
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"cumsum_s8"}));
  return r.outputs.empty() ? std::vector<int8_t>{} : values_of<int8_t>(r.outputs[0]);
}

TEST(CumsumS8, SumsRescaledValuesAndSaturates) {
  EXPECT_EQ(int8_cumsum({1, 2, 3, 100, -100}, 0, false), (std::vector<int8_t>{1, 3, 6, 106, 6}));
  EXPECT_EQ(int8_cumsum({100, 100, -128}, 0, false), (std::vector<int8_t>{100, 127, 72}));
  EXPECT_EQ(int8_cumsum({1, 2, 3}, 0, true), (std::vector<int8_t>{0, 1, 3}));
}

TEST(CumsumS8, TheRunningSumStartsAtTheNegativeZeroPointAsInTflm) {
  // Zero point 2: centred values (1, 2), but TFLM's sum starts at -2 (accumulator =
  // input offset, shifted and rescaled like a value), so the outputs are (-1, 1), not (1, 3).
  EXPECT_EQ(int8_cumsum({3, 4}, 2, false), (std::vector<int8_t>{-1, 1}));
  EXPECT_EQ(int8_cumsum({3, 4}, 2, true), (std::vector<int8_t>{-2, -1}));
}

TEST(CumsumImport, RefusesWhatItCannotRun) {
  const auto error = [](const OneOp& m) { return import_and_run(m, {}).error; };
  const Tensor x{TensorType::FLOAT32, {2, 3}};
  EXPECT_NE(error(cumsum(x, 2, false, false, x)).find("out of range"), std::string::npos);
  EXPECT_NE(error(cumsum(x, 0, false, false, {TensorType::FLOAT32, {3, 2}})).find("input's shape"), std::string::npos);
  const Tensor h{TensorType::INT16, {4}, 0.5f, 0};
  EXPECT_NE(error(cumsum(h, 0, false, false, h)).find("float32, int32 and int8"), std::string::npos);
  OneOp computed = cumsum(x, 0, false, false, x);
  computed.tensors[1].data.clear();
  EXPECT_NE(error(computed).find("constant int32"), std::string::npos);
  // An output scale so fine that the output multiplier is not below 1.
  EXPECT_NE(error(cumsum({TensorType::INT8, {4}, 0.5f, 0}, 0, false, false, {TensorType::INT8, {4}, 1e-9f, 0}))
                .find("out of range"),
            std::string::npos);
}

TEST(CumsumCheck, RefusesLinesThatDoNotCoverTheTensor) {
  const auto refused = [](std::vector<int64_t> lines) {
    OneNode m;
    const uint32_t x = m.input(tools::DType::Float32, {2, 3});
    const uint32_t y = m.output(tools::DType::Float32, {2, 3});
    std::vector<tools::ArgDef> args = {tools::ArgDef::input(x), tools::ArgDef::output(y)};
    for (const int64_t v : lines) args.push_back(tools::ArgDef::integer(v));
    m.node("cumsum_f32", std::move(args));
    return refusal(m);
  };
  EXPECT_EQ(refused({2, 3, 1, 0, 1}), "");
  EXPECT_NE(refused({2, 3, 2, 0, 1}).find("outer * depth * inner"), std::string::npos);
  EXPECT_NE(refused({2, 3, 1, 2, 0}).find("argument 5 is out of range"), std::string::npos);
  EXPECT_NE(refused({2, 3, 1, 0}).find("wrong number of arguments"), std::string::npos);
}

}  // namespace
}  // namespace grt::test::reduce
