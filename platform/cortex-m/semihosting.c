#include "semihosting.h"

#include <stdint.h>

enum {
  kSysWrite0 = 0x04,
  kSysExitExtended = 0x20,        /* takes {reason, exit code}: the code reaches the host */
  kAdpStoppedApplicationExit = 0x20026
};

static uintptr_t semihosting_call(uintptr_t operation, const void* argument) {
  register uintptr_t r0 __asm__("r0") = operation;
  register const void* r1 __asm__("r1") = argument;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void grt_semihosting_write(const char* text) { semihosting_call(kSysWrite0, text); }

void grt_semihosting_exit(int code) {
  const uintptr_t block[2] = {kAdpStoppedApplicationExit, (uintptr_t)code};
  semihosting_call(kSysExitExtended, block);
  for (;;) {
  }
}
