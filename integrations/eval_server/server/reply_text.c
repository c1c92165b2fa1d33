#include "reply_text.h"

static void put(grt_eval_text* t, char c) {
  if (t->used < t->capacity) t->text[t->used++] = c;
}

void grt_eval_text_str(grt_eval_text* t, const char* s) {
  while (s != NULL && *s != '\0') put(t, *s++);
}

void grt_eval_text_u64(grt_eval_text* t, uint64_t value) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = (char)('0' + (int)(value % 10u));
    value /= 10u;
  } while (value != 0 && n < 20);
  while (n > 0) put(t, digits[--n]);
}

void grt_eval_text_hex32(grt_eval_text* t, uint32_t value) {
  static const char kHex[] = "0123456789abcdef";
  put(t, '0');
  put(t, 'x');
  for (int shift = 28; shift >= 0; shift -= 4) put(t, kHex[(value >> shift) & 0xFu]);
}
