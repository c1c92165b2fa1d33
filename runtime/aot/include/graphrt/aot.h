/* The support runtime of ahead-of-time models (`graphrt aot`): what a generated
 * <symbol>_run() needs besides its kernels. TVM's backend calls (TVMBackendAllocWorkspace,
 * TVMBackendFreeWorkspace, TVMAPISetLastError) are served from the running node's planned
 * workspace through a context on the run function's stack, found through the platform's
 * per-thread slot (grt_platform_current_slot), as the interpreter's are. Nothing here knows
 * the loader, the executor or FlatBuffers.
 *
 * An image links either this library or a graphrt runtime (grt_runtime*), never both: each
 * defines TVM's backend calls. */
#ifndef GRAPHRT_AOT_H_
#define GRAPHRT_AOT_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/packed_func.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One run of a generated model: lives on its run function's stack. */
typedef struct grt_aot_context {
  uint8_t* workspace;       /* the running node's planned workspace, NULL when it has none */
  size_t workspace_bytes;   /* its planned size */
  size_t workspace_used;    /* bytes handed out (LIFO, like the interpreter's workspace stack) */
  const char* message;      /* what the last kernel passed to TVMAPISetLastError, or NULL */
  void* previous;           /* the slot's value before grt_aot_enter */
} grt_aot_context;

/* Per-node hooks of a generated run function built with GRT_AOT_HOOKS defined, as the
 * interpreter's grt_hooks: before_node returning non-zero cancels the run before that node
 * (that is also how a run is cancelled from elsewhere: the hook reads a flag). */
typedef struct grt_aot_hooks {
  int (*before_node)(void* user, uint32_t node);
  void (*node_done)(void* user, uint32_t node);
  void* user;
} grt_aot_hooks;

/* Makes `context` the one this thread's backend calls use, until grt_aot_leave. */
void grt_aot_enter(grt_aot_context* context);

/* Restores the slot and returns `result`; on a kernel failure (result > 0) *message, when
 * message is not NULL, is what the kernel said (or NULL). */
int grt_aot_leave(grt_aot_context* context, int result, const char** message);

/* The next node's workspace (NULL and 0 for none): its planned bytes in its pool. */
static inline void grt_aot_workspace(grt_aot_context* context, uint8_t* base, size_t bytes) {
  context->workspace = base;
  context->workspace_bytes = bytes;
  context->workspace_used = 0;
}

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_AOT_H_ */
