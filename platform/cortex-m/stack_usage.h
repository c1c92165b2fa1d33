/* Stack high-water mark by painting: fill the unused stack with a pattern early, and later
 * find the deepest word that no longer holds it. */
#ifndef GRAPHRT_CORTEX_M_STACK_USAGE_H_
#define GRAPHRT_CORTEX_M_STACK_USAGE_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Paints from the bottom of the stack (__stack_bottom__) up to just below the caller's
 * frame. Call it once, early, from a shallow frame. */
void grt_cortex_m_stack_paint(void);

/* Bytes of stack used at the deepest point since the paint (from __stack_top__ down). */
size_t grt_cortex_m_stack_high_water(void);

/* The stack's size as the linker script reserved it. */
size_t grt_cortex_m_stack_size(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_CORTEX_M_STACK_USAGE_H_ */
