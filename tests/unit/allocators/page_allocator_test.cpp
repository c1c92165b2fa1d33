// The page allocator on its own: alignment, exhaustion, zero size, coalescing, the two
// policies where they differ, invalid frees, statistics, and that its metadata lives
// outside the pages.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "c_usage.h"
#include "graphrt/page_allocator.h"
#include "graphrt/tools/aligned_bytes.h"

namespace {

using grt::tools::AlignedBytes;

// Pages and metadata in separate buffers, so tests can look at both.
struct Pages {
  Pages(size_t page_size, size_t count, grt_page_policy policy) : data(page_size * count), metadata(count * 4) {
    EXPECT_TRUE(grt_page_init(&allocator, data.data(), data.size(), metadata.data(), metadata.size(), page_size, policy));
    EXPECT_EQ(allocator.page_count, count);
  }
  size_t page_of(const void* p) const {
    return static_cast<size_t>(static_cast<const uint8_t*>(p) - data.data()) / allocator.page_size;
  }
  grt_page_stats stats() const {
    grt_page_stats s;
    grt_page_get_stats(&allocator, &s);
    return s;
  }
  AlignedBytes data;
  AlignedBytes metadata;
  grt_page_allocator allocator;
};

TEST(PageAllocator, AlignsEveryRequestFrom1To64) {
  for (const size_t page_size : {16u, 32u, 64u}) {
    Pages pages(page_size, 64, GRT_PAGE_FIRST_FIT);
    for (size_t align = 1; align <= 64; align *= 2) {
      void* p = grt_page_allocate(&pages.allocator, 3, align);
      ASSERT_NE(p, nullptr) << page_size << " " << align;
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u) << page_size << " " << align;
    }
    EXPECT_EQ(pages.allocator.failed_requests, 0u);
  }
}

TEST(PageAllocator, AlignmentAbovePageSizeSkipsPagesAndLeavesThemFree) {
  Pages pages(16, 16, GRT_PAGE_FIRST_FIT);
  void* first = grt_page_allocate(&pages.allocator, 16, 16);  // page 0: the next 64-byte boundary is page 4
  void* aligned = grt_page_allocate(&pages.allocator, 16, 64);
  ASSERT_NE(aligned, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 64, 0u);
  EXPECT_EQ(pages.page_of(aligned), 4u);
  EXPECT_EQ(pages.page_of(grt_page_allocate(&pages.allocator, 48, 16)), 1u) << "the skipped pages are still free";
  grt_page_free(&pages.allocator, first);
  EXPECT_EQ(pages.allocator.failed_requests, 0u);
}

TEST(PageAllocator, AlignmentMustBeAPowerOfTwo) {
  Pages pages(16, 4, GRT_PAGE_FIRST_FIT);
  EXPECT_EQ(grt_page_allocate(&pages.allocator, 8, 24), nullptr);
  EXPECT_EQ(grt_page_allocate(&pages.allocator, 8, 0), nullptr);
  EXPECT_EQ(pages.allocator.failed_requests, 2u);
  EXPECT_EQ(pages.allocator.pages_in_use, 0u);
}

TEST(PageAllocator, RequestsTakeWholePagesAndStatisticsCountThem) {
  Pages pages(32, 8, GRT_PAGE_FIRST_FIT);
  void* a = grt_page_allocate(&pages.allocator, 33, 16);  // 2 pages
  void* b = grt_page_allocate(&pages.allocator, 32, 16);  // 1 page
  EXPECT_EQ(pages.page_of(b), 2u);
  const grt_allocator view = grt_page_as_allocator(&pages.allocator);
  grt_allocator_stats s{};
  view.stats(view.context, &s);
  EXPECT_EQ(s.bytes_in_use, 3u * 32);
  EXPECT_EQ(s.largest_free, 5u * 32);
  grt_page_free(&pages.allocator, a);
  view.stats(view.context, &s);
  EXPECT_EQ(s.bytes_in_use, 32u);
  EXPECT_EQ(s.peak_bytes, 3u * 32);
  EXPECT_EQ(s.largest_free, 5u * 32);
  grt_page_free(&pages.allocator, b);
  EXPECT_EQ(pages.stats().free_runs, 1u);
}

