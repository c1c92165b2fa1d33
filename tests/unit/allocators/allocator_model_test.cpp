// Randomized tests: thousands of random allocate/free sequences against simple std::map
// models of what each allocator must do. The page and stack models predict every address;
// the heap and RTOS adapters are checked for alignment, no overlap, intact contents and
// exact statistics.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "fake_rtos_heap.h"
#include "graphrt/heap_allocator.h"
#include "graphrt/page_allocator.h"
#include "graphrt/tools/aligned_bytes.h"
#include "rtos_allocator.h"

namespace {

using grt::tools::AlignedBytes;

bool power_of_two(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

// A live allocation with a byte pattern, so overlapping allocations are caught.
struct Live {
  uint8_t* pointer;
  size_t size;
  uint8_t pattern;
};

void fill(const Live& live) {
  for (size_t i = 0; i < live.size; ++i) live.pointer[i] = static_cast<uint8_t>(live.pattern + i);
}

bool intact(const Live& live) {
  for (size_t i = 0; i < live.size; ++i) {
    if (live.pointer[i] != static_cast<uint8_t>(live.pattern + i)) return false;
  }
  return true;
}

// A power of two from 1 to largest, or now and then one that is not.
size_t random_alignment(std::mt19937& rng, size_t largest) {
  if (std::uniform_int_distribution<int>(0, 40)(rng) == 0) return 24;
  int most = 0;
  while ((size_t{2} << most) <= largest) ++most;
  return size_t{1} << std::uniform_int_distribution<int>(0, most)(rng);
}

// ---- Page allocator -------------------------------------------------------------------

// Runs of pages keyed by first page. Merging uses the map's neighbours, placement a scan.
class PageModel {
 public:
  PageModel(size_t pages, size_t page_size, uintptr_t first_page, grt_page_policy policy)
      : page_size_(page_size), first_page_(first_page), policy_(policy) {
    if (pages != 0) runs_[0] = {pages, false};
  }

  std::optional<size_t> allocate(size_t bytes, size_t alignment) {
    if (!power_of_two(alignment)) return std::nullopt;
    const size_t need = bytes == 0 ? 1 : (bytes + page_size_ - 1) / page_size_;
    std::optional<size_t> chosen_start, chosen_page;
    size_t chosen_length = 0;
    for (const auto& [start, run] : runs_) {
      if (run.used) continue;
      const uintptr_t address = first_page_ + start * page_size_;
      const uintptr_t aligned = (address + alignment - 1) / alignment * alignment;
      const size_t page = start + static_cast<size_t>(aligned - address + page_size_ - 1) / page_size_;
      if (page + need > start + run.length) continue;
      if (chosen_start && run.length >= chosen_length) continue;
      chosen_start = start;
      chosen_page = page;
      chosen_length = run.length;
      if (policy_ == GRT_PAGE_FIRST_FIT) break;
    }
    if (!chosen_start) return std::nullopt;
    const size_t start = *chosen_start, page = *chosen_page, end = start + chosen_length;
    runs_.erase(start);
    if (page > start) runs_[start] = {page - start, false};
    runs_[page] = {need, true};
    if (page + need < end) runs_[page + need] = {end - page - need, false};
    return page;
  }

  bool free(size_t page) {
    auto it = runs_.find(page);
    if (it == runs_.end() || !it->second.used) return false;
    it->second.used = false;
    auto next = std::next(it);
    if (next != runs_.end() && !next->second.used) {
      it->second.length += next->second.length;
      runs_.erase(next);
    }
    if (it != runs_.begin()) {
      auto previous = std::prev(it);
      if (!previous->second.used) {
        previous->second.length += it->second.length;
        runs_.erase(it);
      }
    }
    return true;
  }

  void expect_stats_match(const grt_page_stats& s) const {
    size_t in_use = 0, free_pages = 0, free_runs = 0, largest = 0;
    for (const auto& [start, run] : runs_) {
      if (run.used) {
        in_use += run.length;
      } else {
        free_pages += run.length;
        free_runs++;
        largest = std::max(largest, run.length);
      }
    }
    EXPECT_EQ(s.pages_in_use, in_use);
    EXPECT_EQ(s.free_pages, free_pages);
    EXPECT_EQ(s.free_runs, free_runs);
    EXPECT_EQ(s.largest_free_run, largest);
  }

 private:
  struct Run {
    size_t length;
    bool used;
  };
  std::map<size_t, Run> runs_;
  size_t page_size_;
  uintptr_t first_page_;
  grt_page_policy policy_;
};

struct PageCase {
  size_t page_size;
  grt_page_policy policy;
};

class PageAllocatorModel : public ::testing::TestWithParam<PageCase> {};

TEST_P(PageAllocatorModel, ThousandsOfRandomOperationsMatchTheModel) {
  const auto [page_size, policy] = GetParam();
  const size_t pages = 200;
  AlignedBytes data(pages * page_size);
  AlignedBytes metadata(pages * 4);
  grt_page_allocator allocator;
  ASSERT_TRUE(grt_page_init(&allocator, data.data(), data.size(), metadata.data(), metadata.size(), page_size, policy));
  PageModel model(pages, page_size, reinterpret_cast<uintptr_t>(data.data()), policy);
  std::mt19937 rng(static_cast<unsigned>(page_size * 7 + policy));
  std::vector<Live> live;
  std::vector<uint8_t*> freed;
  size_t failures = 0, invalid = 0;
  for (int step = 0; step < 6000; ++step) {
    const int action = std::uniform_int_distribution<int>(0, 99)(rng);
    if (action < 52 || live.empty()) {
      const size_t size = std::uniform_int_distribution<int>(0, 9)(rng) == 0 ? std::uniform_int_distribution<size_t>(0, 20 * page_size)(rng)
                                                                            : std::uniform_int_distribution<size_t>(0, 3 * page_size)(rng);
      const size_t alignment = random_alignment(rng, 256);
      auto* p = static_cast<uint8_t*>(grt_page_allocate(&allocator, size, alignment));
      const std::optional<size_t> expected = model.allocate(size, alignment);
      ASSERT_EQ(p != nullptr, expected.has_value()) << "step " << step << " size " << size << " alignment " << alignment;
      if (p == nullptr) {
        ++failures;
      } else {
        ASSERT_EQ(p, data.data() + *expected * page_size) << "step " << step;
        EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % alignment, 0u);
        live.push_back({p, size, static_cast<uint8_t>(step)});
        fill(live.back());
      }
    } else if (action < 96) {
      const size_t index = std::uniform_int_distribution<size_t>(0, live.size() - 1)(rng);
      ASSERT_TRUE(intact(live[index])) << "step " << step << ": another allocation overlapped this one";
      grt_page_free(&allocator, live[index].pointer);
      ASSERT_TRUE(model.free(static_cast<size_t>(live[index].pointer - data.data()) / page_size));
      freed.push_back(live[index].pointer);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(index));
    } else {
      // A stale or interior pointer: the model decides whether it is live right now.
      uint8_t* p = (action % 2 == 0 && !freed.empty()) ? freed[std::uniform_int_distribution<size_t>(0, freed.size() - 1)(rng)]
                                                       : live.front().pointer + page_size;
      const bool is_live_start = std::any_of(live.begin(), live.end(), [p](const Live& l) { return l.pointer == p; });
      if (is_live_start) continue;
      grt_page_free(&allocator, p);
      ++invalid;
    }
    grt_page_stats stats;
    grt_page_get_stats(&allocator, &stats);
    model.expect_stats_match(stats);
    ASSERT_FALSE(::testing::Test::HasFailure()) << "step " << step;
  }
  EXPECT_EQ(allocator.failed_requests, failures);
  EXPECT_EQ(allocator.invalid_frees, invalid);
  EXPECT_GT(failures, 10u) << "the sequence should exercise exhaustion";
  for (const Live& l : live) {
    ASSERT_TRUE(intact(l));
    grt_page_free(&allocator, l.pointer);
  }
  grt_page_stats stats;
  grt_page_get_stats(&allocator, &stats);
  EXPECT_EQ(stats.free_runs, 1u);
  EXPECT_EQ(stats.free_pages, pages);
}

