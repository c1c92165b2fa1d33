// Several threads with small fixed stacks, each with its own executor over ONE shared blob
// and kernel registry, run a real model's golden cases over and over. Two executors use
// their own static pools; two share one page allocator behind the locking wrapper. Run
// under ThreadSanitizer (the tsan preset) this is the proof that nothing in graphrt is
// shared mutable state except what the contract says is shared under a lock.
#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "graphrt/locked_allocator.h"
#include "graphrt/page_allocator.h"
#include "sized_thread.h"
#include "test_models.h"
#include "zoo.h"
#include "zoo_model.h"

namespace grt::test {
namespace {

constexpr size_t kThreadStackBytes = 64 * 1024;
constexpr int kThreads = 4;
constexpr int kRounds = 3;

// One thread's executor: its own bookkeeping, and either its own pool or the shared allocator.
struct Worker {
  tools::AlignedBytes storage;
  tools::AlignedBytes pool;
  grt_executor* executor = nullptr;
  int runs = 0;
  std::string failure;
};

void lock_mutex(void* m) { static_cast<std::mutex*>(m)->lock(); }
void unlock_mutex(void* m) { static_cast<std::mutex*>(m)->unlock(); }

TEST(RtosThreads, ExecutorsOverOneBlobMatchGoldenConcurrently) {
  GRT_REQUIRE_ZOO(zoo);
  ZooModel model;
  std::string error;
  ASSERT_TRUE(load_zoo_model(zoo, "mlperf_kws_dscnn_int8", &model, &error)) << error;
  const Registry registry;  // shared, read-only after this line

  grt_requirements fixed{}, dynamic{};
  grt_error err{};
  ASSERT_EQ(grt_model_requirements(model.blob.data(), model.blob.size(), GRT_STRATEGY_STATIC, &fixed, &err), GRT_OK) << err.message;
  ASSERT_EQ(fixed.pool_count, 1u);
  ASSERT_EQ(grt_model_requirements(model.blob.data(), model.blob.size(), GRT_STRATEGY_DYNAMIC, &dynamic, &err), GRT_OK) << err.message;

  // One page allocator for both dynamic executors, generous: every activation of both at once.
  constexpr size_t kPage = 64;
  const size_t pages = 2 * (dynamic.allocator_bytes / kPage + 64);
  tools::AlignedBytes arena(grt_page_buffer_bytes(pages, kPage));
  grt_page_allocator page_allocator;
  ASSERT_TRUE(grt_page_init_buffer(&page_allocator, arena.data(), arena.size(), kPage, GRT_PAGE_FIRST_FIT));
  const grt_allocator pages_view = grt_page_as_allocator(&page_allocator);
  std::mutex allocator_mutex;
  grt_locked_allocator locked;
  grt_locked_init(&locked, &pages_view, lock_mutex, unlock_mutex, &allocator_mutex);
  const grt_allocator shared_allocator = grt_locked_as_allocator(&locked);

  std::vector<Worker> workers(kThreads);
  for (int w = 0; w < kThreads; ++w) {
    Worker& worker = workers[w];
    const bool uses_pages = w % 2 == 1;
    grt_options options{};
    options.registry = &registry.registry;
    void* pool_pointer = nullptr;
    size_t pool_size = fixed.pool_bytes[0];
    if (uses_pages) {
      worker.storage.resize(dynamic.bookkeeping_bytes);
      options.memory.strategy = GRT_STRATEGY_DYNAMIC;
      options.memory.allocator = &shared_allocator;
    } else {
      worker.storage.resize(fixed.bookkeeping_bytes);
      worker.pool.resize(fixed.pool_bytes[0]);
      pool_pointer = worker.pool.data();
      options.memory.strategy = GRT_STRATEGY_STATIC;
      options.memory.pool_buffers = &pool_pointer;
      options.memory.pool_sizes = &pool_size;
      options.memory.pool_count = 1;
    }
    ASSERT_EQ(grt_init(&worker.executor, worker.storage.data(), worker.storage.size(), model.blob.data(),
                       model.blob.size(), &options, &err),
              GRT_OK)
        << err.message;
  }

  {
    std::vector<std::unique_ptr<SizedThread>> threads;
    for (Worker& worker : workers) {
      threads.push_back(std::make_unique<SizedThread>(kThreadStackBytes, [&worker, &model] {
        for (int round = 0; round < kRounds && worker.failure.empty(); ++round) {
          for (const GoldenCase& golden_case : model.golden.cases) {
            set_inputs(worker.executor, golden_case);
            if (grt_run(worker.executor) != GRT_OK) {
              worker.failure = grt_last_error(worker.executor)->message;
              return;
            }
            worker.failure = check_outputs(worker.executor, model.golden, golden_case);
            if (!worker.failure.empty()) return;
            ++worker.runs;
          }
        }
      }));
      ASSERT_TRUE(threads.back()->started());
    }
  }  // joins

  for (size_t w = 0; w < workers.size(); ++w) {
    EXPECT_EQ(workers[w].failure, "") << "thread " << w;
    EXPECT_EQ(workers[w].runs, kRounds * static_cast<int>(model.golden.cases.size())) << "thread " << w;
    grt_release(workers[w].executor);
  }
  grt_page_stats stats{};
  grt_page_get_stats(&page_allocator, &stats);
  EXPECT_EQ(stats.pages_in_use, 0u) << "the dynamic executors gave back every page";
}

}  // namespace
}  // namespace grt::test
