/* The AoT twin of a firmware model: the model as C (`graphrt aot`, symbol fw_aot) calling
 * its kernels directly, pools sized at compile time from the generated header's macros,
 * TFLM's golden cases. No loader, executor or registry is linked. Exit code 0 when every
 * case is bit-exact. Prints instructions per inference and the run's stack in the lines
 * tests/target/aot_report.cmake reads. */
#include <stdint.h>
#include <string.h>

#include "aot_golden.h"
#include "console.h"
#include "fw_aot.h"
#include "golden_runner.h" /* FW_INSTRUCTIONS_PER_TICK */
#include "graphrt/platform.h"
#include "stack_report.h"
#include "stack_usage.h"

/* The firmware's RAM: exactly what the header says, in .bss. */
#if FW_AOT_POOL_COUNT > 4
#error "this harness defines up to 4 pools"
#endif
#if FW_AOT_POOL_COUNT > 0
uint8_t fw_aot_pool0[FW_AOT_POOL0_BYTES] __attribute__((aligned(FW_AOT_POOL0_ALIGN)));
#endif
#if FW_AOT_POOL_COUNT > 1
uint8_t fw_aot_pool1[FW_AOT_POOL1_BYTES] __attribute__((aligned(FW_AOT_POOL1_ALIGN)));
#endif
#if FW_AOT_POOL_COUNT > 2
uint8_t fw_aot_pool2[FW_AOT_POOL2_BYTES] __attribute__((aligned(FW_AOT_POOL2_ALIGN)));
#endif
#if FW_AOT_POOL_COUNT > 3
uint8_t fw_aot_pool3[FW_AOT_POOL3_BYTES] __attribute__((aligned(FW_AOT_POOL3_ALIGN)));
#endif

static size_t tensor_bytes(const DLTensor* t) {
  size_t n = (t->dtype.bits * t->dtype.lanes + 7u) / 8u;
  for (int i = 0; i < t->ndim; ++i) n *= (size_t)t->shape[i];
  return n;
}

static void line_u32(const char* before, uint32_t value, const char* after) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, before);
  fw_line_u32(&line, value);
  fw_line_text(&line, after);
  fw_line_end(&line);
}

/* One case: inputs in, run, outputs compared. 1 when it passes. */
static int run_case(uint32_t c, uint32_t* instructions, uint32_t* stack_bytes) {
  if (aot_golden.input_count != FW_AOT_INPUT_COUNT || aot_golden.output_count != FW_AOT_OUTPUT_COUNT) return 0;
  for (uint32_t i = 0; i < FW_AOT_INPUT_COUNT; ++i) {
    const DLTensor* input = fw_aot_input(i);
    if (tensor_bytes(input) != aot_golden.input_bytes[i]) return 0;
    memcpy(input->data, aot_golden.inputs[c * FW_AOT_INPUT_COUNT + i], aot_golden.input_bytes[i]);
  }
  fw_aot_reset_state(); /* TFLM's golden cases each start from a fresh interpreter */
  const uint32_t* const caller_stack = fw_stack_paint_below_caller();
  const char* message = NULL;
  const uint64_t start = grt_platform_ticks();
  const int result = fw_aot_run(&message);
  *instructions = (uint32_t)((grt_platform_ticks() - start) * FW_INSTRUCTIONS_PER_TICK);
  *stack_bytes = (uint32_t)fw_stack_used_below(caller_stack);
  if (result != 0) {
    fw_line line;
    fw_line_begin(&line);
    fw_line_text(&line, "run failed at node ");
    fw_line_u32(&line, (uint32_t)(result - 1));
    fw_line_text(&line, ": ");
    fw_line_text(&line, message != NULL ? message : "(no message)");
    fw_line_end(&line);
    return 0;
  }
  int same = 1;
  for (uint32_t o = 0; o < FW_AOT_OUTPUT_COUNT; ++o) {
    const DLTensor* output = fw_aot_output(o);
    same &= tensor_bytes(output) == aot_golden.output_bytes[o] &&
            memcmp(output->data, aot_golden.outputs[c * FW_AOT_OUTPUT_COUNT + o], aot_golden.output_bytes[o]) == 0;
  }
  line_u32("case ", c + 1, same ? ": pass" : ": FAIL (differs from TFLM)");
  return same;
}

int main(void) {
  grt_cortex_m_stack_paint();
  unsigned failures = 0;
  uint32_t least = UINT32_MAX, most = 0, deepest = 0;
  for (uint32_t c = 0; c < aot_golden.case_count; ++c) {
    uint32_t instructions = 0, stack_bytes = 0;
    if (!run_case(c, &instructions, &stack_bytes)) ++failures;
    if (instructions < least) least = instructions;
    if (instructions > most) most = instructions;
    if (stack_bytes > deepest) deepest = stack_bytes;
  }
  line_u32("init: ", 0, " instructions (AoT: nothing to load or bind)");
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, "instructions per inference: min ");
  fw_line_u32(&line, least);
  fw_line_text(&line, " max ");
  fw_line_u32(&line, most);
  fw_line_text(&line, " (+-40)");
  fw_line_end(&line);
  line_u32("aot run stack: ", deepest, " bytes below its caller");
  line_u32("pools: ", 0
#if FW_AOT_POOL_COUNT > 0
                          + FW_AOT_POOL0_BYTES
#endif
#if FW_AOT_POOL_COUNT > 1
                          + FW_AOT_POOL1_BYTES
#endif
#if FW_AOT_POOL_COUNT > 2
                          + FW_AOT_POOL2_BYTES
#endif
#if FW_AOT_POOL_COUNT > 3
                          + FW_AOT_POOL3_BYTES
#endif
           , " bytes");
  line_u32(failures == 0 ? "PASS " : "FAIL ", aot_golden.case_count - failures, " golden cases bit-exact");
  fw_report_stack();
  return failures == 0 && aot_golden.case_count > 0 ? 0 : 1;
}
