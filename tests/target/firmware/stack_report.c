#include "stack_report.h"

#include "console.h"
#include "stack_usage.h"

/* The deepest the stack went before a later paint erased the marks. */
static size_t g_high_water_before_paint;

void fw_stack_keep_high_water(void) {
  const size_t now = grt_cortex_m_stack_high_water();
  if (now > g_high_water_before_paint) g_high_water_before_paint = now;
}

size_t fw_stack_used_below(const uint32_t* top) {
  const volatile uint32_t* word = &__stack_bottom__;
  while (word < top && *word == FW_STACK_PAINT) ++word;
  return (size_t)((uintptr_t)top - (uintptr_t)word);
}

size_t fw_stack_high_water(void) {
  const size_t now = grt_cortex_m_stack_high_water();
  return now > g_high_water_before_paint ? now : g_high_water_before_paint;
}

void fw_report_stack(void) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "stack high water: ");
  fw_line_u32(&line, (uint32_t)fw_stack_high_water());
  fw_line_text(&line, " of ");
  fw_line_u32(&line, (uint32_t)grt_cortex_m_stack_size());
  fw_line_text(&line, " bytes");
  fw_line_end(&line);
}