INSTANTIATE_TEST_SUITE_P(PageSizesAndPolicies, PageAllocatorModel,
                         ::testing::Values(PageCase{16, GRT_PAGE_FIRST_FIT}, PageCase{16, GRT_PAGE_BEST_FIT},
                                           PageCase{64, GRT_PAGE_FIRST_FIT}, PageCase{64, GRT_PAGE_BEST_FIT}),
                         [](const ::testing::TestParamInfo<PageCase>& p) {
                           return std::to_string(p.param.page_size) + (p.param.policy == GRT_PAGE_FIRST_FIT ? "FirstFit" : "BestFit");
                         });

// ---- Stack allocator -----------------------------------------------------------------

// Live allocations keyed by payload offset; the newest is the largest key.
class StackModel {
 public:
  StackModel(uintptr_t base, size_t capacity) : base_(base), capacity_(capacity) {}

  std::optional<size_t> allocate(size_t size, size_t alignment) {
    alignment = std::max<size_t>(alignment, 4);  // the 16-byte header holds uint32_t fields
    if (!power_of_two(alignment)) return std::nullopt;
    const uintptr_t payload = (base_ + top_ + 16 + alignment - 1) / alignment * alignment;
    const size_t offset = static_cast<size_t>(payload - base_);
    if (offset > capacity_ || size > capacity_ - offset) return std::nullopt;
    live_[offset] = {size, top_};
    top_ = offset + size;
    in_use_ += size;
    return offset;
  }
  void free(size_t offset) {
    if (live_.empty() || live_.rbegin()->first != offset) {
      ++violations_;
      return;
    }
    pop();
  }
  void release(size_t mark) {
    while (!live_.empty() && live_.rbegin()->first >= mark) pop();
  }
  size_t top() const { return top_; }
  size_t in_use() const { return in_use_; }
  size_t violations() const { return violations_; }

