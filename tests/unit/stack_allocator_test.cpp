#include <gtest/gtest.h>

#include <vector>

#include "graphrt/allocator.h"
#include "graphrt/tools/aligned_bytes.h"

namespace {

TEST(StackAllocator, AlignsEveryRequestFrom1To64) {
  grt::tools::AlignedBytes buffer(4096);
  grt_stack_allocator s;
  grt_stack_init(&s, buffer.data(), buffer.size());
  for (size_t align = 1; align <= 64; align *= 2) {
    void* p = grt_stack_allocate(&s, 3, align);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u) << align;
  }
  EXPECT_EQ(grt_stack_allocate(&s, 3, 24), nullptr) << "alignment must be a power of two";
  EXPECT_EQ(s.failed_requests, 1u);
}

TEST(StackAllocator, FreesPopInLifoOrderAndCatchOthers) {
  grt::tools::AlignedBytes buffer(1024);
  grt_stack_allocator s;
  grt_stack_init(&s, buffer.data(), buffer.size());
  void* a = grt_stack_allocate(&s, 10, 16);
  void* b = grt_stack_allocate(&s, 20, 16);
  EXPECT_EQ(s.bytes_in_use, 30u);
  grt_stack_free(&s, a);
  EXPECT_EQ(s.lifo_violations, 1u);
  EXPECT_EQ(s.bytes_in_use, 30u);
  grt_stack_free(&s, b);
  grt_stack_free(&s, a);
  EXPECT_EQ(s.bytes_in_use, 0u);
  EXPECT_EQ(s.top, 0u);
  EXPECT_EQ(s.peak_bytes, 30u);
}

TEST(StackAllocator, MarkAndReleaseDropEverythingAbove) {
  grt::tools::AlignedBytes buffer(1024);
  grt_stack_allocator s;
  grt_stack_init(&s, buffer.data(), buffer.size());
  ASSERT_NE(grt_stack_allocate(&s, 8, 16), nullptr);
  const size_t mark = grt_stack_mark(&s);
  for (int i = 0; i < 5; ++i) ASSERT_NE(grt_stack_allocate(&s, 40, 16), nullptr);
  grt_stack_release(&s, mark);
  EXPECT_EQ(s.top, mark);
  EXPECT_EQ(s.bytes_in_use, 8u);
}

TEST(StackAllocator, ExhaustionAndZeroSize) {
  grt::tools::AlignedBytes buffer(64);
  grt_stack_allocator s;
  grt_stack_init(&s, buffer.data(), buffer.size());
  void* z = grt_stack_allocate(&s, 0, 16);
  EXPECT_NE(z, nullptr);
  EXPECT_EQ(grt_stack_allocate(&s, 64, 16), nullptr);
  EXPECT_EQ(s.failed_requests, 1u);
  grt_stack_free(&s, z);
  EXPECT_EQ(s.top, 0u);
  // The documented per-allocation bound is exact for 16-aligned requests.
  EXPECT_NE(grt_stack_allocate(&s, 64 - 16, 16), nullptr);
}

TEST(StackAllocator, AllocationBoundHoldsForMixedSequences) {
  grt::tools::AlignedBytes buffer(1 << 16);
  for (size_t seed = 1; seed < 50; ++seed) {
    size_t bound = 0;
    std::vector<std::pair<size_t, size_t>> requests;
    size_t x = seed;
    for (int i = 0; i < 20; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const size_t size = (x >> 33) % 300;
      const size_t align = size_t{1} << ((x >> 20) % 7);
      requests.emplace_back(size, align);
      bound += GRT_STACK_ALLOCATION_BYTES(size, align);
    }
    grt_stack_allocator s;
    grt_stack_init(&s, buffer.data(), bound);
    for (const auto& [size, align] : requests) ASSERT_NE(grt_stack_allocate(&s, size, align), nullptr) << seed;
  }
}

}  // namespace
