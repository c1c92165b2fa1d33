/* Prints the stack high-water mark (painted at boot) in the line the RAM report parses. */
#ifndef GRAPHRT_FIRMWARE_STACK_REPORT_H_
#define GRAPHRT_FIRMWARE_STACK_REPORT_H_

#ifdef __cplusplus
extern "C" {
#endif

void fw_report_stack(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_FIRMWARE_STACK_REPORT_H_ */