 private:
  void pop() {
    top_ = live_.rbegin()->second.previous_top;
    in_use_ -= live_.rbegin()->second.size;
    live_.erase(std::prev(live_.end()));
  }
  struct Entry {
    size_t size;
    size_t previous_top;
  };
  std::map<size_t, Entry> live_;
  uintptr_t base_;
  size_t capacity_;
  size_t top_ = 0, in_use_ = 0, violations_ = 0;
};

TEST(StackAllocatorModel, ThousandsOfRandomOperationsMatchTheModel) {
  AlignedBytes buffer(4000);
  grt_stack_allocator stack;
  grt_stack_init(&stack, buffer.data(), buffer.size());
  StackModel model(reinterpret_cast<uintptr_t>(buffer.data()), buffer.size());
  std::mt19937 rng(11);
  std::vector<Live> live;  // in allocation order
  size_t failures = 0;
  for (int step = 0; step < 8000; ++step) {
    const int action = std::uniform_int_distribution<int>(0, 99)(rng);
    if (action < 50 || live.empty()) {
      const size_t size = std::uniform_int_distribution<size_t>(0, 300)(rng);
      const size_t alignment = random_alignment(rng, 128);
      auto* p = static_cast<uint8_t*>(grt_stack_allocate(&stack, size, alignment));
      const std::optional<size_t> expected = model.allocate(size, alignment);
      ASSERT_EQ(p != nullptr, expected.has_value()) << "step " << step;
      if (p == nullptr) {
        ++failures;
        continue;
      }
      ASSERT_EQ(p, buffer.data() + *expected);
      live.push_back({p, size, static_cast<uint8_t>(step)});
      fill(live.back());
    } else if (action < 90) {
      // Mostly the newest (LIFO); sometimes another one, which must be refused.
      const size_t index = action < 80 ? live.size() - 1 : std::uniform_int_distribution<size_t>(0, live.size() - 1)(rng);
      ASSERT_TRUE(intact(live[index])) << "step " << step;
      grt_stack_free(&stack, live[index].pointer);
      model.free(static_cast<size_t>(live[index].pointer - buffer.data()));
      if (index == live.size() - 1) live.pop_back();
    } else {
      // Release back to the start of a random live allocation's header region.
      const size_t index = std::uniform_int_distribution<size_t>(0, live.size() - 1)(rng);
      const size_t mark = static_cast<size_t>(live[index].pointer - buffer.data());
      grt_stack_release(&stack, mark);
      model.release(mark);
      live.resize(index);
    }
    ASSERT_EQ(stack.top, model.top()) << "step " << step;
    ASSERT_EQ(stack.bytes_in_use, model.in_use()) << "step " << step;
    ASSERT_EQ(stack.lifo_violations, model.violations()) << "step " << step;
  }
  EXPECT_EQ(stack.failed_requests, failures);
  EXPECT_GT(failures, 10u);
}

