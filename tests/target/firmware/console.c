#include "console.h"

#include "semihosting.h"

static void append_char(fw_line* line, char c) {
  if (line->length + 1 < sizeof line->text) line->text[line->length++] = c;
}

void fw_line_begin(fw_line* line) {
  line->length = 0;
  fw_line_text(line, "fw: ");
}

void fw_line_text(fw_line* line, const char* text) {
  while (*text) append_char(line, *text++);
}

void fw_line_u32(fw_line* line, uint32_t value) {
  char digits[10];
  uint32_t count = 0;
  do {
    digits[count++] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value != 0);
  while (count > 0) append_char(line, digits[--count]);
}

void fw_line_hex32(fw_line* line, uint32_t value) {
  static const char kHex[] = "0123456789abcdef";
  fw_line_text(line, "0x");
  for (int shift = 28; shift >= 0; shift -= 4) append_char(line, kHex[(value >> shift) & 0xFu]);
}

void fw_line_end(fw_line* line) {
  append_char(line, '\n');
  line->text[line->length] = '\0';
  grt_semihosting_write(line->text);
}

void fw_print(const char* text) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, text);
  fw_line_end(&line);
}
