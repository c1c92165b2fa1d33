// The gather and gather_nd kernels: TFLM's index arithmetic (axis, batch_dims, index depth),
// the run refusing indices outside the input, and the init checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

struct GatherRun {
  grt_status status = GRT_OK;
  std::string message;
  std::vector<int8_t> out;
};

// int8 X (0, 1, 2, ...) gathered by run-time int32 indices.
GatherRun gather(std::vector<int64_t> x_shape, std::vector<int64_t> index_shape, const std::vector<int32_t>& indices,
                 std::vector<int64_t> out_shape, int64_t axis, int64_t batch_dims) {
  OneNode m;
  int64_t n = 1;
  for (const int64_t d : x_shape) n *= d;
  const uint32_t x = m.input(DType::Int8, std::move(x_shape));
  const uint32_t i = m.input(DType::Int32, std::move(index_shape));
  const uint32_t y = m.output(DType::Int8, std::move(out_shape));
  m.node("gather", {ArgDef::input(x), ArgDef::input(i), ArgDef::output(y), ArgDef::integer(axis), ArgDef::integer(batch_dims)});
  Loaded loaded(m.def);
  GatherRun result;
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return result;
  std::vector<int8_t> values(static_cast<size_t>(n));
  std::iota(values.begin(), values.end(), int8_t{0});
  loaded.set_input(0, values);
  loaded.set_input(1, indices);
  result.status = loaded.run();
  if (result.status == GRT_OK) result.out = loaded.output<int8_t>(0);
  else result.message = loaded.run_message();
  return result;
}

TEST(Gather, PicksSlicesAlongTheAxis) {
  // X [2, 3, 2], indices {2, 0} along axis 1 -> Y[b, c, i] = X[b, indices[c], i]
  EXPECT_EQ(gather({2, 3, 2}, {2}, {2, 0}, {2, 2, 2}, 1, 0).out, (std::vector<int8_t>{4, 5, 0, 1, 10, 11, 6, 7}));
}

TEST(Gather, IndicesMayRepeatAndAddDimensions) {
  // X [3, 2] along axis 0 with indices [2, 2] {{2, 2}, {0, 1}} -> Y [2, 2, 2]
  EXPECT_EQ(gather({3, 2}, {2, 2}, {2, 2, 0, 1}, {2, 2, 2}, 0, 0).out, (std::vector<int8_t>{4, 5, 4, 5, 0, 1, 2, 3}));
}

TEST(Gather, BatchDimsGiveEachBatchItsOwnIndices) {
  // X [2, 3] = {{0, 1, 2}, {3, 4, 5}}, indices [2, 2] = {{2, 0}, {1, 1}}, batch_dims 1, axis 1
  EXPECT_EQ(gather({2, 3}, {2, 2}, {2, 0, 1, 1}, {2, 2}, 1, 1).out, (std::vector<int8_t>{2, 0, 4, 4}));
}

TEST(Gather, ARunTimeIndexOutsideTheAxisFailsTheRun) {
  const GatherRun past_end = gather({3, 2}, {2}, {1, 3}, {2, 2}, 0, 0);
  EXPECT_NE(past_end.status, GRT_OK);
  EXPECT_NE(past_end.message.find("out of range"), std::string::npos) << past_end.message;
  EXPECT_NE(gather({3, 2}, {1}, {-1}, {1, 2}, 0, 0).status, GRT_OK);
}

std::string gather_refusal(std::vector<int64_t> x_shape, std::vector<int64_t> index_shape, std::vector<int64_t> out_shape,
                           int64_t axis, int64_t batch_dims, DType index_type = DType::Int32) {
  OneNode m;
  const uint32_t x = m.input(DType::Float32, std::move(x_shape));
  const uint32_t i = m.input(index_type, std::move(index_shape));
  const uint32_t y = m.output(DType::Float32, std::move(out_shape));
  m.node("gather", {ArgDef::input(x), ArgDef::input(i), ArgDef::output(y), ArgDef::integer(axis), ArgDef::integer(batch_dims)});
  return refusal(m);
}

