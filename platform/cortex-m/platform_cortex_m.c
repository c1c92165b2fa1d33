/* graphrt's platform contract on a bare-metal Cortex-M: semihosting for logs, SysTick at
 * the CPU clock for ticks, one thread. Under qemu -icount shift=0 each instruction takes
 * 1 ns of virtual time, so a 25 MHz clock (mps2-an385/an386/an500) ticks every 40
 * instructions and a 20 MHz one (mps2-an505) every 50: tick counts are deterministic. The
 * build gives the board's clock (platform/cortex-m/boards.cmake). */
#include <stdint.h>

#include "graphrt/platform.h"
#include "semihosting.h"

#define SYST_CSR (*(volatile uint32_t*)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t*)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t*)0xE000E018u)

#ifndef GRT_CORTEX_M_CPU_HZ
#define GRT_CORTEX_M_CPU_HZ 25000000u
#endif

enum { kCpuHz = GRT_CORTEX_M_CPU_HZ, kReload = 0x00FFFFFFu };

/* Hardware state of this port: SysTick wraps counted by its interrupt. */
static volatile uint32_t g_systick_wraps;
/* The only thread's executor slot (see platform.h). */
static void* g_current_executor;

void grt_cortex_m_tick_start(void) {
  SYST_RVR = kReload;
  SYST_CVR = 0;
  SYST_CSR = 0x7u; /* processor clock, interrupt on wrap, enabled */
}

void grt_cortex_m_tick_interrupt(void) { g_systick_wraps++; }

uint64_t grt_platform_ticks(void) {
  uint32_t wraps, current;
  do {
    wraps = g_systick_wraps;
    current = SYST_CVR;
  } while (wraps != g_systick_wraps);
  return (uint64_t)wraps * (kReload + 1u) + (kReload - current);
}

uint64_t grt_platform_ticks_per_second(void) { return kCpuHz; }

void grt_platform_log(const char* message) {
  grt_semihosting_write("graphrt: ");
  grt_semihosting_write(message);
  grt_semihosting_write("\n");
}

void grt_platform_abort(const char* reason) {
  grt_platform_log(reason);
  grt_semihosting_exit(2);
}

void grt_platform_yield(void) {}

void** grt_platform_current_slot(void) { return &g_current_executor; }
