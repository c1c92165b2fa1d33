/* The FreeRTOS configuration graphrt's integration and tests are built with (the
 * freertos_config target, unless the application brings its own). Static allocation
 * only: no FreeRTOS heap; the kernel provides the idle task's memory. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 8
#define configMAX_TASK_NAME_LEN 16
#define configUSE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configUSE_TASK_NOTIFICATIONS 1
#define configQUEUE_REGISTRY_SIZE 0
#define configUSE_TIMERS 0
#define configUSE_CO_ROUTINES 0
#define configUSE_TRACE_FACILITY 0

#define configSUPPORT_STATIC_ALLOCATION 1
#define configSUPPORT_DYNAMIC_ALLOCATION 0
#define configKERNEL_PROVIDED_STATIC_MEMORY 1

/* graphrt's per-task slot (graphrt/freertos_platform.h). */
#define configNUM_THREAD_LOCAL_STORAGE_POINTERS 1

#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_xTaskGetSchedulerState 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1
#define INCLUDE_uxTaskGetStackHighWaterMark 1

#if defined(__linux__) || defined(__APPLE__)
/* Host (GCC_POSIX port): each task is a pthread with the C library's own stack. */
#define configMINIMAL_STACK_SIZE ((unsigned short)256)
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_64_BITS
#define configCHECK_FOR_STACK_OVERFLOW 0
#include <stdlib.h>
#define configASSERT(x) \
  do {                  \
    if (!(x)) abort();  \
  } while (0)
#else
/* Cortex-M4F (GCC_ARM_CM4F), e.g. qemu mps2-an386 at 25 MHz. */
#define configCPU_CLOCK_HZ 25000000UL
#define configMINIMAL_STACK_SIZE ((unsigned short)128)
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
/* Stack overflow is checked at every context switch (stack pointer and the last 16 bytes
 * of the stack); the application defines vApplicationStackOverflowHook. */
#define configCHECK_FOR_STACK_OVERFLOW 2
/* 3 priority bits, as the CMSDK Cortex-M4 of mps2-an386 declares (__NVIC_PRIO_BITS).
 * Interrupts that call FreeRTOS's FromISR API must sit at priorities 5 to 7. */
#define configPRIO_BITS 3
#define configLIBRARY_LOWEST_INTERRUPT_PRIORITY 7
#define configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY 5
#define configKERNEL_INTERRUPT_PRIORITY (configLIBRARY_LOWEST_INTERRUPT_PRIORITY << (8 - configPRIO_BITS))
#define configMAX_SYSCALL_INTERRUPT_PRIORITY (configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY << (8 - configPRIO_BITS))
/* The port's handlers under the vector table's CMSIS names (platform/cortex-m/startup.c
 * declares them weak), so the kernel installs itself at link time. */
#define vPortSVCHandler SVC_Handler
#define xPortPendSVHandler PendSV_Handler
#define xPortSysTickHandler SysTick_Handler
/* A failed kernel assertion stops through the application's fatal handler
 * (graphrt/freertos_platform.h), which reports it, instead of spinning silently. */
#ifndef __ASSEMBLER__
#ifdef __cplusplus
extern "C" {
#endif
void grt_freertos_fatal(const char* reason);
#ifdef __cplusplus
}
#endif
#endif
#define configASSERT(x)                                     \
  do {                                                      \
    if (!(x)) {                                             \
      taskDISABLE_INTERRUPTS();                             \
      grt_freertos_fatal("FreeRTOS assertion failed: " #x); \
    }                                                       \
  } while (0)
#endif

#endif /* FREERTOS_CONFIG_H */
