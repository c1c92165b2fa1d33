// The copy kernel over two views of one buffer, as a band plan's kept rows use it: the rows
// a step keeps move to the buffer's top, source and destination overlapping. Both
// directions must give the source's bytes as they were (memmove, not memcpy: under ASan a
// memcpy here is also reported as overlapping).
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "graphrt/kernels.h"

namespace grt::test {
namespace {

// Copies `count` bytes of `buffer` from offset `from` to offset `to` with the copy kernel.
void copy_within(std::vector<int8_t>* buffer, int64_t from, int64_t to, int64_t count) {
  const grt_kernel_entry* copy = grt_builtin_kernel_find("copy");
  ASSERT_NE(copy, nullptr);
  int64_t shape[1] = {count};
  DLTensor source{};
  source.data = buffer->data() + from;
  source.ndim = 1;
  source.shape = shape;
  source.dtype = DLDataType{kDLInt, 8, 1};
  DLTensor destination = source;
  destination.data = buffer->data() + to;
  TVMValue args[2];
  args[0].v_handle = &source;
  args[1].v_handle = &destination;
  int codes[2] = {kTVMDLTensorHandle, kTVMDLTensorHandle};
  TVMValue ret{};
  int ret_code = 0;
  ASSERT_EQ(copy->check(args, codes, 2, &ret, &ret_code, nullptr), 0);
  ASSERT_EQ(copy->function(args, codes, 2, &ret, &ret_code, nullptr), 0);
}

std::vector<int8_t> counting(size_t n) {
  std::vector<int8_t> v(n);
  std::iota(v.begin(), v.end(), int8_t{0});
  return v;
}

TEST(CopyKernel, MovesKeptRowsUpOverTheirOwnBytes) {
  std::vector<int8_t> buffer = counting(16);
  copy_within(&buffer, 4, 0, 10);  // rows 4..13 to the top, over themselves
  const std::vector<int8_t> expected = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 10, 11, 12, 13, 14, 15};
  EXPECT_EQ(buffer, expected);
}

TEST(CopyKernel, MovesBytesDownOverTheirOwnBytes) {
  std::vector<int8_t> buffer = counting(16);
  copy_within(&buffer, 0, 4, 10);
  const std::vector<int8_t> expected = {0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 14, 15};
  EXPECT_EQ(buffer, expected);
}

TEST(CopyKernel, ASourceThatIsItsDestinationIsLeftAsItIs) {
  std::vector<int8_t> buffer = counting(8);
  copy_within(&buffer, 2, 2, 4);
  EXPECT_EQ(buffer, counting(8));
}

}  // namespace
}  // namespace grt::test
