/* What the application provides to graphrt's FreeRTOS port: on the host, stderr and abort. */
#include <stdio.h>
#include <stdlib.h>

#include "graphrt/freertos_platform.h"

void grt_freertos_log(const char* message) { fprintf(stderr, "graphrt: %s\n", message); }

void grt_freertos_fatal(const char* reason) {
  fprintf(stderr, "graphrt: fatal: %s\n", reason);
  abort();
}
