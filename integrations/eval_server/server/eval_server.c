#include "eval_server.h"

#include <string.h>

#include "crc32.h"
#include "reply_text.h"

#if GRT_EVAL_WITH_ENVELOPES
#include "graphrt/integrity.h"
#endif

enum { kMaxRunsPerRequest = 1000000 };

static uint8_t* reply_payload(grt_eval_server* s) { return s->response + GRT_EVAL_HEADER_SIZE; }
static size_t max_payload(const grt_eval_server* s) { return s->parser.max_payload; }
static size_t align_up(size_t value, size_t alignment) { return (value + alignment - 1u) / alignment * alignment; }

static void send_frame(grt_eval_server* s, uint8_t command, uint8_t sequence, size_t size) {
  const size_t n = grt_eval_encode_frame(command, sequence, reply_payload(s), size, s->response, sizeof s->response);
  if (n != 0) s->board->write(s->board->context, s->response, n);
}

static void respond(grt_eval_server* s, const grt_eval_event* request, size_t size) {
  send_frame(s, (uint8_t)(request->command | GRT_EVAL_RESPONSE), request->sequence, size);
}

/* An error frame is built in two steps: error_begin gives the message buffer, error_send
 * sends what was written into it. */
static grt_eval_text error_begin(grt_eval_server* s, grt_eval_error_code code) {
  grt_eval_put_u16(reply_payload(s), (uint16_t)code);
  grt_eval_text t = {(char*)reply_payload(s) + 2, 0, max_payload(s) - 2};
  return t;
}

static void error_send(grt_eval_server* s, uint8_t sequence, const grt_eval_text* t) {
  send_frame(s, GRT_EVAL_ERROR, sequence, 2 + t->used);
}

static void error_message(grt_eval_server* s, uint8_t sequence, grt_eval_error_code code, const char* message) {
  grt_eval_text t = error_begin(s, code);
  grt_eval_text_str(&t, message);
  error_send(s, sequence, &t);
}

static void drop_model(grt_eval_server* s) {
  s->executor = NULL;
  s->model = NULL;
  s->model_size = 0;
  s->input_copy = NULL;
  s->node_cycles = NULL;
  s->ram_used = 0;
  memset(&s->report, 0, sizeof s->report);
  s->state = GRT_EVAL_STATE_IDLE;
}

void grt_eval_server_init(grt_eval_server* server, const grt_eval_board* board) {
  memset(server, 0, sizeof *server);
  server->board = board;
  grt_eval_parser_init(&server->parser, GRT_EVAL_MAX_PAYLOAD);
  drop_model(server);
}

/* ---- Requests that need no model ------------------------------------------------------ */

/* Refuses a request whose payload is not `expected` bytes (or fewer than `expected` when
 * `at_least`). Returns 1 when it is fine. */
static int payload_is(grt_eval_server* s, const grt_eval_event* r, size_t expected, int at_least) {
  if (at_least ? r->length >= expected : r->length == expected) return 1;
  grt_eval_text t = error_begin(s, GRT_EVAL_ERR_PAYLOAD);
  grt_eval_text_str(&t, grt_eval_command_name(r->command));
  grt_eval_text_str(&t, at_least ? " takes at least " : " takes ");
  grt_eval_text_u64(&t, expected);
  grt_eval_text_str(&t, " payload bytes, ");
  grt_eval_text_u64(&t, r->length);
  grt_eval_text_str(&t, " given");
  error_send(s, r->sequence, &t);
  return 0;
}

static int needs_model(grt_eval_server* s, const grt_eval_event* r) {
  if (s->state == GRT_EVAL_STATE_READY) return 1;
  grt_eval_text t = error_begin(s, GRT_EVAL_ERR_OUT_OF_ORDER);
  grt_eval_text_str(&t, grt_eval_command_name(r->command));
  grt_eval_text_str(&t, s->state == GRT_EVAL_STATE_LOADING ? " while a blob is being loaded (LOAD_END first)"
                                                            : " before a model is loaded");
  error_send(s, r->sequence, &t);
  return 0;
}

static size_t kernel_count(const grt_eval_server* s) { return s->board->kernels != NULL ? s->board->kernels->count : 0; }

