/* One ahead-of-time model compiled into a test: its generated functions, listed by
 * aot_models.c (written by CMake) so the tests can walk them. C and C++. */
#ifndef GRAPHRT_TESTS_AOT_AOT_MODEL_H_
#define GRAPHRT_TESTS_AOT_AOT_MODEL_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/aot.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aot_test_model {
  const char* name; /* the zoo model's name */
  int (*run)(const char** message);
  void (*reset_state)(void);
  const DLTensor* (*input)(uint32_t index);
  const DLTensor* (*output)(uint32_t index);
  uint32_t input_count;
  uint32_t output_count;
} aot_test_model;

extern const aot_test_model* const aot_test_models[];
extern const size_t aot_test_model_count;

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_TESTS_AOT_AOT_MODEL_H_ */
