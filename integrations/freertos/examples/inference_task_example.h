/* The example of docs/rtos.md: one inference task, used from any task or interrupt. */
#ifndef GRAPHRT_FREERTOS_INFERENCE_TASK_EXAMPLE_H_
#define GRAPHRT_FREERTOS_INFERENCE_TASK_EXAMPLE_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/graphrt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EXAMPLE_BOOKKEEPING_BYTES 4096 /* from `graphrt inspect model.grt` */
#define EXAMPLE_ACTIVATION_BYTES 1024

/* Binds the model to static memory and creates the inference task (before or after the
 * scheduler starts). */
grt_status example_start(const void* model, size_t model_size, grt_error* error);
/* From any task: runs one inference, copies output 0 into scores. 0 on success. */
int example_classify(const int8_t* features, size_t feature_bytes, int8_t* scores, size_t score_bytes);
/* From an interrupt (a button, a newer audio frame): abandon the inference in progress. */
void example_cancel_from_isr(void);
/* How often the inference task fed the watchdog. */
unsigned example_watchdog_feeds(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_FREERTOS_INFERENCE_TASK_EXAMPLE_H_ */
