/* Runs a model's golden cases on the device and reports outputs' digests, instructions
 * per inference, grt_run's stack depth and the memory used, in lines the size/RAM report
 * parses. The case helpers serve firmware that runs its own executors (FreeRTOS tasks). */
#ifndef GRAPHRT_FIRMWARE_GOLDEN_RUNNER_H_
#define GRAPHRT_FIRMWARE_GOLDEN_RUNNER_H_

#include <stddef.h>

#include "golden_model.h"
#include "graphrt/graphrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads blob on the static pool strategy and runs every case once. Returns the number of
 * failures (a case whose outputs differ from TFLM's, or a load/run error counts one). */
unsigned fw_run_golden_cases(const fw_golden_model* model, const void* blob, size_t blob_size);

/* Asks the device's runtime what the blob needs (grt_model_requirements) and compares it
 * with what the image reserved at build time. Returns 1 if they differ. Only the image that
 * proves the build-time figures calls it: others do not link grt_model_requirements. */
unsigned fw_check_requirements(const fw_golden_model* model, const void* blob, size_t blob_size);

/* Copies case `index`'s inputs into the executor's inputs. Returns 0 if a size differs. */
int fw_golden_write_inputs(grt_executor* executor, const fw_golden_model* model, uint32_t index);

/* Compares the executor's outputs with TFLM's for case `index`; *digest gets their FNV-1a.
 * Returns 1 when every byte matches. */
int fw_golden_outputs_match(grt_executor* executor, const fw_golden_model* model, uint32_t index,
                            uint32_t* digest);

/* Instructions in a tick interval under qemu -icount shift=0 with SysTick at 25 MHz: one
 * tick every 40 instructions, so a figure is exact to +-40. The build sets it from the
 * board's clock (50 on the 20 MHz mps2-an505). */
#ifndef FW_INSTRUCTIONS_PER_TICK
#define FW_INSTRUCTIONS_PER_TICK 40u
#endif

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_FIRMWARE_GOLDEN_RUNNER_H_ */