static void handle_hello(grt_eval_server* s, const grt_eval_event* r) {
  if (!payload_is(s, r, 0, 0)) return;
  uint8_t* p = reply_payload(s);
  grt_eval_put_u16(p, GRT_EVAL_PROTOCOL_VERSION);
  grt_eval_put_u16(p + 2, (uint16_t)max_payload(s));
  grt_eval_put_u32(p + 4, s->board->core_clock_hz);
  grt_eval_put_u32(p + 8, (uint32_t)s->board->ram_area_size);
  grt_eval_put_u32(p + 12, (uint32_t)kernel_count(s));
  size_t length = s->board->target != NULL ? strlen(s->board->target) : 0;
  if (length > 255) length = 255;
  p[16] = (uint8_t)length;
  memcpy(p + 17, s->board->target, length);
  respond(s, r, 17 + length);
}

static void handle_kernels(grt_eval_server* s, const grt_eval_event* r) {
  if (!payload_is(s, r, 4, 0)) return;
  const uint32_t first = grt_eval_get_u32(r->payload);
  const size_t count = kernel_count(s);
  if (first > count) {
    grt_eval_text t = error_begin(s, GRT_EVAL_ERR_RANGE);
    grt_eval_text_str(&t, "kernel ");
    grt_eval_text_u64(&t, first);
    grt_eval_text_str(&t, " asked for, the server has ");
    grt_eval_text_u64(&t, count);
    error_send(s, r->sequence, &t);
    return;
  }
  uint8_t* p = reply_payload(s);
  size_t used = 6;
  uint16_t listed = 0;
  for (size_t k = first; k < count; ++k) {
    const char* name = s->board->kernels->entries[k].name;
    size_t length = strlen(name);
    if (length > 255) length = 255;
    if (used + 1 + length > max_payload(s)) break;
    p[used] = (uint8_t)length;
    memcpy(p + used + 1, name, length);
    used += 1 + length;
    ++listed;
  }
  grt_eval_put_u32(p, first);
  grt_eval_put_u16(p + 4, listed);
  respond(s, r, used);
}

/* ---- Loading -------------------------------------------------------------------------- */

static void handle_load_begin(grt_eval_server* s, const grt_eval_event* r) {
  if (!payload_is(s, r, 4, 0)) return;
  const uint32_t size = grt_eval_get_u32(r->payload);
  drop_model(s);
  if (size > s->board->ram_area_size || size == 0) {
    grt_eval_text t = error_begin(s, size == 0 ? GRT_EVAL_ERR_RANGE : GRT_EVAL_ERR_TOO_BIG);
    grt_eval_text_str(&t, "blob of ");
    grt_eval_text_u64(&t, size);
    grt_eval_text_str(&t, size == 0 ? " bytes: nothing to load" : " bytes does not fit the RAM area of ");
    if (size != 0) {
      grt_eval_text_u64(&t, s->board->ram_area_size);
      grt_eval_text_str(&t, " bytes");
    }
    error_send(s, r->sequence, &t);
    return;
  }
  s->state = GRT_EVAL_STATE_LOADING;
  s->blob_size = size;
  s->received = 0;
  respond(s, r, 0);
}

static void handle_load_chunk(grt_eval_server* s, const grt_eval_event* r) {
  if (!payload_is(s, r, 4, 1)) return;
  if (s->state != GRT_EVAL_STATE_LOADING) {
    error_message(s, r->sequence, GRT_EVAL_ERR_OUT_OF_ORDER, "LOAD_CHUNK without LOAD_BEGIN");
    return;
  }
  const uint32_t offset = grt_eval_get_u32(r->payload);
  const size_t size = r->length - 4;
  if (offset != s->received || size > s->blob_size - s->received) {
    grt_eval_text t = error_begin(s, offset != s->received ? GRT_EVAL_ERR_OUT_OF_ORDER : GRT_EVAL_ERR_RANGE);
    grt_eval_text_str(&t, "chunk of ");
    grt_eval_text_u64(&t, size);
    grt_eval_text_str(&t, " bytes at offset ");
    grt_eval_text_u64(&t, offset);
    grt_eval_text_str(&t, offset != s->received ? ", expected offset " : " goes past the blob's ");
    grt_eval_text_u64(&t, offset != s->received ? s->received : s->blob_size);
    if (offset == s->received) grt_eval_text_str(&t, " bytes");
    error_send(s, r->sequence, &t);
    return;
  }
  memcpy(s->board->ram_area + offset, r->payload + 4, size);
  s->received += size;
  grt_eval_put_u32(reply_payload(s), (uint32_t)s->received);
  respond(s, r, 4);
}

