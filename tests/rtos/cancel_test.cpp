// Cooperative cancellation at node boundaries: from a before_node hook, from another
// thread while a node runs (grt_cancel only sets a flag), on the static fast path and under
// dynamic memory. Afterwards the same executor runs again and matches TFLM.
#include <gtest/gtest.h>

#include <atomic>
#include <semaphore>

#include "graphrt/page_allocator.h"
#include "sized_thread.h"
#include "test_models.h"
#include "zoo.h"
#include "zoo_model.h"

namespace grt::test {
namespace {

constexpr uint32_t kStopNode = 3;

// A run whose before_node hook can stop it at kStopNode, or park there until released.
struct HookControl {
  bool stop = false;                      // return non-zero at kStopNode
  bool park = false;                      // signal `parked`, wait for `resume` at kStopNode
  std::binary_semaphore parked{0};
  std::binary_semaphore resume{0};
};

int before_node(void* user, uint32_t node) {
  auto* c = static_cast<HookControl*>(user);
  if (node != kStopNode) return 0;
  if (c->park) {
    c->parked.release();
    c->resume.acquire();
  }
  return c->stop ? 1 : 0;
}

class RtosCancel : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto zoo = model_zoo();
    if (!zoo) GTEST_SKIP() << "model zoo not found: set GRT_MODEL_ZOO to a folder with models/ and golden/";
    std::string error;
    ASSERT_TRUE(load_zoo_model(*zoo, "mlperf_kws_dscnn_int8", &model_, &error)) << error;
    hooks_.before_node = before_node;
    hooks_.user = &control_;
  }

  void expect_golden_run(grt_executor* x) {
    for (const GoldenCase& golden_case : model_.golden.cases) {
      set_inputs(x, golden_case);
      ASSERT_EQ(grt_run(x), GRT_OK) << grt_last_error(x)->message;
      EXPECT_EQ(check_outputs(x, model_.golden, golden_case), "");
    }
  }

  ZooModel model_;
  HookControl control_;
  grt_hooks hooks_{};
};

TEST_F(RtosCancel, BeforeNodeHookStopsAtThatNodeAndExecutorStaysUsable) {
  StaticRun run(model_.blob, nullptr, &hooks_);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  control_.stop = true;
  set_inputs(run.executor, model_.golden.cases[0]);
  EXPECT_EQ(grt_run(run.executor), GRT_ERR_CANCELLED);
  EXPECT_STREQ(grt_last_error(run.executor)->message, "cancelled before node 3");
  control_.stop = false;
  expect_golden_run(run.executor);
}

TEST_F(RtosCancel, GrtCancelFromAnotherThreadStopsAfterTheRunningNode) {
  StaticRun run(model_.blob, nullptr, &hooks_);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  control_.park = true;
  set_inputs(run.executor, model_.golden.cases[0]);
  grt_status status = GRT_OK;
  {
    SizedThread runner(64 * 1024, [&] { status = grt_run(run.executor); });
    ASSERT_TRUE(runner.started());
    control_.parked.acquire();   // the run is at node 3's boundary
    grt_cancel(run.executor);    // what an interrupt or another task would do
    control_.resume.release();
  }
  EXPECT_EQ(status, GRT_ERR_CANCELLED);
  // Node 3 was already under way: the flag stops the run at the next boundary.
  EXPECT_STREQ(grt_last_error(run.executor)->message, "cancelled before node 4");
  control_.park = false;
  expect_golden_run(run.executor);
}

// The fast path (static memory, no hooks) checks the flag too. A kernel standing in for
// "copy" parks in its second call so the other thread cancels mid-run, deterministically.
struct ParkingCopy {
  TVMBackendPackedCFunc copy = nullptr;  // the built-in kernel it stands in for
  std::atomic<int> calls{0};
  std::binary_semaphore parked{0};
  std::binary_semaphore resume{0};
};
ParkingCopy* g_parking = nullptr;  // test-only: the packed-function ABI has no user pointer here

int parking_copy(TVMValue* args, int* codes, int n, TVMValue* ret, int* ret_code, void* resource) {
  if (g_parking->calls.fetch_add(1) == 1) {
    g_parking->parked.release();
    g_parking->resume.acquire();
  }
  return g_parking->copy(args, codes, n, ret, ret_code, resource);
}

TEST(RtosCancelFastPath, GrtCancelDuringAKernelStopsStaticRunWithoutHooks) {
  const tools::AlignedBytes blob = to_blob(copy_chain(5));
  Registry registry;
  ParkingCopy parking;
  parking.copy = grt_registry_find(&registry.registry, "copy", 4)->function;
  g_parking = &parking;
  ASSERT_EQ(grt_registry_add(&registry.registry, "copy", parking_copy, nullptr), GRT_OK);
  StaticRun run(blob, &registry.registry);
  ASSERT_EQ(run.status, GRT_OK) << run.error.message;
  auto* in = static_cast<int8_t*>(grt_input(run.executor, 0)->data);
  for (int i = 0; i < 16; ++i) in[i] = static_cast<int8_t>(i - 8);
  grt_status status = GRT_OK;
  {
    SizedThread runner(64 * 1024, [&] { status = grt_run(run.executor); });
    ASSERT_TRUE(runner.started());
    parking.parked.acquire();
    grt_cancel(run.executor);
    parking.resume.release();
  }
  EXPECT_EQ(status, GRT_ERR_CANCELLED);
  EXPECT_STREQ(grt_last_error(run.executor)->message, "cancelled before node 2");
  EXPECT_EQ(parking.calls.load(), 2);
  ASSERT_EQ(grt_run(run.executor), GRT_OK) << grt_last_error(run.executor)->message;
  const auto* out = static_cast<const int8_t*>(grt_output(run.executor, 0)->data);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i - 8);
  g_parking = nullptr;
}

TEST_F(RtosCancel, CancelledDynamicRunGivesBackEveryIntermediate) {
  grt_requirements req{};
  grt_error err{};
  ASSERT_EQ(grt_model_requirements(model_.blob.data(), model_.blob.size(), GRT_STRATEGY_DYNAMIC, &req, &err), GRT_OK);
  constexpr size_t kPage = 64;
  tools::AlignedBytes arena(grt_page_buffer_bytes(req.allocator_bytes / kPage + 64, kPage));
  grt_page_allocator pages;
  ASSERT_TRUE(grt_page_init_buffer(&pages, arena.data(), arena.size(), kPage, GRT_PAGE_FIRST_FIT));
  const grt_allocator view = grt_page_as_allocator(&pages);
  const Registry registry;
  grt_options options{};
  options.registry = &registry.registry;
  options.memory.strategy = GRT_STRATEGY_DYNAMIC;
  options.memory.allocator = &view;
  options.hooks = &hooks_;
  tools::AlignedBytes storage(req.bookkeeping_bytes);
  grt_executor* x = nullptr;
  ASSERT_EQ(grt_init(&x, storage.data(), storage.size(), model_.blob.data(), model_.blob.size(), &options, &err), GRT_OK)
      << err.message;
  grt_page_stats before{}, after{};
  grt_page_get_stats(&pages, &before);  // inputs and outputs only
  control_.stop = true;
  set_inputs(x, model_.golden.cases[0]);
  EXPECT_EQ(grt_run(x), GRT_ERR_CANCELLED);
  grt_page_get_stats(&pages, &after);
  EXPECT_EQ(after.pages_in_use, before.pages_in_use);
  control_.stop = false;
  expect_golden_run(x);
  grt_release(x);
}

}  // namespace
}  // namespace grt::test
