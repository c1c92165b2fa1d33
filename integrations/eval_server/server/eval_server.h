/* The evaluation server: answers the requests of graphrt's evaluation protocol
 * (protocol/protocol.h) for one model at a time, in a RAM area the board lends it. It owns
 * no I/O: the board's loop hands it the bytes it received and it writes responses through
 * a callback, so the same code runs on a device and in host tests. C99, no heap; every
 * length is bounded by the parser's and the RAM area's sizes; a bad request gets an error
 * frame and the server goes on serving. */
#ifndef GRAPHRT_EVAL_SERVER_H_
#define GRAPHRT_EVAL_SERVER_H_

#include <stddef.h>
#include <stdint.h>

#include "frame_parser.h"
#include "graphrt/graphrt.h"
#include "protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

struct grt_trust_config;

/* What the board provides (docs/device.md: "What a port must provide"). */
typedef struct grt_eval_board {
  const char* target;       /* e.g. "mps2-an386 cortex-m4 (SysTick cycles)" */
  uint32_t core_clock_hz;   /* what one cycle of `cycles` is */
  uint32_t cycle_source;    /* as grt_eval_report.cycle_source */
  /* A free-running cycle count (DWT CYCCNT, or SysTick extended to 64 bits). */
  uint64_t (*cycles)(void* context);
  /* Deepest stack use so far in bytes, and the stack's size; either may be NULL. */
  size_t (*stack_high_water)(void* context);
  size_t (*stack_size)(void* context);
  /* Sends bytes on the link; returns only when they are queued or sent. */
  void (*write)(void* context, const uint8_t* bytes, size_t size);
  void* context;
  /* One blob plus its input copies, bookkeeping and pools; 16-byte aligned. */
  uint8_t* ram_area;
  size_t ram_area_size;
  /* Envelopes ("GRTE") are opened with this trust configuration (NULL: digest only). */
  const struct grt_trust_config* trust;
  /* The kernels blobs are resolved against (usually grt_builtin_kernels()). */
  const grt_kernel_table* kernels;
} grt_eval_board;

typedef enum grt_eval_state {
  GRT_EVAL_STATE_IDLE = 0, /* no model */
  GRT_EVAL_STATE_LOADING,  /* between LOAD_BEGIN and LOAD_END */
  GRT_EVAL_STATE_READY     /* a model is loaded */
} grt_eval_state;

typedef struct grt_eval_server {
  const grt_eval_board* board;
  grt_eval_parser parser;
  uint8_t response[GRT_EVAL_MAX_FRAME];
  grt_eval_state state;
  /* Loading. */
  size_t blob_size, received;
  /* The loaded model. */
  grt_registry registry;
  grt_hooks hooks;
  grt_executor* executor;
  const uint8_t* model;    /* the blob, or the model inside an envelope */
  size_t model_size;
  uint8_t* input_copy;     /* each input's bytes, 16-byte aligned, restored before each run */
  uint64_t* node_cycles;   /* per node, summed over profiled runs */
  uint64_t node_start;
  size_t ram_used;
  grt_eval_report report;
} grt_eval_server;

void grt_eval_server_init(grt_eval_server* server, const grt_eval_board* board);
/* Handles received bytes: every whole request in them is answered before this returns. */
void grt_eval_server_receive(grt_eval_server* server, const uint8_t* bytes, size_t size);
/* The link has been silent for a while: a frame cut half way is dropped and reported. */
void grt_eval_server_link_idle(grt_eval_server* server);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_EVAL_SERVER_H_ */
