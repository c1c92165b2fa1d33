// The offset-table gather behind resize_nearest_neighbor, mirror_pad, depth_to_space,
// space_to_depth and batch_to_space_nd: sums of per-dimension offsets, contiguous runs, every
// element size, and the init check that keeps every read inside the input.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "one_node.h"

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;

OneNode gather_model(const char* kernel, DType in_dtype, std::vector<int64_t> in_shape, DType out_dtype,
                     std::vector<int64_t> out_shape, const std::vector<int32_t>& extents,
                     const std::vector<int32_t>& offsets) {
  OneNode m;
  const uint32_t x = m.input(in_dtype, std::move(in_shape));
  const uint32_t y = m.output(out_dtype, std::move(out_shape));
  m.node(kernel,
         {ArgDef::input(x), ArgDef::output(y), ArgDef::int_array(m.ints(extents)), ArgDef::int_array(m.ints(offsets))});
  return m;
}

template <typename T>
std::vector<T> gather(const char* kernel, DType dtype, std::vector<int64_t> in_shape, const std::vector<T>& in,
                      std::vector<int64_t> out_shape, const std::vector<int32_t>& extents,
                      const std::vector<int32_t>& offsets) {
  Loaded loaded(gather_model(kernel, dtype, std::move(in_shape), dtype, std::move(out_shape), extents, offsets).def);
  EXPECT_EQ(loaded.status(), GRT_OK) << loaded.message();
  if (loaded.status() != GRT_OK) return {};
  loaded.set_input(0, in);
  EXPECT_EQ(loaded.run(), GRT_OK);
  return loaded.output<T>(0);
}

TEST(OffsetGather, AddsOneOffsetPerDimensionAndCopiesRuns) {
  // X [3, 2]: rows 2, 0, 0 (offsets 4, 0, 0), each a run of two.
  EXPECT_EQ(
      gather<int8_t>("resize_nearest_neighbor", DType::Int8, {3, 2}, {1, 2, 3, 4, 5, 6}, {3, 2}, {3, 2}, {4, 0, 0}),
      (std::vector<int8_t>{5, 6, 1, 2, 1, 2}));
  // X [2, 3] transposed: Y[j, i] = X[i, j]: dimension 0 adds j, dimension 1 adds 3 * i, runs of one.
  EXPECT_EQ(
      gather<int16_t>("depth_to_space", DType::Int16, {2, 3}, {1, 2, 3, 4, 5, 6}, {3, 2}, {3, 2, 1}, {0, 1, 2, 0, 3}),
      (std::vector<int16_t>{1, 4, 2, 5, 3, 6}));
}

TEST(OffsetGather, CopiesEveryElementSize) {
  EXPECT_EQ(gather<float>("mirror_pad", DType::Float32, {3}, {0.5f, -1.5f, 2.0f}, {5}, {5, 1}, {1, 0, 1, 2, 1}),
            (std::vector<float>{-1.5f, 0.5f, -1.5f, 2.0f, -1.5f}));
  EXPECT_EQ(gather<int64_t>("space_to_depth", DType::Int64, {2}, {INT64_MIN, 7}, {2}, {2, 1}, {1, 0}),
            (std::vector<int64_t>{7, INT64_MIN}));
  EXPECT_EQ(gather<int32_t>("batch_to_space_nd", DType::Int32, {4}, {1, 2, 3, 4}, {2}, {1, 2}, {2}),
            (std::vector<int32_t>{3, 4}));
}

TEST(OffsetGather, EmptyOutputsReadNothing) {
  EXPECT_TRUE(gather<int8_t>("mirror_pad", DType::Int8, {2}, {1, 2}, {0}, {0, 1}, {}).empty());
}

TEST(OffsetGatherCheck, RefusesReadsOutsideTheInput) {
  const auto message = [](std::vector<int64_t> out_shape, const std::vector<int32_t>& extents,
                          const std::vector<int32_t>& offsets, DType out_dtype = DType::Int8) {
    return refusal(gather_model("mirror_pad", DType::Int8, {3, 2}, out_dtype, std::move(out_shape), extents, offsets));
  };
  EXPECT_EQ(message({2, 2}, {2, 2}, {0, 4}), "");
  EXPECT_NE(message({2, 2}, {2, 2}, {0, 5}).find("past the input"), std::string::npos);
  EXPECT_NE(message({2, 3}, {2, 3}, {0, 4}).find("past the input"), std::string::npos);
  EXPECT_NE(message({2, 2}, {2, 2}, {-1, 0}).find("before the input"), std::string::npos);
  EXPECT_NE(message({2, 2}, {2, 2}, {0, 2, 4}).find("one entry per index"), std::string::npos);
  EXPECT_NE(message({2, 2}, {3, 2}, {0, 2, 4}).find("multiply to the output"), std::string::npos);
  EXPECT_NE(message({2, 2}, {-2, -2}, {0, 0}).find("negative extent"), std::string::npos);
  EXPECT_NE(message({2, 2}, {2, 2}, {0, 4}, DType::Int16).find("dtypes differ"), std::string::npos);
  EXPECT_NE(message({2, 2}, {1, 1, 1, 1, 1, 1, 1, 2, 2}, {0, 0, 0, 0, 0, 0, 0, 0, 2}).find("1 to 8"),
            std::string::npos);
}

}  // namespace
}  // namespace grt::test