TEST(PageAllocator, ExhaustionFailsCleanlyAndFreeingMakesRoom) {
  Pages pages(16, 4, GRT_PAGE_BEST_FIT);
  std::vector<void*> taken;
  for (int i = 0; i < 4; ++i) taken.push_back(grt_page_allocate(&pages.allocator, 16, 16));
  for (void* p : taken) ASSERT_NE(p, nullptr);
  EXPECT_EQ(grt_page_allocate(&pages.allocator, 1, 1), nullptr);
  EXPECT_EQ(grt_page_allocate(&pages.allocator, 65, 16), nullptr) << "more than the whole buffer";
  EXPECT_EQ(pages.allocator.failed_requests, 2u);
  grt_page_free(&pages.allocator, taken[2]);
  EXPECT_EQ(grt_page_allocate(&pages.allocator, 16, 16), taken[2]);
}

TEST(PageAllocator, ZeroSizeTakesAPageSoPointersStayUniqueAndFreeable) {
  Pages pages(16, 2, GRT_PAGE_FIRST_FIT);
  void* a = grt_page_allocate(&pages.allocator, 0, 16);
  void* b = grt_page_allocate(&pages.allocator, 0, 16);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  EXPECT_EQ(grt_page_allocate(&pages.allocator, 0, 16), nullptr);
  grt_page_free(&pages.allocator, a);
  grt_page_free(&pages.allocator, b);
  EXPECT_EQ(pages.allocator.pages_in_use, 0u);
  EXPECT_EQ(pages.allocator.invalid_frees, 0u);
}

TEST(PageAllocator, FreedRunsMergeWithBothNeighbours) {
  Pages pages(16, 6, GRT_PAGE_FIRST_FIT);
  void* a = grt_page_allocate(&pages.allocator, 32, 16);
  void* b = grt_page_allocate(&pages.allocator, 16, 16);
  void* c = grt_page_allocate(&pages.allocator, 48, 16);
  grt_page_free(&pages.allocator, a);
  grt_page_free(&pages.allocator, c);
  EXPECT_EQ(pages.stats().free_runs, 2u);
  EXPECT_EQ(pages.stats().largest_free_run, 3u);
  grt_page_free(&pages.allocator, b);
  EXPECT_EQ(pages.stats().free_runs, 1u);
  EXPECT_EQ(pages.stats().largest_free_run, 6u);
  EXPECT_EQ(grt_page_allocate(&pages.allocator, 96, 16), pages.data.data()) << "the whole buffer is one run again";
}

// Leaves free runs of 3 pages (0-2) and 1 page (4) with page 3 and 5.. used.
void make_holes_3_and_1(Pages* pages, std::vector<void*>* keep) {
  void* hole3 = grt_page_allocate(&pages->allocator, 48, 16);
  keep->push_back(grt_page_allocate(&pages->allocator, 16, 16));
  void* hole1 = grt_page_allocate(&pages->allocator, 16, 16);
  keep->push_back(grt_page_allocate(&pages->allocator, 16 * (pages->allocator.page_count - 5), 16));
  grt_page_free(&pages->allocator, hole3);
  grt_page_free(&pages->allocator, hole1);
}

TEST(PageAllocator, FirstFitTakesTheLowestRunBestFitTheTightest) {
  Pages first(16, 8, GRT_PAGE_FIRST_FIT);
  Pages best(16, 8, GRT_PAGE_BEST_FIT);
  std::vector<void*> keep;
  make_holes_3_and_1(&first, &keep);
  make_holes_3_and_1(&best, &keep);
  EXPECT_EQ(first.page_of(grt_page_allocate(&first.allocator, 16, 16)), 0u);
  EXPECT_EQ(best.page_of(grt_page_allocate(&best.allocator, 16, 16)), 4u);
  // Now only best fit still has three contiguous pages.
  EXPECT_EQ(grt_page_allocate(&first.allocator, 48, 16), nullptr);
  EXPECT_NE(grt_page_allocate(&best.allocator, 48, 16), nullptr);
}