static void send_too_big(grt_eval_server* s, uint8_t sequence, size_t bookkeeping, size_t pools, size_t inputs,
                         size_t profile) {
  grt_eval_text t = error_begin(s, GRT_EVAL_ERR_TOO_BIG);
  grt_eval_text_str(&t, "model needs ");
  grt_eval_text_u64(&t, align_up(s->blob_size, 16) + bookkeeping + pools + inputs + profile);
  grt_eval_text_str(&t, " bytes of RAM (blob ");
  grt_eval_text_u64(&t, s->blob_size);
  grt_eval_text_str(&t, ", bookkeeping ");
  grt_eval_text_u64(&t, bookkeeping);
  grt_eval_text_str(&t, ", pools ");
  grt_eval_text_u64(&t, pools);
  if (inputs + profile != 0) {
    grt_eval_text_str(&t, ", input copies ");
    grt_eval_text_u64(&t, inputs);
    grt_eval_text_str(&t, ", node profile ");
    grt_eval_text_u64(&t, profile);
  }
  grt_eval_text_str(&t, "), the RAM area has ");
  grt_eval_text_u64(&t, s->board->ram_area_size);
  error_send(s, sequence, &t);
}

static void send_load_error(grt_eval_server* s, uint8_t sequence, const grt_error* error) {
  grt_eval_text t = error_begin(s, GRT_EVAL_ERR_LOAD);
  grt_eval_text_str(&t, grt_status_name(error->status));
  grt_eval_text_str(&t, ": ");
  grt_eval_text_str(&t, error->message);
  error_send(s, sequence, &t);
}

/* Finds the model in the received bytes: the blob itself, or the model inside an envelope
 * once the envelope checks out. Returns 0 after sending an error. */
static int open_model(grt_eval_server* s, uint8_t sequence) {
  const uint8_t* blob = s->board->ram_area;
  const int envelope = s->blob_size >= 4 && memcmp(blob, "GRTE", 4) == 0;
  s->model = blob;
  s->model_size = s->blob_size;
  if (!envelope) return 1;
#if GRT_EVAL_WITH_ENVELOPES
  grt_error error;
  const void* model = NULL;
  size_t model_size = 0;
  if (grt_envelope_open(blob, s->blob_size, s->board->trust, &model, &model_size, NULL, &error) != GRT_OK) {
    send_load_error(s, sequence, &error);
    return 0;
  }
  s->model = (const uint8_t*)model;
  s->model_size = model_size;
  return 1;
#else
  error_message(s, sequence, GRT_EVAL_ERR_LOAD, "an envelope (GRTE), but this server was built without envelope support");
  return 0;
#endif
}

static size_t input_copy_offset(grt_eval_server* s, uint32_t index) {
  size_t offset = 0;
  for (uint32_t i = 0; i < index; ++i) offset += align_up(grt_tensor_bytes(grt_input(s->executor, i)), 16);
  return offset;
}

