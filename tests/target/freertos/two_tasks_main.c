/* Two FreeRTOS tasks on the Cortex-M4F, each with its own executor over ONE blob in flash
 * (KWS): one on the plan's static pool, one on a page allocator shared behind a FreeRTOS
 * mutex (grt_locked_allocator). Both run TFLM's golden cases at the same priority, so the
 * kernel time-slices them every tick in the middle of inferences, and compare every output
 * byte for byte. Each task's stack high-water mark is printed. Exit code 0 only if every run
 * matched, the runs did overlap, and no stack overflowed (the hook exits with 4). */
#include <stdint.h>
#include <string.h>

#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

#include "console.h"
#include "golden_runner.h"
#include "graphrt/freertos_platform.h"
#include "graphrt/graphrt.h"
#include "graphrt/locked_allocator.h"
#include "graphrt/page_allocator.h"
#include "semihosting.h"

extern const unsigned char fw_model_blob[];
extern const size_t fw_model_blob_size;

enum {
  kRounds = 2,                /* every golden case, this many times, in each task */
  kWorkerStackWords = 1024,   /* 4 KiB: grt_init and grt_run with room to spare */
  kSupervisorStackWords = 512,
  kWorkerPriority = tskIDLE_PRIORITY + 1,
  kSupervisorPriority = tskIDLE_PRIORITY + 2,
  kPageSize = 64,
  kPageCount = 1024,          /* 64 KiB of pages: KWS without reuse fits */
  kPagedBookkeepingWords = 256
};

typedef struct worker {
  const char* name;
  grt_options options;
  void* bookkeeping;
  size_t bookkeeping_size;
  void* slot;                 /* this task's graphrt slot */
  grt_executor* executor;
  volatile int in_run;        /* read by the other worker */
  const struct worker* other;
  uint32_t matched_runs;
  uint32_t failures;
  uint32_t overlapping_runs;  /* runs started while the other task was inside grt_run */
  UBaseType_t free_words_before_runs;
  TaskHandle_t task;
  StaticTask_t task_storage;
  StackType_t stack[kWorkerStackWords];
} worker;

/* The test's state, reached from task entry points; everything is static, nothing is
 * allocated. */
static grt_registry registry;
static worker static_worker, paged_worker;
static uint64_t paged_bookkeeping[kPagedBookkeepingWords];
static uint8_t page_arena[kPageCount * (kPageSize + GRT_PAGE_METADATA_BYTES_PER_PAGE)] __attribute__((aligned(kPageSize)));
static grt_page_allocator pages;
static grt_allocator pages_view;
static grt_locked_allocator locked_pages;
static grt_allocator shared_pages;
static StaticSemaphore_t pages_mutex_storage, done_storage;
static SemaphoreHandle_t pages_mutex, done;
static StaticTask_t supervisor_storage;
static StackType_t supervisor_stack[kSupervisorStackWords];

static void take_pages(void* mutex) { xSemaphoreTake((SemaphoreHandle_t)mutex, portMAX_DELAY); }
static void give_pages(void* mutex) { xSemaphoreGive((SemaphoreHandle_t)mutex); }

static void report_failure(const worker* w, const char* what, const char* detail, uint32_t golden_case) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, w->name);
  fw_line_text(&line, ": case ");
  fw_line_u32(&line, golden_case + 1);
  fw_line_text(&line, ": ");
  fw_line_text(&line, what);
  fw_line_text(&line, detail);
  fw_line_end(&line);
}

static void run_golden_cases(worker* w) {
  for (uint32_t round = 0; round < kRounds; ++round) {
    for (uint32_t c = 0; c < fw_golden.case_count; ++c) {
      if (!fw_golden_write_inputs(w->executor, &fw_golden, c)) {
        report_failure(w, "input size differs from the golden case", "", c);
        ++w->failures;
        continue;
      }
      if (w->other->in_run) ++w->overlapping_runs;
      w->in_run = 1;
      const grt_status status = grt_run(w->executor);
      w->in_run = 0;
      uint32_t digest = 0;
      if (status != GRT_OK) {
        report_failure(w, "run failed: ", grt_last_error(w->executor)->message, c);
        ++w->failures;
      } else if (!fw_golden_outputs_match(w->executor, &fw_golden, c, &digest)) {
        report_failure(w, "outputs differ from TFLM", "", c);
        ++w->failures;
      } else {
        ++w->matched_runs;
      }
    }
  }
}

static void worker_task(void* parameter) {
  worker* w = (worker*)parameter;
  grt_error error;
  grt_freertos_bind_slot(&w->slot);
  if (grt_init(&w->executor, w->bookkeeping, w->bookkeeping_size, fw_model_blob, fw_model_blob_size, &w->options,
               &error) != GRT_OK) {
    report_failure(w, "init failed: ", error.message, 0);
    ++w->failures;
  } else {
    w->free_words_before_runs = uxTaskGetStackHighWaterMark(NULL);
    run_golden_cases(w);
  }
  xSemaphoreGive(done);
  vTaskSuspend(NULL);
}

/* "<name>: N/M runs matched TFLM, K started while the other task was in grt_run; stack
 * high water U of S bytes (B before the first grt_run)" */
