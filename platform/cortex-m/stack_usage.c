#include "stack_usage.h"

#include <stdint.h>

extern uint32_t __stack_bottom__, __stack_top__;

/* Unlikely as data or as a return address (odd, and far outside both memories). */
#define STACK_PAINT 0xDEADBEEFu
/* Words left unpainted below the caller's stack pointer: room for an interrupt's frame
 * (with lazily stacked FPU registers) that may land there while painting. */
enum { kGuardWords = 64 };

static uint32_t* stack_pointer(void) {
  uint32_t* sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  return sp;
}

void grt_cortex_m_stack_paint(void) {
  volatile uint32_t* const limit = stack_pointer() - kGuardWords;
  for (volatile uint32_t* word = &__stack_bottom__; word < limit; ++word) *word = STACK_PAINT;
}

size_t grt_cortex_m_stack_high_water(void) {
  const volatile uint32_t* word = &__stack_bottom__;
  while (word < &__stack_top__ && *word == STACK_PAINT) ++word;
  return (size_t)((uintptr_t)&__stack_top__ - (uintptr_t)word);
}

size_t grt_cortex_m_stack_size(void) {
  return (size_t)((uintptr_t)&__stack_top__ - (uintptr_t)&__stack_bottom__);
}
