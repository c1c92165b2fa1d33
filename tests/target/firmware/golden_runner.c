#include "golden_runner.h"

#include <string.h>

#include "console.h"
#include "graphrt/graphrt.h"
#include "graphrt/platform.h"
#include "stack_report.h"

/* FNV-1a: a short fingerprint of the outputs, to compare runs and hosts at a glance. */
static uint32_t fnv1a(uint32_t hash, const uint8_t* bytes, size_t size) {
  for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 16777619u;
  return hash;
}

static void report_error(const char* what, const grt_error* error) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, what);
  fw_line_text(&line, ": ");
  fw_line_text(&line, grt_status_name(error->status));
  fw_line_text(&line, ": ");
  fw_line_text(&line, error->message);
  fw_line_end(&line);
}

/* The memory reserved at build time (graphrt inspect's 32-bit Arm figures); grt_init
 * refuses anything less than it needs. */
static void report_memory(const fw_golden_model* model) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "model ");
  fw_line_text(&line, model->name);
  fw_line_text(&line, ": bookkeeping reserved ");
  fw_line_u32(&line, (uint32_t)model->bookkeeping_size);
  fw_line_end(&line);
  for (uint32_t p = 0; p < model->pool_count; ++p) {
    fw_line_begin(&line);
    fw_line_text(&line, "pool ");
    fw_line_u32(&line, p);
    fw_line_text(&line, ": reserved ");
    fw_line_u32(&line, (uint32_t)model->pool_sizes[p]);
    fw_line_end(&line);
  }
}

unsigned fw_check_requirements(const fw_golden_model* model, const void* blob, size_t blob_size) {
  grt_error error;
  grt_requirements needed;
  if (grt_model_requirements(blob, blob_size, GRT_STRATEGY_STATIC, &needed, &error) != GRT_OK) {
    report_error("requirements", &error);
    return 1;
  }
  int same = needed.bookkeeping_bytes == model->bookkeeping_size && needed.pool_count == model->pool_count;
  for (uint32_t p = 0; same && p < needed.pool_count; ++p) same = needed.pool_bytes[p] == model->pool_sizes[p];
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "requirements on the device: bookkeeping ");
  fw_line_u32(&line, (uint32_t)needed.bookkeeping_bytes);
  fw_line_text(&line, same ? ", pools as reserved at build time" : ": DIFFERENT from what was reserved at build time");
  fw_line_end(&line);
  return same ? 0u : 1u;
}

int fw_golden_write_inputs(grt_executor* executor, const fw_golden_model* model, uint32_t index) {
  for (uint32_t i = 0; i < model->input_count; ++i) {
    DLTensor* input = grt_input(executor, i);
    if (grt_tensor_bytes(input) != model->input_bytes[i]) return 0;
    memcpy(input->data, model->inputs[index * model->input_count + i], model->input_bytes[i]);
  }
  return 1;
}

int fw_golden_outputs_match(grt_executor* executor, const fw_golden_model* model, uint32_t index,
                            uint32_t* digest) {
  int same = 1;
  *digest = 2166136261u;
  for (uint32_t o = 0; o < model->output_count; ++o) {
    const DLTensor* output = grt_output(executor, o);
    const uint8_t* expected = model->outputs[index * model->output_count + o];
    if (grt_tensor_bytes(output) != model->output_bytes[o]) return 0;
    *digest = fnv1a(*digest, (const uint8_t*)output->data, model->output_bytes[o]);
    same &= memcmp(output->data, expected, model->output_bytes[o]) == 0;
  }
  return same;
}

/* What one case cost: instructions of grt_run, and the stack grt_run used below its caller. */
typedef struct case_cost {
  uint32_t instructions;
  uint32_t stack_bytes;
} case_cost;

