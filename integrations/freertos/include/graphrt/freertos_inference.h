/* An inference task: one FreeRTOS task, created with static memory, that owns one executor,
 * waits for requests on a queue, runs them and posts each result on a second queue.
 *
 *   grt_freertos_inference kws;                  (static: it holds the task and queues)
 *   grt_freertos_inference_init(&kws, &config, storage, sizeof storage, model, model_size,
 *                               &options, &err); (grt_init + xTaskCreateStatic)
 *   grt_freertos_request request = {features, sizeof features, 0, NULL};
 *   grt_freertos_inference_submit(&kws, &request, portMAX_DELAY);
 *   grt_freertos_result result;
 *   grt_freertos_inference_wait(&kws, &result, portMAX_DELAY);
 *   if (result.status == GRT_OK) use(result.output, result.output_bytes);
 *
 * Between nodes the task feeds the watchdog callback, yields every `yield_every` nodes
 * (taskYIELD: equal-priority tasks get the CPU in the middle of a long inference), stops
 * at a request's timeout, and honours grt_freertos_inference_cancel, which an interrupt
 * may call. A stopped run returns GRT_ERR_CANCELLED; the executor is ready for the next
 * request. One request is processed at a time; a result's output stays valid until the
 * task takes the next request, so read it before submitting again. */
#ifndef GRAPHRT_FREERTOS_INFERENCE_H_
#define GRAPHRT_FREERTOS_INFERENCE_H_

#include "FreeRTOS.h"
#include "queue.h"
#include "task.h"

#include "graphrt/graphrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_freertos_request {
  const void* input;      /* copied into input 0 before the run; NULL: inputs already written */
  size_t input_bytes;     /* must equal input 0's size when input is given */
  TickType_t timeout;     /* ticks from the start of the run after which it stops; 0: none */
  void* tag;              /* returned in the result, to match results with requests */
} grt_freertos_request;

typedef struct grt_freertos_result {
  grt_status status;
  const grt_error* error; /* the executor's error (its message names node and kernel) */
  const void* output;     /* output 0, in the executor's memory */
  size_t output_bytes;
  void* tag;
} grt_freertos_result;

typedef struct grt_freertos_task_config {
  const char* name;                  /* task name */
  UBaseType_t priority;
  StackType_t* stack;                /* stack_depth words, must outlive the task */
  configSTACK_DEPTH_TYPE stack_depth;
  uint32_t yield_every;              /* taskYIELD after this many nodes; 0: never */
  void (*watchdog)(void* user);      /* called before every node; NULL: none */
  void* watchdog_user;
} grt_freertos_task_config;

typedef struct grt_freertos_inference {
  /* Private: everything the task needs, so that nothing is allocated. */
  grt_freertos_task_config config;
  grt_executor* executor;
  grt_hooks hooks;                   /* what the executor calls: the task's, then the user's */
  const grt_hooks* user_hooks;       /* grt_options.hooks given to init, may be NULL */
  void* slot;                        /* this task's graphrt slot */
  TickType_t run_started;
  TickType_t run_timeout;
  uint32_t nodes_since_yield;
  TaskHandle_t task;
  QueueHandle_t requests;
  QueueHandle_t results;
  StaticTask_t task_storage;
  StaticQueue_t request_queue;
  StaticQueue_t result_queue;
  uint8_t request_slot[sizeof(grt_freertos_request)];
  uint8_t result_slot[sizeof(grt_freertos_result)];
} grt_freertos_inference;

/* grt_init(storage, blob, options) with the task's hooks placed in front of
 * options->hooks (which are still called), then the queues and the task, all static.
 * Call it from main() before the scheduler starts or from a task with a bound slot. */
grt_status grt_freertos_inference_init(grt_freertos_inference* inference, const grt_freertos_task_config* config,
                                       void* storage, size_t storage_size, const void* blob, size_t blob_size,
                                       const grt_options* options, grt_error* error);

/* Queues a request (copied); pdFALSE if the queue stayed full for `wait` ticks. */
BaseType_t grt_freertos_inference_submit(grt_freertos_inference* inference, const grt_freertos_request* request,
                                         TickType_t wait);

/* Takes the next result; pdFALSE if none came within `wait` ticks. */
BaseType_t grt_freertos_inference_wait(grt_freertos_inference* inference, grt_freertos_result* result, TickType_t wait);

/* Stops the run in progress at the next node boundary. Safe from an interrupt. */
void grt_freertos_inference_cancel(grt_freertos_inference* inference);

/* The executor, e.g. to write several inputs before submitting a request with input NULL
 * (only while no request is queued or running). */
grt_executor* grt_freertos_inference_executor(grt_freertos_inference* inference);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_FREERTOS_INFERENCE_H_ */
