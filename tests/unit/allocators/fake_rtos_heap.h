/* A stand-in for an RTOS heap (FreeRTOS's heap_4 API): global functions over one static
 * array, no context pointer, 8-byte alignment. Only the tests implement it; on a device the
 * RTOS provides these. */
#ifndef GRAPHRT_TESTS_FAKE_RTOS_HEAP_H_
#define GRAPHRT_TESTS_FAKE_RTOS_HEAP_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FAKE_RTOS_HEAP_BYTES 16384u

void* pvPortMalloc(size_t size);
void vPortFree(void* ptr);
size_t xPortGetFreeHeapSize(void);
/* Tests only: forget every block, as after a reboot. */
void fake_rtos_heap_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_TESTS_FAKE_RTOS_HEAP_H_ */
