// The locking wrapper: every call into the wrapped allocator happens between lock and
// unlock, and results pass through unchanged.
#include <gtest/gtest.h>

#include "graphrt/locked_allocator.h"
#include "graphrt/page_allocator.h"
#include "graphrt/tools/aligned_bytes.h"

namespace grt::test {
namespace {

struct LockLog {
  int locks = 0;
  int unlocks = 0;
  bool held = false;
  bool nested = false;
};

void lock(void* user) {
  auto* log = static_cast<LockLog*>(user);
  if (log->held) log->nested = true;
  log->held = true;
  ++log->locks;
}

void unlock(void* user) {
  auto* log = static_cast<LockLog*>(user);
  log->held = false;
  ++log->unlocks;
}

// Records whether the lock was held when the wrapped allocator was called.
struct Probe {
  LockLog* log;
  grt_allocator inner;
  int calls_under_lock = 0;
  int calls = 0;
};

void* probe_allocate(void* context, size_t size, size_t alignment) {
  auto* p = static_cast<Probe*>(context);
  ++p->calls;
  if (p->log->held) ++p->calls_under_lock;
  return grt_allocate(&p->inner, size, alignment);
}

void probe_free(void* context, void* ptr) {
  auto* p = static_cast<Probe*>(context);
  ++p->calls;
  if (p->log->held) ++p->calls_under_lock;
  grt_free(&p->inner, ptr);
}

void probe_stats(const void* context, grt_allocator_stats* out) {
  auto* p = static_cast<Probe*>(const_cast<void*>(context));
  ++p->calls;
  if (p->log->held) ++p->calls_under_lock;
  p->inner.stats(p->inner.context, out);
}

TEST(RtosLockedAllocator, EveryCallRunsUnderTheLockAndPassesResultsThrough) {
  tools::AlignedBytes arena(grt_page_buffer_bytes(16, 64));
  grt_page_allocator pages;
  ASSERT_TRUE(grt_page_init_buffer(&pages, arena.data(), arena.size(), 64, GRT_PAGE_FIRST_FIT));
  LockLog log;
  Probe probe{&log, grt_page_as_allocator(&pages)};
  const grt_allocator probed{probe_allocate, probe_free, probe_stats, &probe};
  grt_locked_allocator locked;
  grt_locked_init(&locked, &probed, lock, unlock, &log);
  const grt_allocator a = grt_locked_as_allocator(&locked);

  void* p = grt_allocate(&a, 100, 16);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
  EXPECT_EQ(grt_allocate(&a, 64 * 16, 16), nullptr) << "failures pass through";
  grt_allocator_stats stats{};
  a.stats(a.context, &stats);
  EXPECT_EQ(stats.bytes_in_use, 128u) << "two whole pages";
  EXPECT_EQ(stats.failed_requests, 1u);
  grt_free(&a, p);
  a.stats(a.context, &stats);
  EXPECT_EQ(stats.bytes_in_use, 0u);

  EXPECT_EQ(probe.calls, 5);
  EXPECT_EQ(probe.calls_under_lock, 5);
  EXPECT_EQ(log.locks, 5);
  EXPECT_EQ(log.unlocks, 5);
  EXPECT_FALSE(log.held);
  EXPECT_FALSE(log.nested);
}

}  // namespace
}  // namespace grt::test