static void report_worker(const worker* w, uint32_t expected_runs) {
  const uint32_t stack_bytes = kWorkerStackWords * sizeof(StackType_t);
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, w->name);
  fw_line_text(&line, ": ");
  fw_line_u32(&line, w->matched_runs);
  fw_line_text(&line, "/");
  fw_line_u32(&line, expected_runs);
  fw_line_text(&line, " runs matched TFLM, ");
  fw_line_u32(&line, w->overlapping_runs);
  fw_line_text(&line, " started while the other task was in grt_run");
  fw_line_end(&line);
  fw_line_begin(&line);
  fw_line_text(&line, w->name);
  fw_line_text(&line, ": stack high water ");
  fw_line_u32(&line, stack_bytes - (uint32_t)(uxTaskGetStackHighWaterMark(w->task) * sizeof(StackType_t)));
  fw_line_text(&line, " of ");
  fw_line_u32(&line, stack_bytes);
  fw_line_text(&line, " bytes (");
  fw_line_u32(&line, stack_bytes - (uint32_t)(w->free_words_before_runs * sizeof(StackType_t)));
  fw_line_text(&line, " after grt_init, before the first grt_run)");
  fw_line_end(&line);
}

static void supervisor_task(void* parameter) {
  (void)parameter;
  xSemaphoreTake(done, portMAX_DELAY);
  xSemaphoreTake(done, portMAX_DELAY);
  const uint32_t expected_runs = kRounds * fw_golden.case_count;
  report_worker(&static_worker, expected_runs);
  report_worker(&paged_worker, expected_runs);

  grt_page_stats stats;
  grt_page_get_stats(&pages, &stats);
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "page allocator: peak ");
  fw_line_u32(&line, (uint32_t)stats.peak_pages);
  fw_line_text(&line, " of ");
  fw_line_u32(&line, (uint32_t)stats.page_count);
  fw_line_text(&line, " pages of ");
  fw_line_u32(&line, (uint32_t)stats.page_size);
  fw_line_text(&line, " bytes, ");
  fw_line_u32(&line, (uint32_t)stats.failed_requests);
  fw_line_text(&line, " failed requests");
  fw_line_end(&line);

  const int overlapped = static_worker.overlapping_runs + paged_worker.overlapping_runs > 0;
  const int passed = static_worker.failures == 0 && paged_worker.failures == 0 &&
                     static_worker.matched_runs == expected_runs && paged_worker.matched_runs == expected_runs &&
                     overlapped;
  if (!overlapped) fw_print("FAIL: the two tasks never ran inferences at the same time");
  fw_print(passed ? "PASS two FreeRTOS tasks, one blob, static pool and page allocator, bit-exact"
                  : "FAIL two FreeRTOS tasks");
  grt_semihosting_exit(passed ? 0 : 1);
}

/* configCHECK_FOR_STACK_OVERFLOW 2: called at a context switch from a task whose stack
 * overflowed. Here no task may. */
void vApplicationStackOverflowHook(TaskHandle_t task, char* name) {
  (void)task;
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "FAIL: stack overflow in task '");
  fw_line_text(&line, name);
  fw_line_text(&line, "'");
  fw_line_end(&line);
  grt_semihosting_exit(4);
}

static void create_worker(worker* w, const char* name, const worker* other) {
  w->name = name;
  w->other = other;
  w->task = xTaskCreateStatic(worker_task, name, kWorkerStackWords, w, kWorkerPriority, w->stack, &w->task_storage);
}

int main(void) {
  grt_registry_init(&registry, NULL, 0, &fw_model_kernels);

  static_worker.options.registry = &registry;
  static_worker.options.memory.strategy = GRT_STRATEGY_STATIC;
  static_worker.options.memory.pool_buffers = fw_golden.pools;
  static_worker.options.memory.pool_sizes = fw_golden.pool_sizes;
  static_worker.options.memory.pool_count = fw_golden.pool_count;
  static_worker.bookkeeping = fw_golden.bookkeeping;
  static_worker.bookkeeping_size = fw_golden.bookkeeping_size;

  grt_page_init_buffer(&pages, page_arena, sizeof page_arena, kPageSize, GRT_PAGE_FIRST_FIT);
  pages_view = grt_page_as_allocator(&pages);
  pages_mutex = xSemaphoreCreateMutexStatic(&pages_mutex_storage);
  grt_locked_init(&locked_pages, &pages_view, take_pages, give_pages, pages_mutex);
  shared_pages = grt_locked_as_allocator(&locked_pages);
  paged_worker.options.registry = &registry;
  paged_worker.options.memory.strategy = GRT_STRATEGY_DYNAMIC;
  paged_worker.options.memory.allocator = &shared_pages;
  paged_worker.bookkeeping = paged_bookkeeping;
  paged_worker.bookkeeping_size = sizeof paged_bookkeeping;

  done = xSemaphoreCreateCountingStatic(2, 0, &done_storage);
  create_worker(&static_worker, "kws-static", &paged_worker);
  create_worker(&paged_worker, "kws-pages", &static_worker);
  xTaskCreateStatic(supervisor_task, "supervisor", kSupervisorStackWords, NULL, kSupervisorPriority,
                    supervisor_stack, &supervisor_storage);
  vTaskStartScheduler();
  fw_print("FAIL: the FreeRTOS scheduler returned");
  return 1;
}
