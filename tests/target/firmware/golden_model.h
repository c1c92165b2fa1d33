/* A model's golden cases and memory, as generated at build time from the model zoo
 * (tests/target/scripts/generate_model_data.cmake): TFLM's reference inputs and outputs,
 * and .bss buffers sized from the blob's static plan. */
#ifndef GRAPHRT_FIRMWARE_GOLDEN_MODEL_H_
#define GRAPHRT_FIRMWARE_GOLDEN_MODEL_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/graphrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fw_golden_model {
  const char* name;
  uint32_t input_count;
  uint32_t output_count;
  const uint32_t* input_bytes;  /* per model input */
  const uint32_t* output_bytes; /* per model output */
  uint32_t case_count;
  const uint8_t* const* inputs;  /* case_count x input_count, case-major */
  const uint8_t* const* outputs; /* case_count x output_count, case-major */
  uint32_t pool_count;
  void* const* pools;
  const size_t* pool_sizes;
  void* bookkeeping;
  size_t bookkeeping_size;
  /* grt_reset_state when the model keeps State tensors (LSTM, SVDF): TFLM's golden cases
   * each start from a fresh interpreter. NULL otherwise, so a stateless image links none. */
  grt_status (*reset_state)(grt_executor* executor);
} fw_golden_model;

extern const fw_golden_model fw_golden;

/* The built-in kernels this image's model uses, by `graphrt kernels` at build time: the
 * image registers this table instead of grt_builtin_kernels(), so it links no other kernel. */
extern const grt_kernel_table fw_model_kernels;

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_FIRMWARE_GOLDEN_MODEL_H_ */
