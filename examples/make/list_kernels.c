/* Lists graphrt's built-in kernels: proof that a Make project links the installed libraries. */
#include <stdio.h>

#include "graphrt/kernels.h"

int main(void) {
  const grt_kernel_table* table = grt_builtin_kernels();
  for (size_t i = 0; i < table->count; ++i) printf("%s\n", table->entries[i].name);
  fprintf(stderr, "list_kernels: %zu built-in kernels\n", table->count);
  return table->count > 0 ? 0 : 1;
}
