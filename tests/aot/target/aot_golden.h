/* TFLM's golden cases for an AoT twin, written at build time by
 * tests/target/aot_golden_data.cmake (only the cases: the pools come from the model's own
 * header). */
#ifndef GRAPHRT_TESTS_AOT_TARGET_AOT_GOLDEN_H_
#define GRAPHRT_TESTS_AOT_TARGET_AOT_GOLDEN_H_

#include <stdint.h>

typedef struct aot_golden_cases {
  uint32_t input_count;
  uint32_t output_count;
  const uint32_t* input_bytes;
  const uint32_t* output_bytes;
  uint32_t case_count;
  const uint8_t* const* inputs;  /* case_count x input_count, case-major */
  const uint8_t* const* outputs; /* case_count x output_count, case-major */
} aot_golden_cases;

extern const aot_golden_cases aot_golden;

#endif /* GRAPHRT_TESTS_AOT_TARGET_AOT_GOLDEN_H_ */
