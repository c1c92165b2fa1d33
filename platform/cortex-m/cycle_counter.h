/* A 64-bit cycle count on a Cortex-M: DWT's CYCCNT where the core has one that counts (M3,
 * M4, M7, M33...), otherwise SysTick at the core clock (grt_platform_ticks, which the
 * bare-metal port runs from the processor clock). qemu implements no DWT, so under qemu
 * it is SysTick: with -icount shift=0 and a 25 MHz clock one cycle is 40 instructions. */
#ifndef GRAPHRT_CORTEX_M_CYCLE_COUNTER_H_
#define GRAPHRT_CORTEX_M_CYCLE_COUNTER_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grt_cycle_source {
  GRT_CYCLES_DWT = 1,    /* DWT CYCCNT, extended to 64 bits */
  GRT_CYCLES_SYSTICK = 2 /* SysTick at the core clock */
} grt_cycle_source;

/* The caller owns the counter's state (no global state in the port). */
typedef struct grt_cycle_counter {
  grt_cycle_source source;
  uint32_t last;  /* DWT: CYCCNT at the previous read */
  uint64_t high;  /* DWT: wraps seen, << 32 */
} grt_cycle_counter;

/* Starts DWT's counter if the core has one, else falls back to SysTick. */
void grt_cycle_counter_start(grt_cycle_counter* counter);
/* Cycles since an arbitrary point. DWT: must be read at least once per 2^32 cycles. */
uint64_t grt_cycle_counter_read(grt_cycle_counter* counter);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_CORTEX_M_CYCLE_COUNTER_H_ */
