#include "cycle_counter.h"

#include "graphrt/platform.h"

#define DEMCR (*(volatile uint32_t*)0xE000EDFCu)
#define DWT_CTRL (*(volatile uint32_t*)0xE0001000u)
#define DWT_CYCCNT (*(volatile uint32_t*)0xE0001004u)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL_NOCYCCNT (1u << 25)
#define DWT_CTRL_CYCCNTENA 1u

void grt_cycle_counter_start(grt_cycle_counter* counter) {
  counter->source = GRT_CYCLES_SYSTICK;
  counter->last = 0;
  counter->high = 0;
  DEMCR |= DEMCR_TRCENA;
  if ((DWT_CTRL & DWT_CTRL_NOCYCCNT) != 0) return;
  DWT_CYCCNT = 0;
  DWT_CTRL |= DWT_CTRL_CYCCNTENA;
  /* A core (or an emulator) without a working counter reads 0 forever. */
  const uint32_t first = DWT_CYCCNT;
  for (volatile int i = 0; i < 16; ++i) {
  }
  if (DWT_CYCCNT != first) {
    counter->source = GRT_CYCLES_DWT;
    counter->last = DWT_CYCCNT;
  }
}

uint64_t grt_cycle_counter_read(grt_cycle_counter* counter) {
  if (counter->source != GRT_CYCLES_DWT) return grt_platform_ticks();
  const uint32_t now = DWT_CYCCNT;
  if (now < counter->last) counter->high += (uint64_t)1 << 32;
  counter->last = now;
  return counter->high | now;
}