static void handle_load_end(grt_eval_server* s, const grt_eval_event* r) {
  if (!payload_is(s, r, 4, 0)) return;
  if (s->state != GRT_EVAL_STATE_LOADING || s->received != s->blob_size) {
    grt_eval_text t = error_begin(s, GRT_EVAL_ERR_OUT_OF_ORDER);
    if (s->state != GRT_EVAL_STATE_LOADING) {
      grt_eval_text_str(&t, "LOAD_END without LOAD_BEGIN");
    } else {
      grt_eval_text_str(&t, "LOAD_END after ");
      grt_eval_text_u64(&t, s->received);
      grt_eval_text_str(&t, " of the blob's ");
      grt_eval_text_u64(&t, s->blob_size);
      grt_eval_text_str(&t, " bytes");
    }
    error_send(s, r->sequence, &t);
    return;
  }
  uint8_t* area = s->board->ram_area;
  const uint32_t stated = grt_eval_get_u32(r->payload);
  const uint32_t computed = grt_eval_crc32(0, area, s->blob_size);
  s->state = GRT_EVAL_STATE_IDLE; /* whatever happens next, this blob is done loading */
  if (stated != computed) {
    grt_eval_text t = error_begin(s, GRT_EVAL_ERR_CRC);
    grt_eval_text_str(&t, "blob's CRC-32 is ");
    grt_eval_text_hex32(&t, computed);
    grt_eval_text_str(&t, ", LOAD_END says ");
    grt_eval_text_hex32(&t, stated);
    error_send(s, r->sequence, &t);
    return;
  }
  if (!open_model(s, r->sequence)) return;

  grt_registry_init(&s->registry, NULL, 0, s->board->kernels);
  grt_options options;
  memset(&options, 0, sizeof options);
  options.registry = &s->registry;
  options.hooks = &s->hooks;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  grt_requirements req;
  grt_error error;
  if (grt_model_requirements_for(s->model, s->model_size, &options, &req, &error) != GRT_OK) {
    send_load_error(s, r->sequence, &error);
    return;
  }
  /* The RAM area: blob | bookkeeping | pools | input copies | node profile. */
  size_t pools_bytes = 0;
  for (uint32_t p = 0; p < req.pool_count; ++p) pools_bytes += align_up(req.pool_bytes[p], 16);
  const size_t bookkeeping = align_up(req.bookkeeping_bytes, 16);
  size_t at = align_up(s->blob_size, 16);
  if (bookkeeping + pools_bytes > s->board->ram_area_size - at) {
    send_too_big(s, r->sequence, bookkeeping, pools_bytes, 0, 0);
    return;
  }
  uint8_t* storage = area + at;
  at += bookkeeping;
  void* pools[GRT_MAX_POOLS];
  size_t sizes[GRT_MAX_POOLS];
  for (uint32_t p = 0; p < req.pool_count; ++p) {
    const size_t alignment = req.pool_alignment[p] > 16 ? req.pool_alignment[p] : 16;
    at = align_up(at, alignment);
    pools[p] = area + at;
    sizes[p] = req.pool_bytes[p];
    at += align_up(req.pool_bytes[p], 16);
  }
  if (at > s->board->ram_area_size) {
    send_too_big(s, r->sequence, bookkeeping, pools_bytes, 0, 0);
    return;
  }
  options.memory.pool_buffers = pools;
  options.memory.pool_sizes = sizes;
  options.memory.pool_count = req.pool_count;
  s->hooks.before_node = NULL;
  s->hooks.node_done = NULL;
  s->hooks.user = s;
  if (grt_init(&s->executor, storage, req.bookkeeping_bytes, s->model, s->model_size, &options, &error) != GRT_OK) {
    s->executor = NULL;
    send_load_error(s, r->sequence, &error);
    return;
  }
  const uint32_t inputs = grt_input_count(s->executor);
  const size_t input_bytes = input_copy_offset(s, inputs);
  const size_t profile_bytes = (size_t)grt_node_count(s->executor) * sizeof(uint64_t);
  if (input_bytes + profile_bytes > s->board->ram_area_size - at) {
    s->executor = NULL;
    send_too_big(s, r->sequence, bookkeeping, pools_bytes, input_bytes, profile_bytes);
    return;
  }
  s->input_copy = area + at;
  memset(s->input_copy, 0, input_bytes);
  s->node_cycles = (uint64_t*)(void*)(area + at + input_bytes);
  memset(s->node_cycles, 0, profile_bytes);
  s->ram_used = at + input_bytes + profile_bytes;
  s->state = GRT_EVAL_STATE_READY;
  s->report.node_count = grt_node_count(s->executor);
  s->report.blob_bytes = (uint32_t)s->blob_size;
  s->report.bookkeeping_bytes = (uint32_t)req.bookkeeping_bytes;
  size_t pool_total = 0;
  for (uint32_t p = 0; p < req.pool_count; ++p) pool_total += req.pool_bytes[p];
  s->report.pool_bytes = (uint32_t)pool_total;
  s->report.input_staging_bytes = (uint32_t)input_bytes;

  uint8_t* p = reply_payload(s);
  grt_eval_put_u32(p, inputs);
  grt_eval_put_u32(p + 4, grt_output_count(s->executor));
  grt_eval_put_u32(p + 8, s->report.node_count);
  grt_eval_put_u32(p + 12, s->report.bookkeeping_bytes);
  grt_eval_put_u32(p + 16, s->report.pool_bytes);
  grt_eval_put_u32(p + 20, (uint32_t)s->ram_used);
  respond(s, r, 24);
}

/* ---- Inputs, runs, outputs ------------------------------------------------------------ */

