/* Embedding graphrt in a FreeRTOS task: every byte is static, the task waits for requests,
 * a long inference yields and feeds the watchdog between nodes, and an interrupt may
 * cancel it. Built and run by tests/rtos/freertos (FREERTOS_KERNEL_PATH set). */
#include "inference_task_example.h"

#include <string.h>

#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

#include "graphrt/freertos_inference.h"
#include "graphrt/freertos_platform.h"
#include "graphrt/kernels.h"

static uint64_t bookkeeping[EXAMPLE_BOOKKEEPING_BYTES / 8];
static uint8_t activations[EXAMPLE_ACTIVATION_BYTES] __attribute__((aligned(16)));
static StackType_t inference_stack[1024];
static grt_registry registry;
static grt_freertos_inference inference;
static StaticSemaphore_t client_lock_storage;
static SemaphoreHandle_t client_lock; /* one request at a time, whichever task asks */
static volatile unsigned watchdog_feeds;

static void feed_watchdog(void* user) {
  (void)user;
  watchdog_feeds++; /* on a board: IWDG->KR = 0xAAAA; */
}

grt_status example_start(const void* model, size_t model_size, grt_error* error) {
  void* pools[1] = {activations};
  size_t pool_sizes[1] = {sizeof activations};
  grt_options options;
  grt_freertos_task_config task;

  grt_registry_init(&registry, NULL, 0, grt_builtin_kernels());
  memset(&options, 0, sizeof options);
  options.registry = &registry;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.memory.pool_buffers = pools;
  options.memory.pool_sizes = pool_sizes;
  options.memory.pool_count = 1;

  memset(&task, 0, sizeof task);
  task.name = "inference";
  task.priority = tskIDLE_PRIORITY + 2;
  task.stack = inference_stack;
  task.stack_depth = sizeof inference_stack / sizeof inference_stack[0];
  task.yield_every = 4;             /* let equal-priority tasks in every 4 nodes */
  task.watchdog = feed_watchdog;

  client_lock = xSemaphoreCreateMutexStatic(&client_lock_storage);
  return grt_freertos_inference_init(&inference, &task, bookkeeping, sizeof bookkeeping, model, model_size,
                                     &options, error);
}

int example_classify(const int8_t* features, size_t feature_bytes, int8_t* scores, size_t score_bytes) {
  grt_freertos_request request;
  grt_freertos_result result;
  int rc = -1;

  request.input = features;
  request.input_bytes = feature_bytes;
  request.timeout = pdMS_TO_TICKS(100); /* give up at a node boundary after 100 ms */
  request.tag = NULL;
  xSemaphoreTake(client_lock, portMAX_DELAY);
  if (grt_freertos_inference_submit(&inference, &request, portMAX_DELAY) == pdTRUE &&
      grt_freertos_inference_wait(&inference, &result, portMAX_DELAY) == pdTRUE) {
    if (result.status == GRT_OK && result.output_bytes <= score_bytes) {
      memcpy(scores, result.output, result.output_bytes); /* read before the next request */
      rc = 0;
    } else {
      grt_freertos_log(result.error->message);
    }
  }
  xSemaphoreGive(client_lock);
  return rc;
}

void example_cancel_from_isr(void) { grt_freertos_inference_cancel(&inference); }

unsigned example_watchdog_feeds(void) { return watchdog_feeds; }
