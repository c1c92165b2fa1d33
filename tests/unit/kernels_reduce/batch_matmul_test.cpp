// BATCH_MATMUL through the converter: int8 with zero points, requantization and saturation,
// adj_x / adj_y read as strides, broadcast batch dimensions, constant operands, int16 with
// TFLM's 64-bit requantization, float32, what the converter refuses and what the kernel's
// check refuses.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "one_node.h"
#include "one_op_tflite.h"

namespace grt::test::reduce {
namespace {

using tflite::TensorType;

OneOp batch_matmul(Tensor x, Tensor y, Tensor z, bool adj_x = false, bool adj_y = false) {
  return OneOp{tflite::BuiltinOperator::BATCH_MATMUL,
               {std::move(x), std::move(y), std::move(z)},
               {0, 1},
               {2},
               {tflite::BuiltinOptions::BatchMatMulOptions, [adj_x, adj_y](flatbuffers::FlatBufferBuilder& fbb) {
                  return tflite::CreateBatchMatMulOptions(fbb, adj_x, adj_y).Union();
                }}};
}

// Centred X = [[1, 2], [3, 4]] (zero point -1) times centred Y = [[5, 6], [7, 8]] (zero
// point 2) is [[19, 22], [43, 50]]; scales 0.5 * 0.5 / out_scale.
std::vector<int8_t> int8_product(bool adj_x, bool adj_y, float out_scale, int64_t out_zero_point) {
  const std::vector<int8_t> x = adj_x ? std::vector<int8_t>{0, 2, 1, 3} : std::vector<int8_t>{0, 1, 2, 3};
  const std::vector<int8_t> y = adj_y ? std::vector<int8_t>{7, 9, 8, 10} : std::vector<int8_t>{7, 8, 9, 10};
  const OneOp model = batch_matmul({TensorType::INT8, {1, 2, 2}, 0.5f, -1}, {TensorType::INT8, {1, 2, 2}, 0.5f, 2},
                                   {TensorType::INT8, {1, 2, 2}, out_scale, out_zero_point}, adj_x, adj_y);
  const Imported r = import_and_run(model, {bytes_of(x), bytes_of(y)});
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"batch_matmul_s8"}));
  return r.outputs.empty() ? std::vector<int8_t>{} : values_of<int8_t>(r.outputs[0]);
}

TEST(BatchMatMulS8, MultipliesCentredOperandsWhateverTheirLayout) {
  const std::vector<int8_t> expected{19, 22, 43, 50};
  EXPECT_EQ(int8_product(false, false, 0.25f, 0), expected);
  EXPECT_EQ(int8_product(true, false, 0.25f, 0), expected);
  EXPECT_EQ(int8_product(false, true, 0.25f, 0), expected);
  EXPECT_EQ(int8_product(true, true, 0.25f, 0), expected);
}

TEST(BatchMatMulS8, RequantizesAndSaturates) {
  // Multiplier 2 plus zero point 30: 68, 74, 116, and 130 saturates to 127.
  EXPECT_EQ(int8_product(false, false, 0.125f, 30), (std::vector<int8_t>{68, 74, 116, 127}));
  // Multiplier 0.5: 9.5 -> 10, 11, 21.5 -> 22, 25.
  EXPECT_EQ(int8_product(false, false, 0.5f, 0), (std::vector<int8_t>{10, 11, 22, 25}));
}

TEST(BatchMatMulF32, BroadcastsBatchDimensionsBothWays) {
  // X [2, 1, 1, 2] against Y [1, 3, 2, 1]: out [2, 3, 1, 1], out[a][b] = X[a] . Y[b].
  const OneOp model = batch_matmul({TensorType::FLOAT32, {2, 1, 1, 2}}, {TensorType::FLOAT32, {1, 3, 2, 1}},
                                   {TensorType::FLOAT32, {2, 3, 1, 1}});
  const Imported r =
      import_and_run(model, {bytes_of(std::vector<float>{1, 2, 3, 4}), bytes_of(std::vector<float>{1, 0, 0, 1, 1, 1})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"batch_matmul_f32"}));
  EXPECT_EQ(values_of<float>(r.outputs.at(0)), (std::vector<float>{1, 2, 3, 3, 4, 7}));
}

