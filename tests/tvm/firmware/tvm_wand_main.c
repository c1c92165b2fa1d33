/* Antmicro's magic-wand models (TVM 0.18's generated C) as firmware: each of the ten samples
 * must give its expected class, and the int8 model the host's output bytes exactly.
 * WAND_FLOAT selects the float32 model; otherwise the int8 one. */
#include <string.h>

#include "tvm_image.h"

#if defined(WAND_FLOAT)
#define WAND_MODEL wand_float_model
#define WAND_MODEL_SIZE wand_float_model_size
#define WAND_KERNELS wand_float_kernels
#define WAND_INPUTS wand_float_inputs
typedef float wand_value;
#else
#define WAND_MODEL wand_int8_model
#define WAND_MODEL_SIZE wand_int8_model_size
#define WAND_KERNELS wand_int8_kernels
#define WAND_INPUTS wand_inputs
typedef signed char wand_value;
#endif

extern const unsigned char WAND_MODEL[];
extern const size_t WAND_MODEL_SIZE;
extern const grt_kernel_table WAND_KERNELS;
extern const wand_value WAND_INPUTS[10][384];
extern const signed char wand_host_outputs[10][4];
extern const unsigned char wand_expected_class[10];
extern const unsigned wand_sample_count;

static uint64_t bookkeeping[256];
static uint8_t pool[25600] __attribute__((aligned(16)));

int main(void) {
  grt_registry registry;
  grt_executor* executor =
      tvm_image_init(WAND_MODEL, WAND_MODEL_SIZE, &registry, &WAND_KERNELS, pool, sizeof pool, bookkeeping, sizeof bookkeeping);
  if (executor == NULL) return 1;
  unsigned failures = 0;
  for (unsigned s = 0; s < wand_sample_count; ++s) {
    memcpy(grt_input(executor, 0)->data, WAND_INPUTS[s], sizeof WAND_INPUTS[s]);
    if (grt_run(executor) != GRT_OK) {
      tvm_image_say("run failed on sample ", s);
      return 1;
    }
    const wand_value* out = (const wand_value*)grt_output(executor, 0)->data;
    unsigned best = 0;
    for (unsigned c = 1; c < 4; ++c) best = out[c] > out[best] ? c : best;
#if defined(WAND_FLOAT)
    const int same_bytes = 1; /* floats: the class is what counts */
#else
    const int same_bytes = memcmp(out, wand_host_outputs[s], 4) == 0;
#endif
    if (!same_bytes || best != wand_expected_class[s]) ++failures;
    tvm_image_say(!same_bytes ? "DIFFERENT bytes from the host; class " : best == wand_expected_class[s] ? "expected class " : "WRONG class ",
                  best);
  }
  tvm_image_say("samples failing: ", failures);
  return failures == 0 ? 0 : 1;
}
