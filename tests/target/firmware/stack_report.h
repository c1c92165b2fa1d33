/* The firmware's stack figures, in the lines the RAM report parses: the whole firmware's
 * high-water mark (the stack is painted at boot by grt_cortex_m_stack_paint) and the depth
 * of one call, grt_run's, measured by painting the stack again just before the call and
 * finding the deepest word that lost the paint after it. */
#ifndef GRAPHRT_FIRMWARE_STACK_REPORT_H_
#define GRAPHRT_FIRMWARE_STACK_REPORT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The pattern of platform/cortex-m/stack_usage.c, so that its high-water scan still works. */
#define FW_STACK_PAINT 0xDEADBEEFu

extern uint32_t __stack_bottom__;

/* Keeps the high-water mark so far, which painting again is about to erase. */
void fw_stack_keep_high_water(void);

/* Paints the stack from its bottom up to the caller's stack pointer and returns that
 * pointer. Inlined, so that the pointer is the caller's own: the frames of the call made
 * next go below it, and fw_stack_used_below(pointer) afterwards is that call's depth. */
static inline __attribute__((always_inline)) const uint32_t* fw_stack_paint_below_caller(void) {
  fw_stack_keep_high_water();
  uint32_t* sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  for (volatile uint32_t* word = &__stack_bottom__; word < sp; ++word) *word = FW_STACK_PAINT;
  return sp;
}

/* Bytes between top and the deepest word below it that lost the paint: what the calls made
 * since fw_stack_paint_below_caller used, interrupt frames that landed there included. */
size_t fw_stack_used_below(const uint32_t* top);

/* The whole firmware's high-water mark, across the paints above. */
size_t fw_stack_high_water(void);

/* Prints "stack high water: N of M bytes". */
void fw_report_stack(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_FIRMWARE_STACK_REPORT_H_ */
