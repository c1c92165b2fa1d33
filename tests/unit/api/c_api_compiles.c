/* The public headers are C99: this file is compiled as C with -std=c99 -Wall -Werror. */
#include "graphrt/allocator.h"
#include "graphrt/graphrt.h"
#include "graphrt/heap_allocator.h"
#include "graphrt/kernels.h"
#include "graphrt/packed_func.h"
#include "graphrt/platform.h"

int graphrt_c_api_smoke(const void* blob, size_t size);

int graphrt_c_api_smoke(const void* blob, size_t size) {
  grt_requirements req;
  grt_error error;
  grt_registry registry;
  grt_registry_init(&registry, NULL, 0, grt_builtin_kernels());
  return (int)grt_model_requirements(blob, size, GRT_STRATEGY_STATIC, &req, &error);
}

/* grt_reset_state from C: NULL is refused with GRT_ERR_ARGUMENT. */
int graphrt_c_api_reset_null(void);

int graphrt_c_api_reset_null(void) { return (int)grt_reset_state(NULL); }
