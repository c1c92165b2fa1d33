/* Antmicro's float32 magic-wand model (TVM 0.18's generated C) as firmware: each of the ten
 * samples must give its expected class. */
#include <string.h>

#include "tvm_image.h"

extern const unsigned char wand_float_model[];
extern const size_t wand_float_model_size;
extern const grt_kernel_table wand_float_kernels;
extern const float wand_float_inputs[10][384];
extern const unsigned char wand_expected_class[10];
extern const unsigned wand_sample_count;

static uint64_t bookkeeping[256];
static uint8_t pool[25600] __attribute__((aligned(16)));

int main(void) {
  grt_registry registry;
  grt_executor* executor = tvm_image_init(wand_float_model, wand_float_model_size, &registry, &wand_float_kernels, pool, sizeof pool,
                                          bookkeeping, sizeof bookkeeping);
  if (executor == NULL) return 1;
  unsigned failures = 0;
  for (unsigned s = 0; s < wand_sample_count; ++s) {
    memcpy(grt_input(executor, 0)->data, wand_float_inputs[s], sizeof wand_float_inputs[s]);
    if (grt_run(executor) != GRT_OK) {
      tvm_image_say("magic_wand: run failed on sample ", s);
      return 1;
    }
    const float* out = (const float*)grt_output(executor, 0)->data;
    unsigned best = 0;
    for (unsigned c = 1; c < 4; ++c) best = out[c] > out[best] ? c : best;
    if (best != wand_expected_class[s]) ++failures;
    tvm_image_say(best == wand_expected_class[s] ? "expected class " : "WRONG class ", best);
  }
  tvm_image_say("magic_wand: samples failing: ", failures);
  return failures == 0 ? 0 : 1;
}
