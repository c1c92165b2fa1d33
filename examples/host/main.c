/* Runs a model built in by graphrt_add_model on input files and writes its outputs:
 *   run_model IN0.bin [IN1.bin ...] OUT_DIR      (OUT_DIR/out<j>.bin, raw tensor bytes)
 * Everything is sized at compile time from net_model.h: the static pool and the executor's
 * bookkeeping live in .bss; nothing is allocated. */
#include <stdio.h>
#include <string.h>

#include "graphrt/graphrt.h"
#include "net_model.h"

#if NET_POOL_COUNT != 1
#error "this example binds one pool; see the README of graphrt for several"
#endif
static unsigned char pool[NET_POOL0_BYTES] __attribute__((aligned(NET_POOL0_ALIGNMENT)));
static unsigned long long bookkeeping[(NET_BOOKKEEPING_BYTES + 7) / 8];

static int read_exactly(const char* path, void* data, size_t size) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return 0;
  const size_t got = fread(data, 1, size, f);
  const int extra = fgetc(f);
  fclose(f);
  return got == size && extra == EOF;
}

int main(int argc, char** argv) {
  if (argc != NET_INPUT_COUNT + 2) {
    fprintf(stderr, "usage: %s IN0.bin ... (%d inputs) OUT_DIR\n", argv[0], NET_INPUT_COUNT);
    return 2;
  }
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
    fprintf(stderr, "run_model: %s\n", err.message);
    return 1;
  }
  for (uint32_t i = 0; i < grt_input_count(exec); ++i) {
    DLTensor* in = grt_input(exec, i);
    if (!read_exactly(argv[1 + i], in->data, grt_tensor_bytes(in))) {
      fprintf(stderr, "run_model: %s is not %zu bytes\n", argv[1 + i], grt_tensor_bytes(in));
      return 1;
    }
  }
  if (grt_run(exec) != GRT_OK) {
    fprintf(stderr, "run_model: %s\n", grt_last_error(exec)->message);
    return 1;
  }
  for (uint32_t o = 0; o < grt_output_count(exec); ++o) {
    char path[4096];
    snprintf(path, sizeof path, "%s/out%u.bin", argv[argc - 1], (unsigned)o);
    FILE* f = fopen(path, "wb");
    const DLTensor* out = grt_output(exec, o);
    if (f == NULL || fwrite(out->data, 1, grt_tensor_bytes(out), f) != grt_tensor_bytes(out) || fclose(f) != 0) {
      fprintf(stderr, "run_model: cannot write %s\n", path);
      return 1;
    }
  }
  printf("run_model: %u output(s) written to %s\n", (unsigned)grt_output_count(exec), argv[argc - 1]);
  return 0;
}
