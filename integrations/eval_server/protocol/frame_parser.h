/* Finds frames in a byte stream that may hold noise, cut frames and corrupted bytes. Bytes
 * go in one at a time; events come out of grt_eval_parser_next until it says it needs more.
 * After a bad frame the parser looks for the next sync again starting one byte after the
 * bad frame's, so a real frame that noise swallowed is still found. No heap: the parser
 * is its own buffer (one frame of up to max_payload bytes). */
#ifndef GRAPHRT_EVAL_FRAME_PARSER_H_
#define GRAPHRT_EVAL_FRAME_PARSER_H_

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grt_eval_event_kind {
  GRT_EVAL_EVENT_NONE = 0,   /* needs more bytes */
  GRT_EVAL_EVENT_FRAME,      /* a whole frame with a good CRC */
  GRT_EVAL_EVENT_BAD_CRC,    /* a_value: the CRC in the frame, b_value: the CRC of its bytes */
  GRT_EVAL_EVENT_BAD_LENGTH  /* a_value: the length in the header, b_value: the limit */
} grt_eval_event_kind;

typedef struct grt_eval_event {
  grt_eval_event_kind kind;
  uint8_t command;
  uint8_t sequence;
  const uint8_t* payload; /* FRAME: valid until the next push */
  size_t length;
  uint32_t a_value, b_value;
} grt_eval_event;

typedef struct grt_eval_parser {
  uint8_t buffer[GRT_EVAL_MAX_FRAME];
  size_t used;
  size_t consumed; /* bytes of a frame just returned, dropped on the next call */
  size_t max_payload;
} grt_eval_parser;

/* max_payload: at most GRT_EVAL_MAX_PAYLOAD (larger values are clamped). */
void grt_eval_parser_init(grt_eval_parser* parser, size_t max_payload);
/* Appends one byte. Call grt_eval_parser_next until it returns NONE after each push. */
void grt_eval_parser_push(grt_eval_parser* parser, uint8_t byte);
/* The next event. NONE when it needs more bytes. */
grt_eval_event_kind grt_eval_parser_next(grt_eval_parser* parser, grt_eval_event* event);
/* Bytes of an unfinished frame held (0 while hunting for a sync). */
size_t grt_eval_parser_pending(const grt_eval_parser* parser);
/* Drops whatever is buffered (e.g. after the link fell silent in the middle of a frame). */
void grt_eval_parser_reset(grt_eval_parser* parser);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_EVAL_FRAME_PARSER_H_ */
