/* The few things graphrt needs from the machine it runs on. Each port (posix/, cortex-m/,
 * freertos/) implements all of them; nothing else in graphrt touches the OS or hardware. */
#ifndef GRAPHRT_PLATFORM_H_
#define GRAPHRT_PLATFORM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes one line of diagnostics (no trailing newline needed). */
void grt_platform_log(const char* message);

/* Stops the program after an unrecoverable fault. graphrt calls it only on broken
 * invariants of its own, never on bad input (bad input is a status code). */
void grt_platform_abort(const char* reason)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

/* A monotonic tick counter and its rate, for profiles. */
uint64_t grt_platform_ticks(void);
uint64_t grt_platform_ticks_per_second(void);

/* Called between nodes when an executor is configured to yield (see grt_hooks): lets a
 * long inference give up the CPU or feed a watchdog. */
void grt_platform_yield(void);

/* One pointer-sized slot per thread of execution, for the executor that is running on it.
 * TVM's C backend calls TVMBackendAllocWorkspace and TVMAPISetLastError without a context
 * argument; this slot is how those calls find their executor without global mutable
 * state shared between threads or tasks. Bare metal has one thread: a plain variable. */
void** grt_platform_current_slot(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_PLATFORM_H_ */
