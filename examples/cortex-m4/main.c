/* One inference on qemu's mps2-an386: the model in flash (graphrt_add_model), the pool and
 * the bookkeeping in .bss sized by net_model.h, exit code 0 when output 0 is as expected. */
#include <string.h>

#include "graphrt/cortex-m/semihosting.h"
#include "graphrt/graphrt.h"
#include "net_model.h"

#if NET_POOL_COUNT != 1
#error "this example binds one pool"
#endif

extern const unsigned char example_input[];
extern const unsigned example_input_size;
extern const unsigned char example_expected[];
extern const unsigned example_expected_size;

static unsigned char pool[NET_POOL0_BYTES] __attribute__((aligned(NET_POOL0_ALIGNMENT)));
static unsigned long long bookkeeping[(NET_BOOKKEEPING_BYTES + 7) / 8];

int main(void) {
  grt_registry registry;
  grt_registry_init(&registry, NULL, 0, &net_kernels);
  void* pools[] = {pool};
  size_t sizes[] = {sizeof pool};
  grt_options options;
  memset(&options, 0, sizeof options);
  options.registry = &registry;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.memory.pool_buffers = pools;
  options.memory.pool_sizes = sizes;
  options.memory.pool_count = NET_POOL_COUNT;

  grt_executor* exec;
  grt_error err;
  if (grt_init(&exec, bookkeeping, sizeof bookkeeping, net_model, net_model_size, &options, &err) != GRT_OK) {
    grt_semihosting_write(err.message);
    grt_semihosting_write("\n");
    grt_semihosting_exit(1);
  }
  DLTensor* in = grt_input(exec, 0);
  if (grt_tensor_bytes(in) != example_input_size) grt_semihosting_exit(2);
  memcpy(in->data, example_input, example_input_size);
  if (grt_run(exec) != GRT_OK) {
    grt_semihosting_write(grt_last_error(exec)->message);
    grt_semihosting_write("\n");
    grt_semihosting_exit(1);
  }
  const DLTensor* out = grt_output(exec, 0);
  const int same = grt_tensor_bytes(out) == example_expected_size && memcmp(out->data, example_expected, example_expected_size) == 0;
  grt_semihosting_write(same ? "example: output matches the expected bytes\n" : "example: output differs\n");
  grt_semihosting_exit(same ? 0 : 1);
}
