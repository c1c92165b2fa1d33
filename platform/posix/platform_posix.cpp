// POSIX port: stderr for logs, CLOCK_MONOTONIC for ticks, sched_yield, a thread_local slot.
#include "graphrt/platform.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern "C" {

void grt_platform_log(const char* message) { fprintf(stderr, "graphrt: %s\n", message); }

void grt_platform_abort(const char* reason) {
  fprintf(stderr, "graphrt: fatal: %s\n", reason);
  abort();
}

uint64_t grt_platform_ticks(void) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

uint64_t grt_platform_ticks_per_second(void) { return 1000000000ull; }

void grt_platform_yield(void) { sched_yield(); }

void** grt_platform_current_slot(void) {
  static thread_local void* slot = nullptr;
  return &slot;
}

}  // extern "C"