TEST(PageAllocator, BestFitCanFragmentWhereFirstFitDoesNot) {
  // Free runs of 6 pages (0-5) and 4 pages (7-10); then requests of 3, 3 and 4 pages.
  auto setup = [](Pages* pages) {
    void* six = grt_page_allocate(&pages->allocator, 6 * 16, 16);
    grt_page_allocate(&pages->allocator, 16, 16);
    void* four = grt_page_allocate(&pages->allocator, 4 * 16, 16);
    grt_page_allocate(&pages->allocator, 16, 16);
    grt_page_free(&pages->allocator, six);
    grt_page_free(&pages->allocator, four);
  };
  Pages first(16, 12, GRT_PAGE_FIRST_FIT);
  Pages best(16, 12, GRT_PAGE_BEST_FIT);
  setup(&first);
  setup(&best);
  for (Pages* pages : {&first, &best}) {
    ASSERT_NE(grt_page_allocate(&pages->allocator, 48, 16), nullptr);
    ASSERT_NE(grt_page_allocate(&pages->allocator, 48, 16), nullptr);
  }
  EXPECT_NE(grt_page_allocate(&first.allocator, 64, 16), nullptr);
  EXPECT_EQ(grt_page_allocate(&best.allocator, 64, 16), nullptr);
  EXPECT_EQ(best.stats().free_pages, 4u);
  EXPECT_EQ(best.stats().largest_free_run, 3u);
  EXPECT_EQ(best.stats().fragmentation_percent, 25u);
}

TEST(PageAllocator, InvalidFreesAreCountedAndChangeNothing) {
  Pages pages(16, 8, GRT_PAGE_FIRST_FIT);
  auto* a = static_cast<uint8_t*>(grt_page_allocate(&pages.allocator, 48, 16));
  int outside = 0;
  grt_page_free(&pages.allocator, a + 16);  // inside the run
  grt_page_free(&pages.allocator, a + 1);   // not on a page
  grt_page_free(&pages.allocator, &outside);
  grt_page_free(&pages.allocator, pages.data.data() + 5 * 16);  // a free page
  grt_page_free(&pages.allocator, nullptr);
  EXPECT_EQ(pages.allocator.invalid_frees, 4u);
  EXPECT_EQ(pages.allocator.pages_in_use, 3u);
  grt_page_free(&pages.allocator, a);
  grt_page_free(&pages.allocator, a);  // twice
  EXPECT_EQ(pages.allocator.invalid_frees, 5u);
  EXPECT_EQ(pages.stats().free_runs, 1u);
  EXPECT_EQ(pages.stats().free_pages, 8u);
}

TEST(PageAllocator, WritingEveryAllocatedByteCannotCorruptTheMetadata) {
  const size_t page_size = 16;
  AlignedBytes buffer(grt_page_buffer_bytes(10, page_size));
  grt_page_allocator allocator;
  ASSERT_TRUE(grt_page_init_buffer(&allocator, buffer.data(), buffer.size(), page_size, GRT_PAGE_FIRST_FIT));
  ASSERT_EQ(allocator.page_count, 10u);
  std::vector<void*> all;
  for (void* p; (p = grt_page_allocate(&allocator, 16, 16)) != nullptr;) {
    std::memset(p, 0xff, 16);
    all.push_back(p);
  }
  EXPECT_EQ(all.size(), 10u);
  for (void* p : all) grt_page_free(&allocator, p);
  EXPECT_EQ(allocator.invalid_frees, 0u);
  EXPECT_EQ(allocator.pages_in_use, 0u);
  EXPECT_EQ(grt_page_allocate(&allocator, 160, 16), buffer.data());
}

