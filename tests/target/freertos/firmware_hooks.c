/* What a FreeRTOS application provides to graphrt's FreeRTOS port, here on qemu's
 * mps2-an386: log lines and the fatal stop over semihosting. Each line goes out in one
 * semihosting call, so lines from two tasks never mix. The fatal stop exits with 2, as the
 * bare-metal port's abort does. */
#include "console.h"
#include "graphrt/freertos_platform.h"
#include "semihosting.h"

void grt_freertos_log(const char* message) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "graphrt: ");
  fw_line_text(&line, message);
  fw_line_end(&line);
}

void grt_freertos_fatal(const char* reason) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "graphrt: fatal: ");
  fw_line_text(&line, reason);
  fw_line_end(&line);
  grt_semihosting_exit(2);
}