// ---- Adapters over malloc and over an RTOS heap --------------------------------------

// Checks a general-purpose allocator: alignment, no overlap, intact contents, exact
// byte statistics. `expect_failure` says when a request must fail (nullopt: cannot tell).
template <typename ExpectFailure>
void exercise_general_allocator(const grt_allocator& allocator, unsigned seed, ExpectFailure expect_failure) {
  std::mt19937 rng(seed);
  std::map<uintptr_t, Live> live;
  size_t in_use = 0, peak = 0, failures = 0;
  for (int step = 0; step < 5000; ++step) {
    if (std::uniform_int_distribution<int>(0, 99)(rng) < 55 || live.empty()) {
      const size_t size = std::uniform_int_distribution<size_t>(0, 400)(rng);
      const size_t alignment = random_alignment(rng, 64);
      auto* p = static_cast<uint8_t*>(grt_allocate(&allocator, size, alignment));
      const std::optional<bool> must_fail = expect_failure(size, alignment, in_use);
      if (must_fail) {
        ASSERT_EQ(p == nullptr, *must_fail) << "step " << step;
      }
      if (!power_of_two(alignment)) {
        ASSERT_EQ(p, nullptr);
      }
      if (p == nullptr) {
        ++failures;
        continue;
      }
      const auto address = reinterpret_cast<uintptr_t>(p);
      EXPECT_EQ(address % alignment, 0u);
      auto after = live.lower_bound(address);
      if (after != live.end()) {
        ASSERT_LE(address + std::max<size_t>(size, 1), after->first) << "overlaps the next block";
      }
      if (after != live.begin()) {
        const auto before = std::prev(after);
        ASSERT_LE(before->first + std::max<size_t>(before->second.size, 1), address) << "overlaps the previous block";
      }
      live[address] = {p, size, static_cast<uint8_t>(step)};
      fill(live[address]);
      in_use += size;
      peak = std::max(peak, in_use);
    } else {
      auto it = live.begin();
      std::advance(it, std::uniform_int_distribution<size_t>(0, live.size() - 1)(rng));
      ASSERT_TRUE(intact(it->second)) << "step " << step;
      grt_free(&allocator, it->second.pointer);
      in_use -= it->second.size;
      live.erase(it);
    }
    grt_allocator_stats stats{};
    allocator.stats(allocator.context, &stats);
    ASSERT_EQ(stats.bytes_in_use, in_use);
    ASSERT_EQ(stats.peak_bytes, peak);
    ASSERT_EQ(stats.failed_requests, failures);
  }
  for (const auto& [address, l] : live) {
    ASSERT_TRUE(intact(l));
    grt_free(&allocator, l.pointer);
  }
}

TEST(HeapAllocatorModel, ThousandsOfRandomOperationsKeepBlocksApartAndCountExactly) {
  const size_t limit = 6000;
  grt_heap_allocator heap;
  grt_heap_init(&heap, limit);
  const grt_allocator view = grt_heap_as_allocator(&heap);
  exercise_general_allocator(view, 5, [limit](size_t size, size_t alignment, size_t in_use) -> std::optional<bool> {
    return !power_of_two(alignment) || in_use + size > limit;
  });
  EXPECT_EQ(heap.bytes_in_use, 0u);
}

TEST(RtosAllocatorModel, ThousandsOfRandomOperationsKeepBlocksApartAndCountExactly) {
  fake_rtos_heap_reset();
  const size_t free_at_start = xPortGetFreeHeapSize();
  rtos_allocator state{};
  const grt_allocator view = rtos_allocator_view(&state);
  exercise_general_allocator(view, 9, [](size_t, size_t, size_t) -> std::optional<bool> { return std::nullopt; });
  EXPECT_GT(state.failed_requests, 10u) << "the 16 KiB heap should run out sometimes";
  EXPECT_EQ(state.bytes_in_use, 0u);
  EXPECT_EQ(xPortGetFreeHeapSize(), free_at_start) << "every block went back and merged";
}

}  // namespace
