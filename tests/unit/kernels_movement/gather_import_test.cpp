// The GATHER, EMBEDDING_LOOKUP and GATHER_ND converters: options resolved as TFLM does,
// constant indices checked at import, and the dtypes TFLM refuses refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "one_op_tflite.h"

namespace grt::test {
namespace {

using tflite::BuiltinOperator;
using tflite::BuiltinOptions;
using tflite::TensorType;

// x (float [2, 3] = 0..5) gathered by `indices` (a constant when given values).
OneOp gather(OpTensor indices, std::vector<int32_t> out_shape, int32_t axis, int32_t batch_dims,
             TensorType type = TensorType::FLOAT32) {
  OneOp m;
  m.op = BuiltinOperator::GATHER;
  const int32_t x = m.add({.type = type, .shape = {2, 3}});
  m.inputs = {x, m.add(std::move(indices))};
  m.outputs = {m.add({.type = type, .shape = std::move(out_shape)})};
  m.options_type = BuiltinOptions::GatherOptions;
  m.options = [=](flatbuffers::FlatBufferBuilder& fbb) { return tflite::CreateGatherOptions(fbb, axis, batch_dims).Union(); };
  return m;
}

OpTensor int32_constant(std::vector<int32_t> shape, const std::vector<int32_t>& values) {
  return {.type = TensorType::INT32, .shape = std::move(shape), .data = bytes_of(values)};
}

const std::vector<float> kX = {0, 1, 2, 3, 4, 5};

TEST(GatherImport, ConstantIndicesAlongTheLastAxis) {
  const auto out = run_op<float>(gather(int32_constant({2}, {2, 0}), {2, 2}, -1, 0), std::vector<std::vector<float>>{kX});
  EXPECT_EQ(out, (std::vector<std::vector<float>>{{2, 0, 5, 3}}));
}

TEST(GatherImport, NegativeBatchDimsCountFromTheIndicesRank) {
  // indices [2, 1] = {{2}, {0}}, batch_dims -1 -> 1: row 0 takes x[0, 2], row 1 x[1, 0].
  const auto out = run_op<float>(gather(int32_constant({2, 1}, {2, 0}), {2, 1}, 1, -1), std::vector<std::vector<float>>{kX});
  EXPECT_EQ(out, (std::vector<std::vector<float>>{{2, 3}}));
}

TEST(GatherImport, RunTimeIndicesAreTheKernelsToCheck) {
  OneOp m = gather({.type = TensorType::INT32, .shape = {3}}, {3, 3}, 0, 0);
  const ImportedOp imported = import_op(m);
  ASSERT_EQ(imported.error, "");
  ASSERT_EQ(imported.loaded->status(), GRT_OK) << imported.loaded->message();
  imported.loaded->set_input(0, kX);
  imported.loaded->set_input(1, std::vector<int32_t>{1, 0, 1});
  ASSERT_EQ(imported.loaded->run(), GRT_OK);
  EXPECT_EQ(imported.loaded->output<float>(0), (std::vector<float>{3, 4, 5, 0, 1, 2, 3, 4, 5}));
  imported.loaded->set_input(1, std::vector<int32_t>{1, 2, 0});
  EXPECT_NE(imported.loaded->run(), GRT_OK);
}

TEST(GatherImport, RefusesWhatTflmRefuses) {
  EXPECT_NE(import_error(gather(int32_constant({1}, {3}), {1, 3}, 0, 0)).find("outside [0, 2)"), std::string::npos);
  EXPECT_NE(import_error(gather({.type = TensorType::INT64, .shape = {1}}, {2, 1}, 1, 0)).find("indices type int64"),
            std::string::npos);
  EXPECT_NE(import_error(gather(int32_constant({1}, {0}), {2, 1}, 1, 0, TensorType::INT16)).find("int16 is not supported"),
            std::string::npos);
  EXPECT_NE(import_error(gather(int32_constant({2, 1}, {0, 0}), {2, 1}, 0, 1)).find("batch_dims"), std::string::npos);
  EXPECT_NE(import_error(gather(int32_constant({1}, {0}), {2, 2}, 1, 0)).find("gathered shape"), std::string::npos);
}

// value [3, 2] (a constant) looked up by run-time rows.
OneOp embedding_lookup(OpTensor value, TensorType out_type) {
  OneOp m;
  m.op = BuiltinOperator::EMBEDDING_LOOKUP;
  const int32_t lookup = m.add({.type = TensorType::INT32, .shape = {2}});
  m.inputs = {lookup, m.add(std::move(value))};
  m.outputs = {m.add({.type = out_type, .shape = {2, 2}})};
  return m;
}

TEST(EmbeddingLookupImport, CopiesRows) {
  const OpTensor value{.type = TensorType::FLOAT32, .shape = {3, 2}, .data = bytes_of(std::vector<float>{0, 1, 2, 3, 4, 5})};
  const auto out = run_op<float>(embedding_lookup(value, TensorType::FLOAT32), std::vector<std::vector<int32_t>>{{2, 0}});
  EXPECT_EQ(out, (std::vector<std::vector<float>>{{4, 5, 0, 1}}));
}

TEST(EmbeddingLookupImport, Int8RowsReadAsFloatAreDequantized) {
  const OpTensor value{.type = TensorType::INT8, .shape = {3, 2}, .data = bytes_of(std::vector<int8_t>{0, 1, -128, 127, 4, 5}),
                       .scale = 0.5f};
  const auto out = run_op<float>(embedding_lookup(value, TensorType::FLOAT32), std::vector<std::vector<int32_t>>{{1, 1}});
  EXPECT_EQ(out, (std::vector<std::vector<float>>{{-64.0f, 63.5f, -64.0f, 63.5f}}));
  OpTensor shifted = value;
  shifted.zero_point = 1;
  EXPECT_NE(import_error(embedding_lookup(shifted, TensorType::FLOAT32)).find("zero point 0"), std::string::npos);
}

TEST(GatherNdImport, IndexTuplesPickElements) {
  OneOp m;
  m.op = BuiltinOperator::GATHER_ND;
  const int32_t params = m.add({.type = TensorType::FLOAT32, .shape = {2, 3}});
  m.inputs = {params, m.add(int32_constant({2, 2}, {1, 2, 0, 0}))};
  m.outputs = {m.add({.type = TensorType::FLOAT32, .shape = {2}})};
  EXPECT_EQ(run_op<float>(m, std::vector<std::vector<float>>{kX}), (std::vector<std::vector<float>>{{5, 0}}));
  OneOp deep = m;
  deep.tensors[1] = int32_constant({1, 3}, {0, 0, 0});
  deep.tensors[2].shape = {1};
  EXPECT_NE(import_error(deep).find("index depth"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
