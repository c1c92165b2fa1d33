/* Antmicro's int8 magic-wand model (TVM 0.18's generated C) as firmware: each of the ten
 * samples must give the host's output bytes exactly and the expected class. */
#include <string.h>

#include "tvm_image.h"

extern const unsigned char wand_int8_model[];
extern const size_t wand_int8_model_size;
extern const grt_kernel_table wand_int8_kernels;
extern const signed char wand_inputs[10][384];
extern const signed char wand_host_outputs[10][4];
extern const unsigned char wand_expected_class[10];
extern const unsigned wand_sample_count;

static uint64_t bookkeeping[256];
static uint8_t pool[8192] __attribute__((aligned(16)));

int main(void) {
  grt_registry registry;
  grt_executor* executor = tvm_image_init(wand_int8_model, wand_int8_model_size, &registry, &wand_int8_kernels, pool, sizeof pool,
                                          bookkeeping, sizeof bookkeeping);
  if (executor == NULL) return 1;
  unsigned failures = 0;
  for (unsigned s = 0; s < wand_sample_count; ++s) {
    memcpy(grt_input(executor, 0)->data, wand_inputs[s], sizeof wand_inputs[s]);
    if (grt_run(executor) != GRT_OK) {
      tvm_image_say("magic_wand_int8: run failed on sample ", s);
      return 1;
    }
    const signed char* out = (const signed char*)grt_output(executor, 0)->data;
    unsigned best = 0;
    for (unsigned c = 1; c < 4; ++c) best = out[c] > out[best] ? c : best;
    const int same_bytes = memcmp(out, wand_host_outputs[s], 4) == 0;
    if (!same_bytes || best != wand_expected_class[s]) ++failures;
    tvm_image_say(same_bytes ? "same bytes as the host; class " : "DIFFERENT bytes from the host; class ", best);
  }
  tvm_image_say("magic_wand_int8: samples failing: ", failures);
  return failures == 0 ? 0 : 1;
}
