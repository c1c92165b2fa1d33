#include "stack_report.h"

#include <stdint.h>

#include "console.h"
#include "stack_usage.h"

void fw_report_stack(void) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "stack high water: ");
  fw_line_u32(&line, (uint32_t)grt_cortex_m_stack_high_water());
  fw_line_text(&line, " of ");
  fw_line_u32(&line, (uint32_t)grt_cortex_m_stack_size());
  fw_line_text(&line, " bytes");
  fw_line_end(&line);
}
