/* Reset and vector table for the Cortex-M cores of qemu's MPS2 boards (M3, M4F, M7, and
 * the M33 in its secure state): set up .data and .bss, enable the FPU when the build uses
 * one, start the tick source, run constructors and main, and report main's return value as
 * the exit code through semihosting.
 *
 * SVC, PendSV and SysTick have CMSIS names and weak defaults, so an RTOS can install its
 * own (FreeRTOS: FreeRTOSConfig.h maps its port's handlers onto these names). The bare-metal
 * tick (platform_cortex_m.c) is referenced weakly: it is linked only with the bare-metal
 * platform port, and under an RTOS port the RTOS owns SysTick and starts it itself. */
#include <stdint.h>

#include "semihosting.h"

extern uint32_t __data_load__, __data_start__, __data_end__, __bss_start__, __bss_end__, __stack_top__;
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);

int main(void);
void grt_cortex_m_tick_start(void) __attribute__((weak));
void grt_cortex_m_tick_interrupt(void) __attribute__((weak));

#define SCB_CPACR (*(volatile uint32_t*)0xE000ED88u)

static void fault(void) {
  grt_semihosting_write("graphrt: fatal: hard fault\n");
  grt_semihosting_exit(3);
}

void Reset_Handler(void) {
#if defined(__ARM_FP)
  SCB_CPACR |= 0xFu << 20; /* CP10 and CP11: full access to the FPU */
  __asm__ volatile("dsb\n isb" ::: "memory");
#endif
  for (uint32_t *src = &__data_load__, *dst = &__data_start__; dst < &__data_end__;) *dst++ = *src++;
  for (uint32_t* dst = &__bss_start__; dst < &__bss_end__;) *dst++ = 0;
  if (grt_cortex_m_tick_start) grt_cortex_m_tick_start();
  for (void (**f)(void) = __init_array_start; f < __init_array_end; ++f) (*f)();
  grt_semihosting_exit(main());
}

/* newlib's exit() and abort() end here (mbedTLS calls exit on a corrupt arena): the code
 * reaches the host like main's return value. */
void _exit(int code);
void _exit(int code) { grt_semihosting_exit(code); }

void SVC_Handler(void) __attribute__((weak, alias("fault")));
void PendSV_Handler(void) __attribute__((weak, alias("fault")));
void SysTick_Handler(void) __attribute__((weak));
void SysTick_Handler(void) {
  if (grt_cortex_m_tick_interrupt) grt_cortex_m_tick_interrupt();
}

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
    SVC_Handler,
    fault, /* DebugMonitor */
    0,
    PendSV_Handler,
    SysTick_Handler,
};
