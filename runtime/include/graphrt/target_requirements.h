/* Memory figures for a build of graphrt on another kind of machine, computed on this one.
 * Firmware sizes its executor storage at build time from these (`graphrt inspect` prints
 * them), so the device needs neither grt_model_requirements' code nor a guess. */
#ifndef GRAPHRT_TARGET_REQUIREMENTS_H_
#define GRAPHRT_TARGET_REQUIREMENTS_H_

#include "graphrt/graphrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grt_abi {
  GRT_ABI_NATIVE = 0, /* this build: the same as grt_model_requirements_for */
  GRT_ABI_ARM32 = 1,  /* 32-bit Arm (AAPCS): Cortex-M, and Cortex-A in 32-bit mode */
} grt_abi;

/* grt_model_requirements_for as a build of graphrt for `abi` would answer it. Only the
 * bookkeeping depends on the ABI (pointer and struct sizes); pools and allocator bytes are
 * the blob's. */
grt_status grt_model_requirements_abi(const void* blob, size_t blob_size, const grt_options* options, grt_abi abi,
                                      grt_requirements* out, grt_error* error);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_TARGET_REQUIREMENTS_H_ */
