/* The tiny TVM model as firmware: its generated operators, the kernel table with their
 * argument checks and the blob, all made by graphrt_tvm_model; pools in .bss. Exit code 0
 * when both outputs match what the host computed. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "console.h"
#include "graphrt/graphrt.h"

extern const unsigned char tvm_tiny_model[];
extern const size_t tvm_tiny_model_size;
extern const grt_kernel_table tvm_tiny_kernels;
extern const float tiny_x[8];
extern const float tiny_expected[2][4];

static uint64_t bookkeeping[128];
static uint8_t pool[1024] __attribute__((aligned(16)));

static void say(const char* text, uint32_t value) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, text);
  fw_line_u32(&line, value);
  fw_line_end(&line);
}

int main(void) {
  grt_requirements needs;
  grt_error error;
  if (grt_model_requirements(tvm_tiny_model, tvm_tiny_model_size, GRT_STRATEGY_STATIC, &needs, &error) != GRT_OK ||
      needs.pool_count != 1 || needs.pool_bytes[0] > sizeof pool || needs.bookkeeping_bytes > sizeof bookkeeping) {
    say("tvm_tiny: the blob does not fit this image's memory; pool bytes ", (uint32_t)needs.pool_bytes[0]);
    return 1;
  }
  grt_registry registry;
  grt_registry_init(&registry, NULL, 0, &tvm_tiny_kernels);
  void* pools[] = {pool};
  size_t sizes[] = {sizeof pool};
  grt_options options;
  memset(&options, 0, sizeof options);
  options.registry = &registry;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.memory.pool_buffers = pools;
  options.memory.pool_sizes = sizes;
  options.memory.pool_count = 1;
  grt_executor* executor;
  if (grt_init(&executor, bookkeeping, sizeof bookkeeping, tvm_tiny_model, tvm_tiny_model_size, &options, &error) != GRT_OK) {
    fw_line line;
    fw_line_begin(&line);
    fw_line_text(&line, error.message);
    fw_line_end(&line);
    return 1;
  }
  memcpy(grt_input(executor, 0)->data, tiny_x, sizeof(float) * 8);
  if (grt_run(executor) != GRT_OK) {
    say("tvm_tiny: run failed, status ", (uint32_t)grt_last_error(executor)->status);
    return 1;
  }
  unsigned mismatches = 0;
  for (uint32_t o = 0; o < 2; ++o) {
    const float* got = (const float*)grt_output(executor, o)->data;
    for (uint32_t i = 0; i < 4; ++i) {
      /* The M4F may fuse multiply-adds the host did not: a relative tolerance. */
      const float want = tiny_expected[o][i];
      const float diff = got[i] > want ? got[i] - want : want - got[i];
      const float scale = want > 0 ? want : -want;
      if (diff > 1e-5f * (scale > 1.0f ? scale : 1.0f)) ++mismatches;
    }
  }
  say("tvm_tiny: outputs differing from the host's: ", mismatches);
  say("tvm_tiny: pool bytes ", (uint32_t)needs.pool_bytes[0]);
  return mismatches == 0 ? 0 : 1;
}
