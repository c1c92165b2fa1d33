#include "frame_parser.h"

#include <string.h>

#include "crc32.h"

size_t grt_eval_encode_frame(uint8_t command, uint8_t sequence, const uint8_t* payload, size_t size, uint8_t* out,
                             size_t capacity) {
  if (size > GRT_EVAL_MAX_PAYLOAD || capacity < GRT_EVAL_HEADER_SIZE + size + GRT_EVAL_TRAILER_SIZE) return 0;
  if (size != 0 && payload != out + GRT_EVAL_HEADER_SIZE) memmove(out + GRT_EVAL_HEADER_SIZE, payload, size);
  out[0] = GRT_EVAL_SYNC0;
  out[1] = GRT_EVAL_SYNC1;
  out[2] = command;
  out[3] = sequence;
  grt_eval_put_u16(out + 4, (uint16_t)size);
  grt_eval_put_u32(out + GRT_EVAL_HEADER_SIZE + size, grt_eval_crc32(0, out + 2, GRT_EVAL_HEADER_SIZE - 2 + size));
  return GRT_EVAL_HEADER_SIZE + size + GRT_EVAL_TRAILER_SIZE;
}

void grt_eval_parser_init(grt_eval_parser* parser, size_t max_payload) {
  parser->used = 0;
  parser->consumed = 0;
  parser->max_payload = max_payload < GRT_EVAL_MAX_PAYLOAD ? max_payload : GRT_EVAL_MAX_PAYLOAD;
}

void grt_eval_parser_reset(grt_eval_parser* parser) {
  parser->used = 0;
  parser->consumed = 0;
}

static void drop_front(grt_eval_parser* parser, size_t count) {
  if (count >= parser->used) {
    parser->used = 0;
    return;
  }
  memmove(parser->buffer, parser->buffer + count, parser->used - count);
  parser->used -= count;
}

void grt_eval_parser_push(grt_eval_parser* parser, uint8_t byte) {
  if (parser->consumed != 0) {
    drop_front(parser, parser->consumed);
    parser->consumed = 0;
  }
  /* Never full when the caller drains events after each push: a frame that fits is returned
   * at its last byte, and a length past the limit is refused at the header. */
  if (parser->used < sizeof parser->buffer) parser->buffer[parser->used++] = byte;
}

/* Drops bytes up to the next place a frame could start (a sync pair, or a lone first sync
 * byte at the very end). */
static void hunt_sync(grt_eval_parser* parser) {
  size_t start = 0;
  while (start < parser->used) {
    if (parser->buffer[start] == GRT_EVAL_SYNC0 &&
        (start + 1 == parser->used || parser->buffer[start + 1] == GRT_EVAL_SYNC1)) {
      break;
    }
    ++start;
  }
  drop_front(parser, start);
}

grt_eval_event_kind grt_eval_parser_next(grt_eval_parser* parser, grt_eval_event* event) {
  memset(event, 0, sizeof *event);
  if (parser->consumed != 0) {
    drop_front(parser, parser->consumed);
    parser->consumed = 0;
  }
  hunt_sync(parser);
  if (parser->used < GRT_EVAL_HEADER_SIZE) return GRT_EVAL_EVENT_NONE;
  const uint8_t* b = parser->buffer;
  event->command = b[2];
  event->sequence = b[3];
  event->length = grt_eval_get_u16(b + 4);
  if (event->length > parser->max_payload) {
    event->kind = GRT_EVAL_EVENT_BAD_LENGTH;
    event->a_value = (uint32_t)event->length;
    event->b_value = (uint32_t)parser->max_payload;
    drop_front(parser, 1); /* look for a real frame inside what followed the false sync */
    return event->kind;
  }
  const size_t total = GRT_EVAL_HEADER_SIZE + event->length + GRT_EVAL_TRAILER_SIZE;
  if (parser->used < total) return GRT_EVAL_EVENT_NONE;
  const uint32_t stated = grt_eval_get_u32(b + GRT_EVAL_HEADER_SIZE + event->length);
  const uint32_t computed = grt_eval_crc32(0, b + 2, GRT_EVAL_HEADER_SIZE - 2 + event->length);
  if (stated != computed) {
    event->kind = GRT_EVAL_EVENT_BAD_CRC;
    event->a_value = stated;
    event->b_value = computed;
    drop_front(parser, 1);
    return event->kind;
  }
  event->kind = GRT_EVAL_EVENT_FRAME;
  event->payload = b + GRT_EVAL_HEADER_SIZE;
  parser->consumed = total;
  return event->kind;
}

size_t grt_eval_parser_pending(const grt_eval_parser* parser) {
  return parser->used > parser->consumed ? parser->used - parser->consumed : 0;
}