/* Copies a case's inputs in, runs, compares. Returns 1 when the case passes. */
static int run_case(grt_executor* executor, const fw_golden_model* model, uint32_t index, case_cost* cost) {
  if (model->reset_state != NULL && model->reset_state(executor) != GRT_OK) {
    report_error("reset state", grt_last_error(executor));
    return 0;
  }
  if (!fw_golden_write_inputs(executor, model, index)) return 0;
  const uint32_t* const caller_stack = fw_stack_paint_below_caller();
  const uint64_t start = grt_platform_ticks();
  const grt_status status = grt_run(executor);
  const uint64_t ticks = grt_platform_ticks() - start;
  cost->stack_bytes = (uint32_t)fw_stack_used_below(caller_stack);
  cost->instructions = (uint32_t)(ticks * FW_INSTRUCTIONS_PER_TICK);
  if (status != GRT_OK) {
    report_error("run", grt_last_error(executor));
    return 0;
  }
  uint32_t digest = 0;
  const int same = fw_golden_outputs_match(executor, model, index, &digest);
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "case ");
  fw_line_u32(&line, index + 1);
  fw_line_text(&line, ": outputs fnv1a ");
  fw_line_hex32(&line, digest);
  fw_line_text(&line, ", ");
  fw_line_u32(&line, cost->instructions);
  fw_line_text(&line, " instructions (+-40), ");
  fw_line_text(&line, same ? "pass" : "FAIL (differs from TFLM)");
  fw_line_end(&line);
  return same;
}

unsigned fw_run_golden_cases(const fw_golden_model* model, const void* blob, size_t blob_size) {
  grt_error error;
  report_memory(model);

  grt_registry registry;
  grt_registry_init(&registry, NULL, 0, &fw_model_kernels);
  grt_options options;
  memset(&options, 0, sizeof options);
  options.registry = &registry;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.memory.pool_buffers = model->pools;
  options.memory.pool_sizes = model->pool_sizes;
  options.memory.pool_count = model->pool_count;

  grt_executor* executor;
  const uint64_t init_start = grt_platform_ticks();
  if (grt_init(&executor, model->bookkeeping, model->bookkeeping_size, blob, blob_size, &options, &error) !=
      GRT_OK) {
    report_error("init", &error);
    return 1;
  }
  const uint32_t init_instructions = (uint32_t)((grt_platform_ticks() - init_start) * FW_INSTRUCTIONS_PER_TICK);

  unsigned failures = 0;
  uint32_t least = UINT32_MAX, most = 0, deepest_run = 0;
  for (uint32_t c = 0; c < model->case_count; ++c) {
    case_cost cost = {0, 0};
    if (!run_case(executor, model, c, &cost)) ++failures;
    if (cost.instructions < least) least = cost.instructions;
    if (cost.instructions > most) most = cost.instructions;
    if (cost.stack_bytes > deepest_run) deepest_run = cost.stack_bytes;
  }

  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "init: ");
  fw_line_u32(&line, init_instructions);
  fw_line_text(&line, " instructions (+-40)");
  fw_line_end(&line);
  fw_line_begin(&line);
  fw_line_text(&line, "instructions per inference: min ");
  fw_line_u32(&line, least);
  fw_line_text(&line, " max ");
  fw_line_u32(&line, most);
  fw_line_text(&line, " (+-40)");
  fw_line_end(&line);
  fw_line_begin(&line);
  fw_line_text(&line, "grt_run stack: ");
  fw_line_u32(&line, deepest_run);
  fw_line_text(&line, " bytes below its caller (deepest of ");
  fw_line_u32(&line, model->case_count);
  fw_line_text(&line, " runs)");
  fw_line_end(&line);
  fw_line_begin(&line);
  fw_line_text(&line, failures == 0 ? "PASS " : "FAIL ");
  fw_line_u32(&line, model->case_count - failures);
  fw_line_text(&line, "/");
  fw_line_u32(&line, model->case_count);
  fw_line_text(&line, " golden cases bit-exact");
  fw_line_end(&line);
  return failures + (model->case_count == 0 ? 1u : 0u);
}