/* Refuses an input or output index past the model's count. Returns 1 when in range. */
static int index_in_range(grt_eval_server* s, const grt_eval_event* r, const char* what, uint32_t index, uint32_t count) {
  if (index < count) return 1;
  grt_eval_text t = error_begin(s, GRT_EVAL_ERR_RANGE);
  grt_eval_text_str(&t, what);
  grt_eval_text_str(&t, " ");
  grt_eval_text_u64(&t, index);
  grt_eval_text_str(&t, " asked for, the model has ");
  grt_eval_text_u64(&t, count);
  error_send(s, r->sequence, &t);
  return 0;
}

static void bytes_out_of_range(grt_eval_server* s, const grt_eval_event* r, const char* what, uint32_t index,
                               size_t tensor_bytes, uint64_t offset, uint64_t size) {
  grt_eval_text t = error_begin(s, GRT_EVAL_ERR_RANGE);
  grt_eval_text_str(&t, what);
  grt_eval_text_str(&t, " ");
  grt_eval_text_u64(&t, index);
  grt_eval_text_str(&t, " has ");
  grt_eval_text_u64(&t, tensor_bytes);
  grt_eval_text_str(&t, " bytes, bytes ");
  grt_eval_text_u64(&t, offset);
  grt_eval_text_str(&t, " to ");
  grt_eval_text_u64(&t, offset + size);
  grt_eval_text_str(&t, " asked for");
  error_send(s, r->sequence, &t);
}

static void handle_set_input(grt_eval_server* s, const grt_eval_event* r) {
  if (!payload_is(s, r, 8, 1) || !needs_model(s, r)) return;
  const uint32_t index = grt_eval_get_u32(r->payload);
  const uint32_t offset = grt_eval_get_u32(r->payload + 4);
  const size_t size = r->length - 8;
  if (!index_in_range(s, r, "input", index, grt_input_count(s->executor))) return;
  const size_t bytes = grt_tensor_bytes(grt_input(s->executor, index));
  if (offset > bytes || size > bytes - offset) {
    bytes_out_of_range(s, r, "input", index, bytes, offset, size);
    return;
  }
  memcpy(s->input_copy + input_copy_offset(s, index) + offset, r->payload + 8, size);
  grt_eval_put_u32(reply_payload(s), (uint32_t)bytes);
  respond(s, r, 4);
}

/* Profiling: each node's cycles from just before its arguments are built to its end, so
 * the nodes add up to the whole run but for the loop around them. */
static int before_node_hook(void* user, uint32_t node) {
  grt_eval_server* s = (grt_eval_server*)user;
  (void)node;
  s->node_start = s->board->cycles(s->board->context);
  return 0;
}

static void node_done_hook(void* user, uint32_t node, const char* kernel_name, uint64_t ticks) {
  grt_eval_server* s = (grt_eval_server*)user;
  (void)kernel_name;
  (void)ticks; /* the platform's ticks; the board's cycle counter is what the report uses */
  const uint64_t now = s->board->cycles(s->board->context);
  if (node < s->report.node_count) s->node_cycles[node] += now - s->node_start;
}

