/* The tiny TVM model as firmware: its generated operators, the kernel table with their
 * argument checks and the blob, all made by graphrt_tvm_model; the pool in .bss. Exit code 0
 * when both outputs match what the host computed. */
#include <string.h>

#include "tvm_image.h"

extern const unsigned char tvm_tiny_model[];
extern const size_t tvm_tiny_model_size;
extern const grt_kernel_table tvm_tiny_kernels;
extern const float tiny_x[8];
extern const float tiny_expected[2][4];

static uint64_t bookkeeping[128];
static uint8_t pool[1024] __attribute__((aligned(16)));

int main(void) {
  grt_registry registry;
  grt_executor* executor =
      tvm_image_init(tvm_tiny_model, tvm_tiny_model_size, &registry, &tvm_tiny_kernels, pool, sizeof pool, bookkeeping, sizeof bookkeeping);
  if (executor == NULL) return 1;
  memcpy(grt_input(executor, 0)->data, tiny_x, sizeof(float) * 8);
  if (grt_run(executor) != GRT_OK) {
    tvm_image_say("tvm_tiny: run failed, status ", (uint32_t)grt_last_error(executor)->status);
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
  tvm_image_say("tvm_tiny: outputs differing from the host's: ", mismatches);
  return mismatches == 0 ? 0 : 1;
}
