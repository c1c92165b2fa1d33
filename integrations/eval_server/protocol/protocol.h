/* graphrt's evaluation protocol: the host drives a device (or qemu) that runs the
 * evaluation server over a serial link. Shared by the server (device, C99, no heap) and the
 * host (`graphrt device`). docs/device.md describes it frame by frame.
 *
 * A frame, all integers little-endian:
 *     0  uint8   sync[2]   0xA5 0x5A
 *     2  uint8   command   a request below, or its response: request | GRT_EVAL_RESPONSE
 *     3  uint8   sequence  chosen by the host; the response carries the request's
 *     4  uint16  length    payload bytes, at most the device's max_payload (hello says)
 *     6  uint8   payload[length]
 *  6+n  uint32  crc       CRC-32 of bytes [2, 6 + length): command through payload
 * An error response is command GRT_EVAL_ERROR: uint16 code (grt_eval_error_code), then a
 * message naming the problem and the numbers (not NUL-terminated). */
#ifndef GRAPHRT_EVAL_PROTOCOL_H_
#define GRAPHRT_EVAL_PROTOCOL_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_EVAL_PROTOCOL_VERSION 1
#define GRT_EVAL_SYNC0 0xA5u
#define GRT_EVAL_SYNC1 0x5Au
#define GRT_EVAL_HEADER_SIZE 6u
#define GRT_EVAL_TRAILER_SIZE 4u
/* The largest payload this build's parser and server buffer. A device may announce less. */
#define GRT_EVAL_MAX_PAYLOAD 2048u
#define GRT_EVAL_MAX_FRAME (GRT_EVAL_HEADER_SIZE + GRT_EVAL_MAX_PAYLOAD + GRT_EVAL_TRAILER_SIZE)
#define GRT_EVAL_RESPONSE 0x80u

/* Requests (payloads in docs/device.md; "u32" is a little-endian uint32). */
typedef enum grt_eval_command {
  GRT_EVAL_HELLO = 0x01,        /* -> version u16, max_payload u16, clock_hz u32, ram_area u32,
                                      kernel_count u32, target (u8 length + text) */
  GRT_EVAL_KERNELS = 0x02,      /* first u32 -> first u32, count u16, names (u8 length + text each) */
  GRT_EVAL_LOAD_BEGIN = 0x03,   /* size u32 -> (empty) */
  GRT_EVAL_LOAD_CHUNK = 0x04,   /* offset u32, bytes -> received u32 */
  GRT_EVAL_LOAD_END = 0x05,     /* crc32 of the blob u32 -> inputs u32, outputs u32, nodes u32,
                                      bookkeeping u32, pools u32, ram_used u32 */
  GRT_EVAL_SET_INPUT = 0x06,    /* index u32, offset u32, bytes -> input's bytes u32 */
  GRT_EVAL_RUN = 0x07,          /* count u32, flags u32 -> runs u32, cycles of each: min u64,
                                      max u64, total u64 */
  GRT_EVAL_READ_OUTPUT = 0x08,  /* index u32, offset u32, max u16 -> output's bytes u32, bytes */
  GRT_EVAL_REPORT = 0x09,       /* -> see grt_eval_report (fields in order, u32/u64) */
  GRT_EVAL_NODE_CYCLES = 0x0A,  /* first u32 -> first u32, count u16, cycles u64 each */
  GRT_EVAL_RESET = 0x0B,        /* -> (empty); the model is dropped */
  GRT_EVAL_ERROR = 0x7F         /* response only */
} grt_eval_command;

/* RUN flags. */
#define GRT_EVAL_RUN_PROFILE 0x1u /* time each node too (through grt_hooks) */

typedef enum grt_eval_error_code {
  GRT_EVAL_ERR_CRC = 1,             /* a frame's CRC does not match its bytes */
  GRT_EVAL_ERR_LENGTH = 2,          /* a frame's length is past the device's limit */
  GRT_EVAL_ERR_UNKNOWN_COMMAND = 3, /* no such request */
  GRT_EVAL_ERR_OUT_OF_ORDER = 4,    /* not now: no model loaded, chunk at a wrong offset, ... */
  GRT_EVAL_ERR_TOO_BIG = 5,         /* a blob (or its memory) bigger than the RAM area */
  GRT_EVAL_ERR_PAYLOAD = 6,         /* the payload's size is wrong for the request */
  GRT_EVAL_ERR_LOAD = 7,            /* the loader refused the blob (its message follows) */
  GRT_EVAL_ERR_RUN = 8,             /* grt_run failed (its message follows) */
  GRT_EVAL_ERR_RANGE = 9,           /* an index or offset out of range */
  GRT_EVAL_ERR_CUT_SHORT = 10       /* a frame stopped arriving half way */
} grt_eval_error_code;

/* What REPORT answers, in this order on the wire (u32 except the cycle figures, u64). */
typedef struct grt_eval_report {
  uint32_t runs;            /* runs since the model was loaded */
  uint64_t last_cycles;     /* the last run */
  uint64_t min_cycles;
  uint64_t max_cycles;
  uint64_t total_cycles;    /* over all runs */
  uint64_t profiled_cycles; /* total of the runs that were profiled */
  uint32_t profiled_runs;
  uint32_t node_count;
  uint32_t blob_bytes;
  uint32_t bookkeeping_bytes;
  uint32_t pool_bytes;
  uint32_t input_staging_bytes; /* the copy of the inputs, restored before each run */
  uint32_t ram_area_bytes;
  uint32_t stack_high_water_bytes; /* 0 when the port cannot tell */
  uint32_t stack_size_bytes;
  uint32_t cycle_source;    /* 1: the core's cycle counter (DWT), 2: SysTick at the core clock */
} grt_eval_report;
#define GRT_EVAL_REPORT_WIRE_SIZE (4u + 5u * 8u + 10u * 4u)

/* Little-endian fields. */
static inline void grt_eval_put_u16(uint8_t* p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static inline void grt_eval_put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void grt_eval_put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t grt_eval_get_u16(const uint8_t* p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t grt_eval_get_u32(const uint8_t* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t grt_eval_get_u64(const uint8_t* p) {
  return (uint64_t)grt_eval_get_u32(p) | ((uint64_t)grt_eval_get_u32(p + 4) << 32);
}

/* "HELLO", "LOAD_CHUNK", ... for a request; "?" for anything else. */
const char* grt_eval_command_name(uint8_t command);

/* Writes a whole frame into out (capacity at least GRT_EVAL_HEADER_SIZE + size +
 * GRT_EVAL_TRAILER_SIZE) and returns its size, or 0 when size is past GRT_EVAL_MAX_PAYLOAD
 * or out too small. payload may alias out + GRT_EVAL_HEADER_SIZE. */
size_t grt_eval_encode_frame(uint8_t command, uint8_t sequence, const uint8_t* payload, size_t size, uint8_t* out,
                             size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_EVAL_PROTOCOL_H_ */