static void handle_run(grt_eval_server* s, const grt_eval_event* r) {
  if (!payload_is(s, r, 8, 0) || !needs_model(s, r)) return;
  const uint32_t count = grt_eval_get_u32(r->payload);
  const uint32_t flags = grt_eval_get_u32(r->payload + 4);
  if (count == 0 || count > kMaxRunsPerRequest) {
    grt_eval_text t = error_begin(s, GRT_EVAL_ERR_RANGE);
    grt_eval_text_str(&t, "RUN of ");
    grt_eval_text_u64(&t, count);
    grt_eval_text_str(&t, " runs: from 1 to ");
    grt_eval_text_u64(&t, kMaxRunsPerRequest);
    error_send(s, r->sequence, &t);
    return;
  }
  const int profile = (flags & GRT_EVAL_RUN_PROFILE) != 0;
  s->hooks.before_node = profile ? before_node_hook : NULL;
  s->hooks.node_done = profile ? node_done_hook : NULL;
  uint64_t min = UINT64_MAX, max = 0, total = 0;
  const uint32_t inputs = grt_input_count(s->executor);
  for (uint32_t run = 0; run < count; ++run) {
    /* Every run computes what the first does: state (LSTM, SVDF, variables) starts over, and
     * a plan may reuse an input's bytes once it is read, so they are restored. */
    (void)grt_reset_state(s->executor); /* cannot fail: the executor holds its memory */
    for (uint32_t i = 0; i < inputs; ++i) {
      DLTensor* input = grt_input(s->executor, i);
      memcpy(input->data, s->input_copy + input_copy_offset(s, i), grt_tensor_bytes(input));
    }
    const uint64_t start = s->board->cycles(s->board->context);
    const grt_status status = grt_run(s->executor);
    const uint64_t cycles = s->board->cycles(s->board->context) - start;
    if (status != GRT_OK) {
      s->hooks.before_node = NULL;
      s->hooks.node_done = NULL;
      grt_eval_text t = error_begin(s, GRT_EVAL_ERR_RUN);
      grt_eval_text_str(&t, "run ");
      grt_eval_text_u64(&t, run + 1);
      grt_eval_text_str(&t, " of ");
      grt_eval_text_u64(&t, count);
      grt_eval_text_str(&t, ": ");
      grt_eval_text_str(&t, grt_last_error(s->executor)->message);
      error_send(s, r->sequence, &t);
      return;
    }
    min = cycles < min ? cycles : min;
    max = cycles > max ? cycles : max;
    total += cycles;
    grt_eval_report* report = &s->report;
    report->min_cycles = report->runs == 0 || cycles < report->min_cycles ? cycles : report->min_cycles;
    report->max_cycles = cycles > report->max_cycles ? cycles : report->max_cycles;
    report->last_cycles = cycles;
    report->total_cycles += cycles;
    report->runs += 1;
    if (profile) {
      report->profiled_cycles += cycles;
      report->profiled_runs += 1;
    }
  }
  s->hooks.before_node = NULL;
  s->hooks.node_done = NULL;
  uint8_t* p = reply_payload(s);
  grt_eval_put_u32(p, count);
  grt_eval_put_u64(p + 4, min);
  grt_eval_put_u64(p + 12, max);
  grt_eval_put_u64(p + 20, total);
  respond(s, r, 28);
}

static void handle_read_output(grt_eval_server* s, const grt_eval_event* r) {
  if (!payload_is(s, r, 10, 0) || !needs_model(s, r)) return;
  const uint32_t index = grt_eval_get_u32(r->payload);
  const uint32_t offset = grt_eval_get_u32(r->payload + 4);
  size_t size = grt_eval_get_u16(r->payload + 8);
  if (!index_in_range(s, r, "output", index, grt_output_count(s->executor))) return;
  const DLTensor* output = grt_output(s->executor, index);
  const size_t bytes = grt_tensor_bytes(output);
  if (offset > bytes) {
    bytes_out_of_range(s, r, "output", index, bytes, offset, size);
    return;
  }
  if (size > bytes - offset) size = bytes - offset;
  if (size > max_payload(s) - 4) size = max_payload(s) - 4;
  uint8_t* p = reply_payload(s);
  grt_eval_put_u32(p, (uint32_t)bytes);
  memcpy(p + 4, (const uint8_t*)output->data + offset, size);
  respond(s, r, 4 + size);
}

static void handle_report(grt_eval_server* s, const grt_eval_event* r) {
  if (!payload_is(s, r, 0, 0)) return;
  const grt_eval_board* b = s->board;
  grt_eval_report* report = &s->report;
  report->ram_area_bytes = (uint32_t)b->ram_area_size;
  report->stack_high_water_bytes = b->stack_high_water != NULL ? (uint32_t)b->stack_high_water(b->context) : 0;
  report->stack_size_bytes = b->stack_size != NULL ? (uint32_t)b->stack_size(b->context) : 0;
  report->cycle_source = b->cycle_source;
  uint8_t* p = reply_payload(s);
  grt_eval_put_u32(p, report->runs);
  grt_eval_put_u64(p + 4, report->last_cycles);
  grt_eval_put_u64(p + 12, report->min_cycles);
  grt_eval_put_u64(p + 20, report->max_cycles);
  grt_eval_put_u64(p + 28, report->total_cycles);
  grt_eval_put_u64(p + 36, report->profiled_cycles);
  const uint32_t words[] = {report->profiled_runs,       report->node_count,     report->blob_bytes,
                            report->bookkeeping_bytes,   report->pool_bytes,     report->input_staging_bytes,
                            report->ram_area_bytes,      report->stack_high_water_bytes,
                            report->stack_size_bytes,    report->cycle_source};
  for (size_t w = 0; w < sizeof words / sizeof words[0]; ++w) grt_eval_put_u32(p + 44 + 4 * w, words[w]);
  respond(s, r, GRT_EVAL_REPORT_WIRE_SIZE);
}

