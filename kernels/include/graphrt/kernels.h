/* graphrt's built-in kernels: a table sorted by name at compile time, to hand to
 * grt_registry_init. Kernel names are <operator>_<types>: s8 (int8 activations), s16
 * (int16 activations, int8 weights), f32. Each kernel's argument list is documented beside
 * its implementation under kernels/src/. */
#ifndef GRAPHRT_KERNELS_H_
#define GRAPHRT_KERNELS_H_

#include "graphrt/graphrt.h"

#ifdef __cplusplus
extern "C" {
#endif

const grt_kernel_table* grt_builtin_kernels(void);
/* The built-in kernel named `name` (a binary search of the sorted table), or NULL. */
const grt_kernel_entry* grt_builtin_kernel_find(const char* name);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_KERNELS_H_ */