TEST(PageAllocator, SizesOfMetadataAndBuffers) {
  EXPECT_EQ(grt_page_metadata_bytes(1024, 64), 16u * 4);
  EXPECT_EQ(grt_page_metadata_bytes(1000, 64), 15u * 4) << "only whole pages";
  EXPECT_EQ(grt_page_metadata_bytes(1024, 48), 0u) << "not a power of two";
  EXPECT_EQ(grt_page_buffer_bytes(10, 64), 10u * 68);
  EXPECT_EQ(grt_page_buffer_bytes(SIZE_MAX / 8, 64), SIZE_MAX) << "overflow is reported as SIZE_MAX";
}

TEST(PageAllocator, OneBufferHoldsExactlyThePagesItsSizeSays) {
  for (const size_t page_size : {16u, 64u}) {
    AlignedBytes buffer(grt_page_buffer_bytes(7, page_size));
    grt_page_allocator allocator;
    ASSERT_TRUE(grt_page_init_buffer(&allocator, buffer.data(), buffer.size(), page_size, GRT_PAGE_BEST_FIT));
    EXPECT_EQ(allocator.page_count, 7u);
    ASSERT_TRUE(grt_page_init_buffer(&allocator, buffer.data(), buffer.size() - 1, page_size, GRT_PAGE_BEST_FIT));
    EXPECT_EQ(allocator.page_count, 6u);
    ASSERT_TRUE(grt_page_init_buffer(&allocator, buffer.data() + 1, buffer.size() - 1, page_size, GRT_PAGE_BEST_FIT));
    EXPECT_EQ(allocator.page_count, 6u) << "an unaligned start loses up to a page";
    EXPECT_EQ(allocator.first_page % page_size, 0u);
  }
}

TEST(PageAllocator, UnusableArgumentsAreRefused) {
  AlignedBytes data(256);
  AlignedBytes metadata(128);
  grt_page_allocator a;
  EXPECT_FALSE(grt_page_init(&a, data.data(), data.size(), metadata.data(), metadata.size(), 8, GRT_PAGE_FIRST_FIT));
  EXPECT_FALSE(grt_page_init(&a, data.data(), data.size(), metadata.data(), metadata.size(), 48, GRT_PAGE_FIRST_FIT));
  EXPECT_FALSE(grt_page_init(&a, data.data(), data.size(), metadata.data(), 15 * 4, 16, GRT_PAGE_FIRST_FIT)) << "16 pages, room for 15";
  EXPECT_FALSE(grt_page_init(&a, data.data(), data.size(), metadata.data() + 2, 100, 16, GRT_PAGE_FIRST_FIT)) << "misaligned";
  EXPECT_FALSE(grt_page_init(&a, data.data(), data.size(), metadata.data(), 64, 16, static_cast<grt_page_policy>(7)));
  EXPECT_EQ(a.page_count, 0u);
  EXPECT_EQ(grt_page_allocate(&a, 1, 1), nullptr) << "a refused allocator serves nothing";
  EXPECT_FALSE(grt_page_init(nullptr, data.data(), 256, metadata.data(), 64, 16, GRT_PAGE_FIRST_FIT));
  EXPECT_TRUE(grt_page_init(&a, nullptr, 0, nullptr, 0, 16, GRT_PAGE_FIRST_FIT)) << "an empty allocator is valid";
  EXPECT_EQ(grt_page_allocate(&a, 0, 16), nullptr);
}

TEST(PageAllocator, UsableFromPlainC) {
  AlignedBytes buffer(1024);
  grt_page_allocator state;
  const grt_allocator view = c_page_allocator(&state, buffer.data(), buffer.size());
  EXPECT_EQ(state.page_size, 32u);
  EXPECT_EQ(state.page_count, 1024u / 36);
  void* p = grt_allocate(&view, 100, 32);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(state.pages_in_use, 4u);
  grt_free(&view, p);
  EXPECT_EQ(state.pages_in_use, 0u);
}

}  // namespace