static void handle_node_cycles(grt_eval_server* s, const grt_eval_event* r) {
  if (!payload_is(s, r, 4, 0) || !needs_model(s, r)) return;
  const uint32_t first = grt_eval_get_u32(r->payload);
  const uint32_t nodes = s->report.node_count;
  if (first > nodes) {
    index_in_range(s, r, "node", first, nodes);
    return;
  }
  size_t count = nodes - first;
  if (count > (max_payload(s) - 6) / 8) count = (max_payload(s) - 6) / 8;
  uint8_t* p = reply_payload(s);
  grt_eval_put_u32(p, first);
  grt_eval_put_u16(p + 4, (uint16_t)count);
  for (size_t n = 0; n < count; ++n) grt_eval_put_u64(p + 6 + 8 * n, s->node_cycles[first + n]);
  respond(s, r, 6 + 8 * count);
}

static void handle_request(grt_eval_server* s, const grt_eval_event* r) {
  switch (r->command) {
    case GRT_EVAL_HELLO: handle_hello(s, r); return;
    case GRT_EVAL_KERNELS: handle_kernels(s, r); return;
    case GRT_EVAL_LOAD_BEGIN: handle_load_begin(s, r); return;
    case GRT_EVAL_LOAD_CHUNK: handle_load_chunk(s, r); return;
    case GRT_EVAL_LOAD_END: handle_load_end(s, r); return;
    case GRT_EVAL_SET_INPUT: handle_set_input(s, r); return;
    case GRT_EVAL_RUN: handle_run(s, r); return;
    case GRT_EVAL_READ_OUTPUT: handle_read_output(s, r); return;
    case GRT_EVAL_REPORT: handle_report(s, r); return;
    case GRT_EVAL_NODE_CYCLES: handle_node_cycles(s, r); return;
    case GRT_EVAL_RESET:
      if (!payload_is(s, r, 0, 0)) return;
      drop_model(s);
      respond(s, r, 0);
      return;
    default: {
      grt_eval_text t = error_begin(s, GRT_EVAL_ERR_UNKNOWN_COMMAND);
      grt_eval_text_str(&t, "command ");
      grt_eval_text_hex32(&t, r->command);
      grt_eval_text_str(&t, " is not a request (HELLO 0x01 to RESET 0x0b)");
      error_send(s, r->sequence, &t);
      return;
    }
  }
}

/* ---- Framing -------------------------------------------------------------------------- */

static void handle_event(grt_eval_server* s, const grt_eval_event* e) {
  if (e->kind == GRT_EVAL_EVENT_FRAME) {
    handle_request(s, e);
    return;
  }
  grt_eval_text t = error_begin(s, e->kind == GRT_EVAL_EVENT_BAD_CRC ? GRT_EVAL_ERR_CRC : GRT_EVAL_ERR_LENGTH);
  if (e->kind == GRT_EVAL_EVENT_BAD_CRC) {
    grt_eval_text_str(&t, "frame's CRC-32 is ");
    grt_eval_text_hex32(&t, e->a_value);
    grt_eval_text_str(&t, ", its bytes give ");
    grt_eval_text_hex32(&t, e->b_value);
  } else {
    grt_eval_text_str(&t, "frame length ");
    grt_eval_text_u64(&t, e->a_value);
    grt_eval_text_str(&t, " is past the limit of ");
    grt_eval_text_u64(&t, e->b_value);
    grt_eval_text_str(&t, " bytes");
  }
  error_send(s, e->sequence, &t);
}

void grt_eval_server_receive(grt_eval_server* server, const uint8_t* bytes, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    grt_eval_parser_push(&server->parser, bytes[i]);
    grt_eval_event event;
    while (grt_eval_parser_next(&server->parser, &event) != GRT_EVAL_EVENT_NONE) handle_event(server, &event);
  }
}

void grt_eval_server_link_idle(grt_eval_server* server) {
  const size_t pending = grt_eval_parser_pending(&server->parser);
  if (pending == 0) return;
  const uint8_t sequence = pending >= 4 ? server->parser.buffer[3] : 0;
  grt_eval_parser_reset(&server->parser);
  grt_eval_text t = error_begin(server, GRT_EVAL_ERR_CUT_SHORT);
  grt_eval_text_str(&t, "frame cut short: ");
  grt_eval_text_u64(&t, pending);
  grt_eval_text_str(&t, " bytes, then silence");
  error_send(server, sequence, &t);
}
