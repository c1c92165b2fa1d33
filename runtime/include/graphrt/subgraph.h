/* The runtime's one entry for control-flow kernels (IF, WHILE, CALL_ONCE: kernels/src/control): run a
 * subgraph of the model the running node belongs to, and find its inputs' and outputs'
 * bytes. A control node gets each subgraph it invokes as an argument of type code
 * GRT_SUBGRAPH_ARG holding the subgraph's index in v_int64 (the blob's ArgKind Subgraph,
 * which the loader proved in range and later than the node's own graph: no recursion; no
 * other argument has that code). Other kernels never call these. The object files that
 * define them, and the loader's subgraph checks, are linked only into programs with a
 * control kernel.
 */
#ifndef GRAPHRT_SUBGRAPH_H_
#define GRAPHRT_SUBGRAPH_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/packed_func.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_SUBGRAPH_ARG kTVMOpaqueHandle

/* 0 if the executor running on this thread can run subgraphs; otherwise -1 after
 * TVMAPISetLastError (for the control kernels' init-time checks). */
int grt_subgraph_supported(void);

/* How many inputs (`output` 0) or outputs (1) the subgraph lists (0 for no such subgraph). */
uint32_t grt_subgraph_io_count(int64_t subgraph, int output);

/* Describes input or output `i` of the subgraph into `d` (dtype, shape; data once memory is
 * bound). -1 if there is no such entry. */
int grt_subgraph_describe(int64_t subgraph, int output, uint32_t i, DLTensor* d);

/* Runs the subgraph's nodes in order on the running executor. 0, or -1 with the message
 * set: a node failed (the message names it), or the run was cancelled (grt_cancel, or the
 * before_node hook asking to stop), which is checked before the first node and after each:
 * a WHILE that never ends is stopped by cancelling the run. Under GRT_ARGUMENTS_LEAN this reuses the executor's argument scratch:
 * the caller reads every argument it needs before the first call. */
int grt_subgraph_run(int64_t subgraph);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* GRAPHRT_SUBGRAPH_H_ */
