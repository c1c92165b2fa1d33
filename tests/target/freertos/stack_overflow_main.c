/* A task whose stack is too small for grt_run is caught: FreeRTOS checks the stack of every
 * task it switches out (configCHECK_FOR_STACK_OVERFLOW 2: the stack pointer and the stack's
 * last 16 bytes) and calls vApplicationStackOverflowHook, which names the task and exits
 * with 0. If grt_run returns without that having happened, the image exits with 1.
 *
 * The executor is initialised in main, so the overflow comes from grt_run itself. The task
 * shares priority with the idle task, so the kernel switches it out at every tick in the
 * middle of the inference, where the check runs. */
#include <stdint.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "console.h"
#include "golden_runner.h"
#include "graphrt/freertos_platform.h"
#include "graphrt/graphrt.h"
#include "semihosting.h"

extern const unsigned char fw_model_blob[];
extern const size_t fw_model_blob_size;

enum {
  kSmallStackWords = 128, /* 512 bytes: grt_run on KWS goes about 1.4 KiB deep on this core */
  kLandingWords = 1024    /* where the overflowing frames land (below) */
};

/* The too-small stack sits on top of a landing area that belongs to this test, so the
 * frames that overflow it cannot damage the kernel's or the executor's memory before the
 * check sees them: the image tests that the overflow is caught, not what it breaks. */
static struct {
  StackType_t landing[kLandingWords];
  StackType_t stack[kSmallStackWords];
} small_stack;
static StaticTask_t small_task;
static grt_registry registry;
static grt_executor* executor;
static void* small_task_slot;

static void small_stack_task(void* parameter) {
  (void)parameter;
  grt_freertos_bind_slot(&small_task_slot);
  fw_golden_write_inputs(executor, &fw_golden, 0);
  const grt_status status = grt_run(executor);
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "FAIL: grt_run returned ");
  fw_line_text(&line, grt_status_name(status));
  fw_line_text(&line, " on a stack too small for it, and the overflow was not caught");
  fw_line_end(&line);
  grt_semihosting_exit(1);
}

void vApplicationStackOverflowHook(TaskHandle_t task, char* name) {
  (void)task;
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "PASS: stack overflow caught in task '");
  fw_line_text(&line, name);
  fw_line_text(&line, "' (");
  fw_line_u32(&line, kSmallStackWords * sizeof(StackType_t));
  fw_line_text(&line, "-byte stack) while it ran grt_run");
  fw_line_end(&line);
  grt_semihosting_exit(0);
}

int main(void) {
  grt_error error;
  grt_options options;
  memset(&options, 0, sizeof options);
  grt_registry_init(&registry, NULL, 0, &fw_model_kernels);
  options.registry = &registry;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.memory.pool_buffers = fw_golden.pools;
  options.memory.pool_sizes = fw_golden.pool_sizes;
  options.memory.pool_count = fw_golden.pool_count;
  if (grt_init(&executor, fw_golden.bookkeeping, fw_golden.bookkeeping_size, fw_model_blob, fw_model_blob_size,
               &options, &error) != GRT_OK) {
    fw_print(error.message);
    return 1;
  }
  xTaskCreateStatic(small_stack_task, "small-stack", kSmallStackWords, NULL, tskIDLE_PRIORITY, small_stack.stack,
                    &small_task);
  vTaskStartScheduler();
  fw_print("FAIL: the FreeRTOS scheduler returned");
  return 1;
}
