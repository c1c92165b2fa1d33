#include "tvm_image.h"

#include <string.h>

#include "console.h"

void tvm_image_say(const char* text, uint32_t value) {
  fw_line line;
  fw_line_begin(&line);
  fw_line_text(&line, text);
  fw_line_u32(&line, value);
  fw_line_end(&line);
}

grt_executor* tvm_image_init(const unsigned char* blob, size_t blob_size, grt_registry* registry, const grt_kernel_table* kernels,
                             void* pool, size_t pool_size, uint64_t* storage, size_t storage_size) {
  grt_requirements needs;
  grt_error error;
  if (grt_model_requirements(blob, blob_size, GRT_STRATEGY_STATIC, &needs, &error) != GRT_OK || needs.pool_count != 1 ||
      needs.pool_bytes[0] > pool_size || needs.bookkeeping_bytes > storage_size) {
    tvm_image_say("the blob does not fit this image's memory; pool bytes ", (uint32_t)needs.pool_bytes[0]);
    return NULL;
  }
  tvm_image_say("pool bytes ", (uint32_t)needs.pool_bytes[0]);
  tvm_image_say("bookkeeping bytes ", (uint32_t)needs.bookkeeping_bytes);
  grt_registry_init(registry, NULL, 0, kernels);
  void* pools[1];
  size_t sizes[1];
  pools[0] = pool;
  sizes[0] = pool_size;
  grt_options options;
  memset(&options, 0, sizeof options);
  options.registry = registry;
  options.memory.strategy = GRT_STRATEGY_STATIC;
  options.memory.pool_buffers = pools;
  options.memory.pool_sizes = sizes;
  options.memory.pool_count = 1;
  grt_executor* executor;
  if (grt_init(&executor, storage, storage_size, blob, blob_size, &options, &error) != GRT_OK) {
    fw_line line;
    fw_line_begin(&line);
    fw_line_text(&line, error.message);
    fw_line_end(&line);
    return NULL;
  }
  return executor;
}