TEST(GatherCheck, RefusesWhatGatherCannotProduce) {
  EXPECT_EQ(gather_refusal({2, 3}, {2, 2}, {2, 2}, 1, 1), "");
  EXPECT_NE(gather_refusal({2, 3}, {4}, {2, 3}, 1, 0).find("gathered shape"), std::string::npos);
  EXPECT_NE(gather_refusal({2, 3}, {4}, {2, 4}, 2, 0).find("out of range"), std::string::npos);
  EXPECT_NE(gather_refusal({2, 3}, {2, 2}, {2, 2, 2}, 0, 1).find("out of range"), std::string::npos);  // batch_dims > axis
  EXPECT_NE(gather_refusal({2, 3}, {3, 2}, {2, 2}, 1, 1).find("batch dimension"), std::string::npos);
  EXPECT_NE(gather_refusal({2, 3}, {4}, {2, 4}, 1, 0, DType::Int64).find("dtype"), std::string::npos);
}

struct GatherNdRun {
  grt_status status = GRT_OK;
  std::vector<float> out;
};

// float params [2, 3] = 0..5, gathered by run-time int32 indices.
GatherNdRun gather_nd(std::vector<int64_t> index_shape, const std::vector<int32_t>& indices, std::vector<int64_t> out_shape) {
  OneNode m;
  const uint32_t p = m.input(DType::Float32, {2, 3});
  const uint32_t i = m.input(DType::Int32, std::move(index_shape));
  const uint32_t y = m.output(DType::Float32, std::move(out_shape));
  m.node("gather_nd", {ArgDef::input(p), ArgDef::input(i), ArgDef::output(y)});
  Loaded loaded(m.def);
  GatherNdRun result;
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return result;
  loaded.set_input(0, std::vector<float>{0, 1, 2, 3, 4, 5});
  loaded.set_input(1, indices);
  result.status = loaded.run();
  if (result.status == GRT_OK) result.out = loaded.output<float>(0);
  return result;
}

TEST(GatherNd, FullIndicesPickElements) {
  EXPECT_EQ(gather_nd({2, 2}, {1, 2, 0, 1}, {2}).out, (std::vector<float>{5, 1}));
}

TEST(GatherNd, ShortIndicesPickRows) {
  EXPECT_EQ(gather_nd({2, 1}, {1, 0}, {2, 3}).out, (std::vector<float>{3, 4, 5, 0, 1, 2}));
}

TEST(GatherNd, OnlyTheFlatPositionIsBoundedAsInTflm) {
  // {1, -1} lands on flat position 2, inside params: TFLM copies it, so does graphrt.
  EXPECT_EQ(gather_nd({1, 2}, {1, -1}, {1}).out, (std::vector<float>{2}));
  EXPECT_NE(gather_nd({1, 2}, {2, 0}, {1}).status, GRT_OK);
  EXPECT_NE(gather_nd({1, 1}, {-1}, {1, 3}).status, GRT_OK);
}

TEST(GatherNdCheck, RefusesAnIndexDepthBeyondTheParamsAndAWrongShape) {
  OneNode deep;
  const uint32_t p = deep.input(DType::Float32, {2, 3});
  const uint32_t i = deep.input(DType::Int32, {1, 3});
  const uint32_t y = deep.output(DType::Float32, {1});
  deep.node("gather_nd", {ArgDef::input(p), ArgDef::input(i), ArgDef::output(y)});
  EXPECT_NE(refusal(deep).find("index depth"), std::string::npos);
  OneNode wrong;
  const uint32_t p2 = wrong.input(DType::Float32, {2, 3});
  const uint32_t i2 = wrong.input(DType::Int32, {2, 1});
  const uint32_t y2 = wrong.output(DType::Float32, {2, 2});
  wrong.node("gather_nd", {ArgDef::input(p2), ArgDef::input(i2), ArgDef::output(y2)});
  EXPECT_NE(refusal(wrong).find("gathered shape"), std::string::npos);
}

}  // namespace
}  // namespace grt::test
