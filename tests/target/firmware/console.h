/* Firmware console over semihosting: lines built from text and numbers, no printf (newlib's
 * would dominate the image being measured). */
#ifndef GRAPHRT_FIRMWARE_CONSOLE_H_
#define GRAPHRT_FIRMWARE_CONSOLE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A line being assembled; flushed (with a newline) by fw_line_end. */
typedef struct fw_line {
  char text[200];
  uint32_t length;
} fw_line;

void fw_line_begin(fw_line* line);
void fw_line_text(fw_line* line, const char* text);
void fw_line_u32(fw_line* line, uint32_t value);
void fw_line_hex32(fw_line* line, uint32_t value);
void fw_line_end(fw_line* line);

/* One whole line of text. */
void fw_print(const char* text);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_FIRMWARE_CONSOLE_H_ */
