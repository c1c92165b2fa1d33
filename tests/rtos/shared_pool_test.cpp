// Two executors with different blobs share one activation buffer, sized for the larger
// plan. Only one may run at a time: a second run fails at once with GRT_ERR_BUSY, naming
// the holder, and explicit acquire / release / hand-over keep a pool across write-inputs,
// run and read-outputs.
#include <gtest/gtest.h>

#include <thread>

#include <atomic>
#include <semaphore>
#include <string>

#include "graphrt/shared_pool.h"
#include "sized_thread.h"
#include "test_models.h"
#include "zoo.h"
#include "zoo_model.h"

namespace grt::test {
namespace {

// An executor bound to a shared pool, with its bookkeeping sized from the requirements.
struct SharedRun {
  SharedRun(const tools::AlignedBytes& blob, grt_shared_pool* pool, const char* name, const grt_registry* registry) {
    status = grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &requirements, &error);
    if (status != GRT_OK) return;
    storage.resize(requirements.bookkeeping_bytes);
    grt_options options{};
    options.registry = registry;
    options.memory.strategy = GRT_STRATEGY_STATIC;
    options.name = name;
    options.shared_pool = pool;
    status = grt_init(&executor, storage.data(), storage.size(), blob.data(), blob.size(), &options, &error);
  }
  grt_status status = GRT_ERR_ARGUMENT;
  grt_error error{};
  grt_requirements requirements{};
  tools::AlignedBytes storage;
  grt_executor* executor = nullptr;
};

size_t shared_bytes(const tools::AlignedBytes& blob) {
  grt_requirements r{};
  grt_error e{};
  EXPECT_EQ(grt_model_requirements(blob.data(), blob.size(), GRT_STRATEGY_STATIC, &r, &e), GRT_OK) << e.message;
  return grt_shared_pool_bytes(&r);
}

void fill_input(grt_executor* x, int8_t base) {
  DLTensor* in = grt_input(x, 0);
  auto* p = static_cast<int8_t*>(in->data);
  for (size_t i = 0; i < grt_tensor_bytes(in); ++i) p[i] = static_cast<int8_t>(base + static_cast<int8_t>(i));
}

bool output_is(grt_executor* x, int8_t base) {
  const DLTensor* out = grt_output(x, 0);
  const auto* p = static_cast<const int8_t*>(out->data);
  for (size_t i = 0; i < grt_tensor_bytes(out); ++i) {
    if (p[i] != static_cast<int8_t>(base + static_cast<int8_t>(i))) return false;
  }
  return true;
}

class RtosSharedPool : public ::testing::Test {
 protected:
  tools::AlignedBytes small_ = to_blob(copy_chain(3, 16));
  tools::AlignedBytes large_ = to_blob(copy_chain(4, 256));
  Registry registry_;
};

TEST_F(RtosSharedPool, SizedForTheLargerPlanBothRunInTurn) {
  const size_t bytes = std::max(shared_bytes(small_), shared_bytes(large_));
  EXPECT_EQ(bytes, shared_bytes(large_));
  tools::AlignedBytes buffer(bytes);
  grt_shared_pool pool;
  ASSERT_EQ(grt_shared_pool_init(&pool, "activations", buffer.data(), buffer.size()), GRT_OK);
  SharedRun a(small_, &pool, "model-a", &registry_.registry);
  SharedRun b(large_, &pool, "model-b", &registry_.registry);
  ASSERT_EQ(a.status, GRT_OK) << a.error.message;
  ASSERT_EQ(b.status, GRT_OK) << b.error.message;
  // Both executors' activations are in the one buffer.
  const auto* lo = buffer.data();
  EXPECT_GE(static_cast<uint8_t*>(grt_output(b.executor, 0)->data), lo);
  EXPECT_LT(static_cast<uint8_t*>(grt_output(b.executor, 0)->data), lo + bytes);
  for (int round = 0; round < 3; ++round) {
    fill_input(a.executor, static_cast<int8_t>(round));
    ASSERT_EQ(grt_run(a.executor), GRT_OK) << grt_last_error(a.executor)->message;
    EXPECT_TRUE(output_is(a.executor, static_cast<int8_t>(round)));
    fill_input(b.executor, static_cast<int8_t>(40 + round));
    ASSERT_EQ(grt_run(b.executor), GRT_OK) << grt_last_error(b.executor)->message;
    EXPECT_TRUE(output_is(b.executor, static_cast<int8_t>(40 + round)));
    EXPECT_EQ(grt_shared_pool_owner(&pool), nullptr) << "a run gives the pool back when it returns";
  }
}

TEST_F(RtosSharedPool, OneByteTooSmallForTheLargerPlanFailsAtInit) {
  const size_t bytes = shared_bytes(large_);
  tools::AlignedBytes buffer(bytes);
  grt_shared_pool pool;
  ASSERT_EQ(grt_shared_pool_init(&pool, "activations", buffer.data(), bytes - 1), GRT_OK);
  SharedRun a(small_, &pool, "model-a", &registry_.registry);
  EXPECT_EQ(a.status, GRT_OK) << a.error.message;
  SharedRun b(large_, &pool, "model-b", &registry_.registry);
  EXPECT_EQ(b.status, GRT_ERR_POOL_TOO_SMALL);
  const std::string expected = "shared pool 'activations' needs " + std::to_string(bytes) + " bytes for model 'copy_chain', " +
                               std::to_string(bytes - 1) + " given";
  EXPECT_EQ(std::string(b.error.message), expected);
}

TEST_F(RtosSharedPool, APoolNeverInitialisedIsRefusedAtInit) {
  grt_shared_pool pool{};  // zeroed, not through grt_shared_pool_init: it has no operations
  SharedRun a(small_, &pool, "model-a", &registry_.registry);
  EXPECT_EQ(a.status, GRT_ERR_ARGUMENT);
  EXPECT_STREQ(a.error.message, "shared pool is not initialised (grt_shared_pool_init)");
}

TEST_F(RtosSharedPool, RefusesOwnPoolBuffersOrDynamicStrategy) {
  tools::AlignedBytes buffer(shared_bytes(large_));
  grt_shared_pool pool;
  ASSERT_EQ(grt_shared_pool_init(&pool, nullptr, buffer.data(), buffer.size()), GRT_OK);
  grt_requirements r{};
  grt_error e{};
  ASSERT_EQ(grt_model_requirements(small_.data(), small_.size(), GRT_STRATEGY_STATIC, &r, &e), GRT_OK);
  tools::AlignedBytes storage(r.bookkeeping_bytes);
  void* own = buffer.data();
  size_t own_size = buffer.size();
  grt_options options{};
  options.registry = &registry_.registry;
  options.shared_pool = &pool;
  options.memory.pool_buffers = &own;
  options.memory.pool_sizes = &own_size;
  options.memory.pool_count = 1;
  grt_executor* x = nullptr;
  EXPECT_EQ(grt_init(&x, storage.data(), storage.size(), small_.data(), small_.size(), &options, &e), GRT_ERR_ARGUMENT);
  EXPECT_STREQ(e.message, "a shared pool needs GRT_STRATEGY_STATIC and no pool_buffers of its own");
}

// A "copy" that parks in its first call, so the test knows the run holds the pool.
struct Parking {
  TVMBackendPackedCFunc copy = nullptr;
  std::atomic<int> calls{0};
  std::binary_semaphore parked{0};
  std::binary_semaphore resume{0};
};
Parking* g_parking = nullptr;  // test-only: the packed-function ABI has no user pointer here

int parking_copy(TVMValue* args, int* codes, int n, TVMValue* ret, int* ret_code, void* resource) {
  if (g_parking->calls.fetch_add(1) == 0) {
    g_parking->parked.release();
    g_parking->resume.acquire();
  }
  return g_parking->copy(args, codes, n, ret, ret_code, resource);
}

TEST_F(RtosSharedPool, SecondRunWhileTheFirstHoldsThePoolFailsBusyNamingTheHolder) {
  tools::AlignedBytes buffer(shared_bytes(large_));
  grt_shared_pool pool;
  ASSERT_EQ(grt_shared_pool_init(&pool, "activations", buffer.data(), buffer.size()), GRT_OK);
  Registry parking_registry;
  Parking parking;
  parking.copy = grt_registry_find(&parking_registry.registry, "copy", 4)->function;
  g_parking = &parking;
  ASSERT_EQ(grt_registry_add(&parking_registry.registry, "copy", parking_copy, nullptr), GRT_OK);
  SharedRun a(small_, &pool, "model-a", &parking_registry.registry);
  SharedRun b(large_, &pool, "model-b", &registry_.registry);
  ASSERT_EQ(a.status, GRT_OK) << a.error.message;
  ASSERT_EQ(b.status, GRT_OK) << b.error.message;
  fill_input(a.executor, 7);
  grt_status a_status = GRT_ERR_ARGUMENT;
  {
    SizedThread runner(64 * 1024, [&] { a_status = grt_run(a.executor); });
    ASSERT_TRUE(runner.started());
    parking.parked.acquire();  // a is inside its first kernel: it holds the pool
    EXPECT_EQ(grt_shared_pool_owner(&pool), a.executor);
    EXPECT_EQ(grt_run(b.executor), GRT_ERR_BUSY);
    EXPECT_STREQ(grt_last_error(b.executor)->message,
                 "shared pool 'activations' is held by executor 'model-a': run of executor 'model-b' refused");
    EXPECT_EQ(grt_shared_pool_acquire(&pool, b.executor), GRT_ERR_BUSY);
    parking.resume.release();
  }
  EXPECT_EQ(a_status, GRT_OK) << grt_last_error(a.executor)->message;
  EXPECT_TRUE(output_is(a.executor, 7)) << "b's refused run touched nothing";
  EXPECT_EQ(grt_shared_pool_owner(&pool), nullptr);
  fill_input(b.executor, 9);
  EXPECT_EQ(grt_run(b.executor), GRT_OK) << grt_last_error(b.executor)->message;
  EXPECT_TRUE(output_is(b.executor, 9));
  g_parking = nullptr;
}

TEST_F(RtosSharedPool, ExplicitAcquireHandOverAndRelease) {
  tools::AlignedBytes buffer(shared_bytes(large_));
  grt_shared_pool pool;
  ASSERT_EQ(grt_shared_pool_init(&pool, "activations", buffer.data(), buffer.size()), GRT_OK);
  SharedRun a(small_, &pool, "model-a", &registry_.registry);
  SharedRun b(large_, &pool, nullptr, &registry_.registry);  // named after its model
  ASSERT_EQ(a.status, GRT_OK) << a.error.message;
  ASSERT_EQ(b.status, GRT_OK) << b.error.message;
  EXPECT_STREQ(grt_executor_name(b.executor), "copy_chain");

  ASSERT_EQ(grt_shared_pool_acquire(&pool, a.executor), GRT_OK);
  EXPECT_EQ(grt_shared_pool_acquire(&pool, a.executor), GRT_OK) << "acquiring twice is harmless";
  fill_input(a.executor, 3);
  EXPECT_EQ(grt_run(a.executor), GRT_OK);
  EXPECT_EQ(grt_shared_pool_owner(&pool), a.executor) << "a run keeps a pool its executor acquired";
  EXPECT_EQ(grt_run(b.executor), GRT_ERR_BUSY);
  EXPECT_TRUE(output_is(a.executor, 3));

  ASSERT_EQ(grt_shared_pool_hand_over(&pool, a.executor, b.executor), GRT_OK);
  EXPECT_EQ(grt_shared_pool_owner(&pool), b.executor);
  EXPECT_EQ(grt_run(a.executor), GRT_ERR_BUSY);
  EXPECT_STREQ(grt_last_error(a.executor)->message,
               "shared pool 'activations' is held by executor 'copy_chain': run of executor 'model-a' refused");
  EXPECT_EQ(grt_shared_pool_hand_over(&pool, a.executor, b.executor), GRT_ERR_BUSY);
  EXPECT_EQ(grt_shared_pool_release(&pool, a.executor), GRT_ERR_ARGUMENT);
  EXPECT_STREQ(grt_last_error(a.executor)->message,
               "executor 'model-a' releases shared pool 'activations' but executor 'copy_chain' holds it");
  fill_input(b.executor, 5);
  EXPECT_EQ(grt_run(b.executor), GRT_OK);
  EXPECT_TRUE(output_is(b.executor, 5));
  EXPECT_EQ(grt_shared_pool_release(&pool, b.executor), GRT_OK);
  EXPECT_EQ(grt_shared_pool_owner(&pool), nullptr);
  EXPECT_EQ(grt_shared_pool_release(&pool, b.executor), GRT_ERR_ARGUMENT);
}

TEST_F(RtosSharedPool, AnExecutorNotBoundToThePoolCannotTakeIt) {
  tools::AlignedBytes buffer(shared_bytes(large_));
  grt_shared_pool pool;
  ASSERT_EQ(grt_shared_pool_init(&pool, "activations", buffer.data(), buffer.size()), GRT_OK);
  StaticRun unbound(small_);
  ASSERT_EQ(unbound.status, GRT_OK);
  EXPECT_EQ(grt_shared_pool_acquire(&pool, unbound.executor), GRT_ERR_ARGUMENT);
  EXPECT_STREQ(grt_last_error(unbound.executor)->message,
               "executor 'copy_chain' is not bound to shared pool 'activations'");
  EXPECT_EQ(grt_shared_pool_owner(&pool), nullptr);
}

// Two threads run their executors over one shared pool as fast as they can: every run
// either completes correctly or is refused with GRT_ERR_BUSY, and no two kernels of
// different executors are ever inside the pool at once (and ThreadSanitizer sees no race).
std::atomic<int> g_inside{0};
std::atomic<int> g_overlaps{0};
TVMBackendPackedCFunc g_builtin_copy = nullptr;

int exclusive_copy(TVMValue* args, int* codes, int n, TVMValue* ret, int* ret_code, void* resource) {
  if (g_inside.fetch_add(1) != 0) g_overlaps.fetch_add(1);
  const int rc = g_builtin_copy(args, codes, n, ret, ret_code, resource);
  g_inside.fetch_sub(1);
  return rc;
}

TEST_F(RtosSharedPool, ConcurrentRunsNeverOverlap) {
  tools::AlignedBytes buffer(shared_bytes(large_));
  grt_shared_pool pool;
  ASSERT_EQ(grt_shared_pool_init(&pool, "activations", buffer.data(), buffer.size()), GRT_OK);
  Registry registry;
  g_builtin_copy = grt_registry_find(&registry.registry, "copy", 4)->function;
  ASSERT_EQ(grt_registry_add(&registry.registry, "copy", exclusive_copy, nullptr), GRT_OK);
  SharedRun a(small_, &pool, "model-a", &registry.registry);
  SharedRun b(large_, &pool, "model-b", &registry.registry);
  ASSERT_EQ(a.status, GRT_OK);
  ASSERT_EQ(b.status, GRT_OK);
  struct Tally {
    int ok = 0, busy = 0, wrong = 0;
  };
  Tally ta, tb;
  auto loop = [&pool](grt_executor* x, Tally* t, int8_t base) {
    // At least 2000 rounds, and on until this thread has had the pool 50 times: under a
    // sanitizer on a loaded machine one thread can otherwise finish before the other starts.
    for (int i = 0; i < 2000 || (t->ok < 50 && i < 1000000); ++i) {
      // Hold the pool from inputs to outputs, as the contract asks.
      if (grt_shared_pool_acquire(&pool, x) != GRT_OK) {
        ++t->busy;
        std::this_thread::yield();
        continue;
      }
      fill_input(x, base);
      const grt_status s = grt_run(x);
      if (s != GRT_OK || !output_is(x, base)) ++t->wrong;
      ++t->ok;
      grt_shared_pool_release(&pool, x);
      const grt_status unheld = grt_run(x);  // takes and gives back the pool by itself
      if (unheld == GRT_ERR_BUSY) ++t->busy;
      else if (unheld != GRT_OK) ++t->wrong;
    }
  };
  {
    SizedThread ra(64 * 1024, [&] { loop(a.executor, &ta, 11); });
    SizedThread rb(64 * 1024, [&] { loop(b.executor, &tb, 22); });
  }
  EXPECT_EQ(g_overlaps.load(), 0);
  EXPECT_EQ(ta.wrong + tb.wrong, 0);
  EXPECT_GT(ta.ok, 0);
  EXPECT_GT(tb.ok, 0);
  EXPECT_EQ(grt_shared_pool_owner(&pool), nullptr);
}

// Real models: two different zoo blobs over one shared buffer, in turn, against TFLM.
TEST(RtosSharedPoolZoo, TwoRealModelsShareOneBufferAndMatchGolden) {
  GRT_REQUIRE_ZOO(zoo);
  ZooModel kws, ad;
  std::string error;
  ASSERT_TRUE(load_zoo_model(zoo, "mlperf_kws_dscnn_int8", &kws, &error)) << error;
  ASSERT_TRUE(load_zoo_model(zoo, "mlperf_ad_autoencoder_int8", &ad, &error)) << error;
  tools::AlignedBytes buffer(std::max(shared_bytes(kws.blob), shared_bytes(ad.blob)));
  grt_shared_pool pool;
  ASSERT_EQ(grt_shared_pool_init(&pool, "activations", buffer.data(), buffer.size()), GRT_OK);
  Registry registry;
  SharedRun k(kws.blob, &pool, "kws", &registry.registry);
  SharedRun a(ad.blob, &pool, "anomaly", &registry.registry);
  ASSERT_EQ(k.status, GRT_OK) << k.error.message;
  ASSERT_EQ(a.status, GRT_OK) << a.error.message;
  const size_t cases = std::max(kws.golden.cases.size(), ad.golden.cases.size());
  for (size_t c = 0; c < cases; ++c) {
    const GoldenCase& kc = kws.golden.cases[c % kws.golden.cases.size()];
    const GoldenCase& ac = ad.golden.cases[c % ad.golden.cases.size()];
    ASSERT_EQ(grt_shared_pool_acquire(&pool, k.executor), GRT_OK);
    set_inputs(k.executor, kc);
    ASSERT_EQ(grt_run(k.executor), GRT_OK) << grt_last_error(k.executor)->message;
    EXPECT_EQ(check_outputs(k.executor, kws.golden, kc), "") << "case " << c;
    ASSERT_EQ(grt_shared_pool_hand_over(&pool, k.executor, a.executor), GRT_OK);
    set_inputs(a.executor, ac);
    ASSERT_EQ(grt_run(a.executor), GRT_OK) << grt_last_error(a.executor)->message;
    EXPECT_EQ(check_outputs(a.executor, ad.golden, ac), "") << "case " << c;
    ASSERT_EQ(grt_shared_pool_release(&pool, a.executor), GRT_OK);
  }
}

}  // namespace
}  // namespace grt::test
