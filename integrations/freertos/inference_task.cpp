// The inference task: receive a request, copy its input, run, post the result. The
// executor's before_node hook is where a long run yields, feeds the watchdog and stops.
#include <string.h>

#include "graphrt/freertos_inference.h"
#include "graphrt/freertos_platform.h"

#if configSUPPORT_STATIC_ALLOCATION != 1
#error "the graphrt inference task is created with static memory: set configSUPPORT_STATIC_ALLOCATION to 1"
#endif

namespace {

int before_node(void* user, uint32_t node) {
  auto* self = static_cast<grt_freertos_inference*>(user);
  if (self->config.watchdog != nullptr) self->config.watchdog(self->config.watchdog_user);
  if (self->config.yield_every != 0 && ++self->nodes_since_yield >= self->config.yield_every) {
    self->nodes_since_yield = 0;
    taskYIELD();
  }
  // Unsigned difference: right across a tick counter wrap.
  if (self->run_timeout != 0 && xTaskGetTickCount() - self->run_started >= self->run_timeout) return 1;
  const grt_hooks* user_hooks = self->user_hooks;
  if (user_hooks != nullptr && user_hooks->before_node != nullptr) return user_hooks->before_node(user_hooks->user, node);
  return 0;
}

void node_done(void* user, uint32_t node, const char* kernel, uint64_t ticks) {
  const grt_hooks* user_hooks = static_cast<grt_freertos_inference*>(user)->user_hooks;
  user_hooks->node_done(user_hooks->user, node, kernel, ticks);
}

grt_status copy_input(grt_executor* x, const grt_freertos_request& request) {
  if (request.input == nullptr) return GRT_OK;
  DLTensor* input = grt_input(x, 0);
  if (input == nullptr || request.input_bytes != grt_tensor_bytes(input)) return GRT_ERR_ARGUMENT;
  memcpy(input->data, request.input, request.input_bytes);
  return GRT_OK;
}

void serve(void* parameter) {
  auto* self = static_cast<grt_freertos_inference*>(parameter);
  grt_freertos_bind_slot(&self->slot);
  for (;;) {
    grt_freertos_request request;
    if (xQueueReceive(self->requests, &request, portMAX_DELAY) != pdTRUE) continue;
    grt_freertos_result result{};
    result.tag = request.tag;
    result.status = copy_input(self->executor, request);
    if (result.status == GRT_OK) {
      self->run_started = xTaskGetTickCount();
      self->run_timeout = request.timeout;
      self->nodes_since_yield = 0;
      result.status = grt_run(self->executor);
    }
    result.error = grt_last_error(self->executor);
    const DLTensor* output = grt_output(self->executor, 0);
    if (output != nullptr) {
      result.output = output->data;
      result.output_bytes = grt_tensor_bytes(output);
    }
    xQueueSend(self->results, &result, portMAX_DELAY);
  }
}

}  // namespace

extern "C" {

grt_status grt_freertos_inference_init(grt_freertos_inference* self, const grt_freertos_task_config* config,
                                       void* storage, size_t storage_size, const void* blob, size_t blob_size,
                                       const grt_options* options, grt_error* error) {
  if (self == nullptr || config == nullptr || config->stack == nullptr || options == nullptr) return GRT_ERR_ARGUMENT;
  memset(self, 0, sizeof(*self));
  self->config = *config;
  self->user_hooks = options->hooks;
  self->hooks.before_node = before_node;
  if (options->hooks != nullptr && options->hooks->node_done != nullptr) self->hooks.node_done = node_done;
  self->hooks.user = self;
  grt_options with_hooks = *options;
  with_hooks.hooks = &self->hooks;
  const grt_status s = grt_init(&self->executor, storage, storage_size, blob, blob_size, &with_hooks, error);
  if (s != GRT_OK) return s;
  self->requests = xQueueCreateStatic(1, sizeof(grt_freertos_request), self->request_slot, &self->request_queue);
  self->results = xQueueCreateStatic(1, sizeof(grt_freertos_result), self->result_slot, &self->result_queue);
  self->task = xTaskCreateStatic(serve, config->name, config->stack_depth, self, config->priority, config->stack,
                                 &self->task_storage);
  return GRT_OK;
}

BaseType_t grt_freertos_inference_submit(grt_freertos_inference* self, const grt_freertos_request* request,
                                         TickType_t wait) {
  return xQueueSend(self->requests, request, wait);
}

BaseType_t grt_freertos_inference_wait(grt_freertos_inference* self, grt_freertos_result* result, TickType_t wait) {
  return xQueueReceive(self->results, result, wait);
}

void grt_freertos_inference_cancel(grt_freertos_inference* self) { grt_cancel(self->executor); }

grt_executor* grt_freertos_inference_executor(grt_freertos_inference* self) { return self->executor; }

}  // extern "C"
