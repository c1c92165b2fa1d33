/* Arm semihosting, as qemu-system-arm serves it with -semihosting-config enable=on: a
 * console for the firmware and an exit code for the test runner. */
#ifndef GRAPHRT_CORTEX_M_SEMIHOSTING_H_
#define GRAPHRT_CORTEX_M_SEMIHOSTING_H_

#ifdef __cplusplus
extern "C" {
#endif

void grt_semihosting_write(const char* text);
void grt_semihosting_exit(int code)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_CORTEX_M_SEMIHOSTING_H_ */
