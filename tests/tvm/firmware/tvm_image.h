/* What the TVM firmware images share: binding a blob to one static pool with a generated
 * kernel table, and console lines. */
#ifndef GRAPHRT_TESTS_TVM_FIRMWARE_TVM_IMAGE_H_
#define GRAPHRT_TESTS_TVM_FIRMWARE_TVM_IMAGE_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/graphrt.h"

/* The executor over `pool` and `storage`, or NULL after printing why (the blob needs more
 * than given, or init refused it). `registry` must outlive the executor. */
grt_executor* tvm_image_init(const unsigned char* blob, size_t blob_size, grt_registry* registry, const grt_kernel_table* kernels,
                             void* pool, size_t pool_size, uint64_t* storage, size_t storage_size);

/* One console line: text then a number. */
void tvm_image_say(const char* text, uint32_t value);

#endif /* GRAPHRT_TESTS_TVM_FIRMWARE_TVM_IMAGE_H_ */
