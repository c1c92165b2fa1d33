/* Reset and vector table for the Cortex-M4F of qemu's mps2-an386 board: set up .data and
 * .bss, enable the FPU, start the tick source, run constructors and main, and report main's
 * return value as the exit code through semihosting. */
#include <stdint.h>

#include "semihosting.h"

extern uint32_t __data_load__, __data_start__, __data_end__, __bss_start__, __bss_end__, __stack_top__;
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);

int main(void);
void grt_cortex_m_tick_start(void);
void grt_cortex_m_tick_interrupt(void);

#define SCB_CPACR (*(volatile uint32_t*)0xE000ED88u)

static void fault(void) {
  grt_semihosting_write("graphrt: fatal: hard fault\n");
  grt_semihosting_exit(3);
}

void Reset_Handler(void) {
  SCB_CPACR |= 0xFu << 20; /* CP10 and CP11: full access to the FPU */
  __asm__ volatile("dsb\n isb" ::: "memory");
  for (uint32_t *src = &__data_load__, *dst = &__data_start__; dst < &__data_end__;) *dst++ = *src++;
  for (uint32_t* dst = &__bss_start__; dst < &__bss_end__;) *dst++ = 0;
  grt_cortex_m_tick_start();
  for (void (**f)(void) = __init_array_start; f < __init_array_end; ++f) (*f)();
  grt_semihosting_exit(main());
}

/* newlib's exit() and abort() end here (mbedTLS calls exit on a corrupt arena): the code
 * reaches the host like main's return value. */
void _exit(int code);
void _exit(int code) { grt_semihosting_exit(code); }

typedef void (*vector_t)(void);

__attribute__((section(".vectors"), used)) const vector_t grt_vector_table[16] = {
    (vector_t)(uintptr_t)&__stack_top__,
    Reset_Handler,
    fault, /* NMI */
    fault, /* HardFault */
    fault, /* MemManage */
    fault, /* BusFault */
    fault, /* UsageFault */
    0,     0, 0, 0,
    fault, /* SVCall */
    fault, /* DebugMonitor */
    0,
    fault, /* PendSV */
    grt_cortex_m_tick_interrupt,
};
