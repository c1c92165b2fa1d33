/* graphrt's platform port for FreeRTOS (platform/freertos/platform_freertos.cpp).
 *
 * The slot that tells TVM's backend calls which executor runs (grt_platform_current_slot)
 * is one pointer per task. FreeRTOS keeps per-task pointers in thread-local storage, but
 * hands out their values, not their addresses, so each task that calls grt_init or
 * grt_run gives the port a cell of its own once, before its first call:
 *
 *   static void* slot;              // or a member of the task's own context
 *   grt_freertos_bind_slot(&slot);
 *
 * The inference task (graphrt/freertos_inference.h) does this for itself. Before the
 * scheduler starts there is one thread of execution and the port uses a plain variable, so
 * executors can be initialised in main(). A task that runs graphrt without a bound slot is
 * stopped through grt_platform_abort, with its name in the message.
 *
 * Ticks come from the kernel's tick count extended to 64 bits (overflows x 2^bits + count),
 * or from grtconfigTICKS() / grtconfigTICKS_PER_SECOND if FreeRTOSConfig.h defines them
 * (e.g. a cycle counter). grt_platform_yield is taskYIELD. Logging and the fatal stop are
 * the application's, as on every board: it defines the two functions below. */
#ifndef GRAPHRT_FREERTOS_PLATFORM_H_
#define GRAPHRT_FREERTOS_PLATFORM_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Makes *cell the calling task's graphrt slot (its thread-local storage pointer
 * grtconfigTLS_INDEX, 0 unless FreeRTOSConfig.h says otherwise). The cell must live as
 * long as the task. */
void grt_freertos_bind_slot(void** cell);

/* Defined by the application: write one line of diagnostics (UART, RTT, semihosting). */
void grt_freertos_log(const char* message);
/* Defined by the application: stop after an unrecoverable fault. Must not return. */
void grt_freertos_fatal(const char* reason);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_FREERTOS_PLATFORM_H_ */
