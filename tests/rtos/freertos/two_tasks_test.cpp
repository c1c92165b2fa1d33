// Two inference tasks in real FreeRTOS (the kernel's POSIX port), each with its own
// executor over ONE blob of a real model: one on a static pool, one on a page allocator
// shared behind the locking wrapper (a FreeRTOS mutex). Two client tasks feed them TFLM's
// golden cases at the same time; then a run is cancelled from another task at a node
// boundary, and one stops at its timeout, and each executor serves the next request
// correctly. Exit code: 0 pass, 1 fail, 77 skipped (no model zoo).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

#include "graphrt/freertos_inference.h"
#include "graphrt/freertos_platform.h"
#include "graphrt/locked_allocator.h"
#include "graphrt/page_allocator.h"
#include "test_models.h"
#include "zoo.h"
#include "zoo_model.h"

namespace grt::test {
namespace {

constexpr int kRounds = 3;
constexpr uint32_t kParkNode = 3;
// Long enough that node 0 always starts in time, even on a loaded host.
constexpr TickType_t kTimeoutTicks = 20;

struct Mutex {
  StaticSemaphore_t storage;
  SemaphoreHandle_t handle;
};
void take(void* m) { xSemaphoreTake(static_cast<Mutex*>(m)->handle, portMAX_DELAY); }
void give(void* m) { xSemaphoreGive(static_cast<Mutex*>(m)->handle); }

// What the dynamic task's own before_node hook does, chained behind the inference task's.
struct Interference {
  volatile bool park = false;   // at kParkNode: signal `parked`, wait for `resume`
  volatile bool stall = false;  // at node 0: sleep longer than the request's timeout
  StaticSemaphore_t parked_storage, resume_storage;
  SemaphoreHandle_t parked, resume;
};

int interfere(void* user, uint32_t node) {
  auto* f = static_cast<Interference*>(user);
  if (f->park && node == kParkNode) {
    xSemaphoreGive(f->parked);
    xSemaphoreTake(f->resume, portMAX_DELAY);
  }
  if (f->stall && node == 0) vTaskDelay(kTimeoutTicks + 5);
  return 0;
}

void count_feed(void* user) { ++*static_cast<unsigned*>(user); }

struct Client {
  const char* name;
  grt_freertos_inference* inference;
  const ZooModel* model;
  Interference* interference;  // NULL: golden rounds only
  std::vector<std::string> failures;
  int runs = 0;
  StaticTask_t task;
  StackType_t stack[2048];
};

struct Shared {
  StaticSemaphore_t done_storage;
  SemaphoreHandle_t done;
  StaticTask_t supervisor_task;
  StackType_t supervisor_stack[1024];
  void* slot = nullptr;
};
Shared g_shared;  // test harness state, reached from FreeRTOS task entry points

grt_freertos_result request(Client* c, const GoldenCase& golden_case, TickType_t timeout) {
  grt_freertos_request r{golden_case.inputs[0].data(), golden_case.inputs[0].size(), timeout, c};
  grt_freertos_result result{};
  if (grt_freertos_inference_submit(c->inference, &r, portMAX_DELAY) != pdTRUE ||
      grt_freertos_inference_wait(c->inference, &result, portMAX_DELAY) != pdTRUE || result.tag != c) {
    c->failures.push_back("request lost");
  }
  return result;
}

void golden_request(Client* c, const GoldenCase& golden_case) {
  const grt_freertos_result result = request(c, golden_case, 0);
  if (result.status != GRT_OK) {
    c->failures.push_back(std::string("run failed: ") + result.error->message);
    return;
  }
  const std::string problems =
      check_outputs(grt_freertos_inference_executor(c->inference), c->model->golden, golden_case);
  if (!problems.empty()) c->failures.push_back(problems);
  ++c->runs;
}

void expect_cancelled(Client* c, const grt_freertos_result& result, const char* message) {
  if (result.status != GRT_ERR_CANCELLED || std::strcmp(result.error->message, message) != 0) {
    c->failures.push_back(std::string("expected '") + message + "', got " + grt_status_name(result.status) + ": " +
                          result.error->message);
  }
}

void client_task(void* parameter) {
  auto* c = static_cast<Client*>(parameter);
  grt_freertos_bind_slot(&g_shared.slot);  // check_outputs reads the executor only; harmless
  for (int round = 0; round < kRounds; ++round) {
    for (const GoldenCase& golden_case : c->model->golden.cases) golden_request(c, golden_case);
  }
  if (c->interference != nullptr) {
    Interference* f = c->interference;
    const GoldenCase& first = c->model->golden.cases[0];
    // Cancelled from this task while the inference task is parked at node 3's boundary.
    f->park = true;
    grt_freertos_request r{first.inputs[0].data(), first.inputs[0].size(), 0, c};
    grt_freertos_inference_submit(c->inference, &r, portMAX_DELAY);
    xSemaphoreTake(f->parked, portMAX_DELAY);
    grt_freertos_inference_cancel(c->inference);
    f->park = false;
    xSemaphoreGive(f->resume);
    grt_freertos_result result{};
    grt_freertos_inference_wait(c->inference, &result, portMAX_DELAY);
    expect_cancelled(c, result, "cancelled before node 4");
    golden_request(c, first);
    // Node 0 outlasts the timeout: the run stops at the next boundary.
    f->stall = true;
    expect_cancelled(c, request(c, first, kTimeoutTicks), "cancelled before node 1");
    f->stall = false;
    golden_request(c, first);
  }
  xSemaphoreGive(g_shared.done);
  vTaskSuspend(nullptr);
}

void supervisor_task(void*) {
  xSemaphoreTake(g_shared.done, portMAX_DELAY);
  xSemaphoreTake(g_shared.done, portMAX_DELAY);
  vTaskEndScheduler();
}

int run_test() {
  const auto zoo = model_zoo();
  if (!zoo) {
    std::puts("SKIPPED: model zoo not found: set GRT_MODEL_ZOO to a folder with models/ and golden/");
    return 77;
  }
  ZooModel model;
  std::string error;
  if (!load_zoo_model(*zoo, "mlperf_kws_dscnn_int8", &model, &error)) {
    std::printf("FAIL: %s\n", error.c_str());
    return 1;
  }
  const Registry registry;
  grt_error err{};
  grt_requirements fixed{}, dynamic{};
  grt_model_requirements(model.blob.data(), model.blob.size(), GRT_STRATEGY_STATIC, &fixed, &err);
  grt_model_requirements(model.blob.data(), model.blob.size(), GRT_STRATEGY_DYNAMIC, &dynamic, &err);

  // Task A: its own static pool.
  static grt_freertos_inference a, b;
  static StackType_t a_stack[4096], b_stack[4096];
  tools::AlignedBytes a_storage(fixed.bookkeeping_bytes), a_pool(fixed.pool_bytes[0]);
  void* a_pools[] = {a_pool.data()};
  size_t a_sizes[] = {a_pool.size()};
  grt_options a_options{};
  a_options.registry = &registry.registry;
  a_options.memory.strategy = GRT_STRATEGY_STATIC;
  a_options.memory.pool_buffers = a_pools;
  a_options.memory.pool_sizes = a_sizes;
  a_options.memory.pool_count = 1;
  unsigned a_feeds = 0;
  const grt_freertos_task_config a_config{"kws-static", 2, a_stack, 4096, 1, count_feed, &a_feeds};
  if (grt_freertos_inference_init(&a, &a_config, a_storage.data(), a_storage.size(), model.blob.data(),
                                  model.blob.size(), &a_options, &err) != GRT_OK) {
    std::printf("FAIL: init A: %s\n", err.message);
    return 1;
  }

  // Task B: a page allocator that other tasks could share, behind a FreeRTOS mutex.
  constexpr size_t kPage = 64;
  tools::AlignedBytes arena(grt_page_buffer_bytes(dynamic.allocator_bytes / kPage + 64, kPage));
  grt_page_allocator pages;
  grt_page_init_buffer(&pages, arena.data(), arena.size(), kPage, GRT_PAGE_FIRST_FIT);
  const grt_allocator pages_view = grt_page_as_allocator(&pages);
  static Mutex mutex;
  mutex.handle = xSemaphoreCreateMutexStatic(&mutex.storage);
  grt_locked_allocator locked;
  grt_locked_init(&locked, &pages_view, take, give, &mutex);
  const grt_allocator shared_allocator = grt_locked_as_allocator(&locked);
  static Interference interference;
  interference.parked = xSemaphoreCreateBinaryStatic(&interference.parked_storage);
  interference.resume = xSemaphoreCreateBinaryStatic(&interference.resume_storage);
  const grt_hooks b_hooks{nullptr, interfere, &interference};
  tools::AlignedBytes b_storage(dynamic.bookkeeping_bytes);
  grt_options b_options{};
  b_options.registry = &registry.registry;
  b_options.memory.strategy = GRT_STRATEGY_DYNAMIC;
  b_options.memory.allocator = &shared_allocator;
  b_options.hooks = &b_hooks;
  const grt_freertos_task_config b_config{"kws-pages", 2, b_stack, 4096, 4, nullptr, nullptr};
  if (grt_freertos_inference_init(&b, &b_config, b_storage.data(), b_storage.size(), model.blob.data(),
                                  model.blob.size(), &b_options, &err) != GRT_OK) {
    std::printf("FAIL: init B: %s\n", err.message);
    return 1;
  }

  static Client ca{"static pool", &a, &model, nullptr, {}, 0, {}, {}};
  static Client cb{"page allocator", &b, &model, &interference, {}, 0, {}, {}};
  g_shared.done = xSemaphoreCreateCountingStatic(2, 0, &g_shared.done_storage);
  xTaskCreateStatic(client_task, "client-a", 2048, &ca, 3, ca.stack, &ca.task);
  xTaskCreateStatic(client_task, "client-b", 2048, &cb, 3, cb.stack, &cb.task);
  xTaskCreateStatic(supervisor_task, "supervisor", 1024, nullptr, 1, g_shared.supervisor_stack,
                    &g_shared.supervisor_task);
  vTaskStartScheduler();

  int failures = 0;
  for (const Client* c : {&ca, &cb}) {
    for (const std::string& f : c->failures) std::printf("FAIL (%s): %s\n", c->name, f.c_str());
    failures += static_cast<int>(c->failures.size());
  }
  const int expected_runs = kRounds * static_cast<int>(model.golden.cases.size());
  if (ca.runs != expected_runs || cb.runs != expected_runs + 2) {
    std::printf("FAIL: %d and %d golden runs, expected %d and %d\n", ca.runs, cb.runs, expected_runs, expected_runs + 2);
    ++failures;
  }
  const unsigned expected_feeds = static_cast<unsigned>(expected_runs) * grt_node_count(grt_freertos_inference_executor(&a));
  if (a_feeds != expected_feeds) {
    std::printf("FAIL: watchdog fed %u times, expected one per node: %u\n", a_feeds, expected_feeds);
    ++failures;
  }
  grt_page_stats stats{};
  grt_page_get_stats(&pages, &stats);
  std::printf("%d + %d golden runs in two FreeRTOS tasks, %u watchdog feeds, page allocator peak %zu pages\n", ca.runs,
              cb.runs, a_feeds, stats.peak_pages);
  std::puts(failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace grt::test

int main() { return grt::test::run_test(); }
