/* Builds an error frame's message in a fixed buffer, without printf: text and numbers. A
 * message that does not fit is cut, never overrun. */
#ifndef GRAPHRT_EVAL_REPLY_TEXT_H_
#define GRAPHRT_EVAL_REPLY_TEXT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_eval_text {
  char* text;
  size_t used;
  size_t capacity;
} grt_eval_text;

void grt_eval_text_str(grt_eval_text* t, const char* s);
void grt_eval_text_u64(grt_eval_text* t, uint64_t value);
void grt_eval_text_hex32(grt_eval_text* t, uint32_t value); /* 0x%08x */

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_EVAL_REPLY_TEXT_H_ */
