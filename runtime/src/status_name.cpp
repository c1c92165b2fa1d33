#include "graphrt/graphrt.h"

extern "C" const char* grt_status_name(grt_status status) {
  static const char* const kNames[GRT_STATUS_COUNT] = {
      "GRT_OK",
      "GRT_ERR_ARGUMENT",
      "GRT_ERR_BLOB_TOO_SMALL",
      "GRT_ERR_BLOB_ALIGNMENT",
      "GRT_ERR_BLOB_IDENTIFIER",
      "GRT_ERR_BLOB_VERSION",
      "GRT_ERR_BLOB_MALFORMED",
      "GRT_ERR_INDEX_RANGE",
      "GRT_ERR_BUFFER_BOUNDS",
      "GRT_ERR_CONSTANT_ALIGNMENT",
      "GRT_ERR_POOL_BOUNDS",
      "GRT_ERR_SHAPE",
      "GRT_ERR_ALIAS",
      "GRT_ERR_GRAPH_ORDER",
      "GRT_ERR_GRAPH",
      "GRT_ERR_PLAN_OVERLAP",
      "GRT_ERR_KERNEL_NOT_FOUND",
      "GRT_ERR_KERNEL_ARGS",
      "GRT_ERR_REGISTRY_FULL",
      "GRT_ERR_STORAGE_TOO_SMALL",
      "GRT_ERR_POOL_TOO_SMALL",
      "GRT_ERR_POOL_MISALIGNED",
      "GRT_ERR_OUT_OF_MEMORY",
      "GRT_ERR_KERNEL_FAILED",
      "GRT_ERR_CANCELLED",
      "GRT_ERR_BUSY",
      "GRT_ERR_INTEGRITY",
      "GRT_ERR_ENVELOPE_MALFORMED",
      "GRT_ERR_ENVELOPE_TRUNCATED",
      "GRT_ERR_DIGEST_MISMATCH",
      "GRT_ERR_SIGNATURE_MISSING",
      "GRT_ERR_SIGNATURE_INVALID",
      "GRT_ERR_UNKNOWN_KEY",
      "GRT_ERR_KEY_INVALID",
      "GRT_ERR_MODEL_ROLLBACK",
  };
  const unsigned index = static_cast<unsigned>(status);
  return index < GRT_STATUS_COUNT ? kNames[index] : "GRT_ERR_UNKNOWN";
}