TEST(BatchMatMulF32, AConstantRankTwoRhsServesEveryBatch) {
  Tensor y{TensorType::FLOAT32, {2, 1}, 0.0f, 0, bytes_of(std::vector<float>{10, 100})};
  const OneOp model = batch_matmul({TensorType::FLOAT32, {2, 2, 1}}, std::move(y), {TensorType::FLOAT32, {2, 1, 1}},
                                   /*adj_x=*/true);
  // adj_x: X[b] is stored [2, 1] and used as [1, 2].
  const Imported r = import_and_run(model, {bytes_of(std::vector<float>{1, 2, 3, 4})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(values_of<float>(r.outputs.at(0)), (std::vector<float>{210, 430}));
}

TEST(BatchMatMulS16, RequantizesWithTheSixtyFourBitPathRoundingHalfUp) {
  // Scales 2^-10 * 2^-10 / 2^-8 = 2^-12: products of +-2048 are +-0.5, which the reduced
  // 16-bit multiplier path rounds up (1 and 0), unlike the int8 path; -2^20 -> -256.
  const OneOp model = batch_matmul({TensorType::INT16, {3, 1}, 1.0f / 1024, 0}, {TensorType::INT16, {1, 1}, 1.0f / 1024, 0},
                                   {TensorType::INT16, {3, 1}, 1.0f / 256, 0});
  const Imported r =
      import_and_run(model, {bytes_of(std::vector<int16_t>{1, -1, -512}), bytes_of(std::vector<int16_t>{2048})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.kernels, (std::vector<std::string>{"batch_matmul_s16"}));
  EXPECT_EQ(values_of<int16_t>(r.outputs.at(0)), (std::vector<int16_t>{1, 0, -256}));
}

TEST(BatchMatMulImport, RefusesWhatTflmRefuses) {
  const auto error = [](const OneOp& m) { return import_and_run(m, {}).error; };
  EXPECT_NE(error(batch_matmul({TensorType::FLOAT32, {2}}, {TensorType::FLOAT32, {2, 1}}, {TensorType::FLOAT32, {1}}))
                .find("rank 2 to 5"),
            std::string::npos);
  EXPECT_NE(error(batch_matmul({TensorType::FLOAT32, {2, 3}}, {TensorType::FLOAT32, {2, 1}}, {TensorType::FLOAT32, {2, 1}}))
                .find("X has depth 3, Y has 2"),
            std::string::npos);
  EXPECT_NE(error(batch_matmul({TensorType::FLOAT32, {2, 1, 1}}, {TensorType::FLOAT32, {3, 1, 1}},
                               {TensorType::FLOAT32, {3, 1, 1}}))
                .find("does not broadcast"),
            std::string::npos);
  EXPECT_NE(error(batch_matmul({TensorType::INT16, {1, 1}, 0.5f, 1}, {TensorType::INT16, {1, 1}, 0.5f, 0},
                               {TensorType::INT16, {1, 1}, 0.5f, 0}))
                .find("zero point 0"),
            std::string::npos);
  EXPECT_NE(error(batch_matmul({TensorType::FLOAT32, {1, 1}}, {TensorType::INT8, {1, 1}, 0.5f, 0}, {TensorType::FLOAT32, {1, 1}}))
                .find("types differ"),
            std::string::npos);
  EXPECT_NE(error(batch_matmul({TensorType::FLOAT32, {2, 2}}, {TensorType::FLOAT32, {2, 2}}, {TensorType::FLOAT32, {2}}))
                .find("product gives 4"),
            std::string::npos);
}

TEST(BatchMatMulCheck, RefusesLayoutsThatReachPastTheOperands) {
  const auto refused = [](std::vector<int32_t> matrix, std::vector<int32_t> batches) {
    OneNode m;
    const uint32_t x = m.input(tools::DType::Float32, {2, 2, 3});
    const uint32_t y = m.input(tools::DType::Float32, {3, 4});
    const uint32_t z = m.output(tools::DType::Float32, {2, 2, 4});
    m.node("batch_matmul_f32", {tools::ArgDef::input(x), tools::ArgDef::input(y), tools::ArgDef::output(z),
                                tools::ArgDef::int_array(m.ints(matrix)), tools::ArgDef::int_array(m.ints(batches))});
    return refusal(m);
  };
  EXPECT_EQ(refused({2, 4, 3, 3, 1, 4, 1}, {2, 6, 0}), "");
  EXPECT_NE(refused({2, 4, 3, 3, 1, 4, 1}, {2, 7, 0}).find("reaches past an operand"), std::string::npos);
  EXPECT_NE(refused({2, 4, 3, 3, 1, 4, 2}, {2, 6, 0}).find("reaches past an operand"), std::string::npos);
  EXPECT_NE(refused({2, 4, 3, 3, 1, 4, 1}, {}).find("batches * rows * cols"), std::string::npos);
  EXPECT_NE(refused({2, 4, 3, 3, 1, 4}, {2, 6, 0}).find("7 constants"), std::string::npos);
  EXPECT_NE(refused({2, 4, 3, 3, -1, 4, 1}, {2, 6, 0}).find("must not be negative"), std::string::npos);
}

}  // namespace
}  // namespace grt::test::reduce
