#include "error_text.h"

namespace grt {

void ErrorText::put(char c) {
  if (error_ == nullptr || length_ + 1 >= GRT_ERROR_MESSAGE_SIZE) return;
  error_->message[length_++] = c;
  error_->message[length_] = '\0';
}

ErrorText& ErrorText::text(const char* s) {
  while (s != nullptr && *s != '\0') put(*s++);
  return *this;
}

ErrorText& ErrorText::quoted(const char* s, size_t length) {
  put('\'');
  for (size_t i = 0; s != nullptr && i < length; ++i) put(s[i]);
  put('\'');
  return *this;
}

ErrorText& ErrorText::quoted(const char* s) {
  size_t n = 0;
  while (s != nullptr && s[n] != '\0') ++n;
  return quoted(s, n);
}

ErrorText& ErrorText::number(uint64_t value) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) put(digits[--n]);
  return *this;
}

ErrorText& ErrorText::signed_number(int64_t value) {
  if (value < 0) {
    put('-');
    return number(static_cast<uint64_t>(-(value + 1)) + 1);
  }
  return number(static_cast<uint64_t>(value));
}

void clear_error(grt_error* error) {
  if (error == nullptr) return;
  error->status = GRT_OK;
  error->message[0] = '\0';
}

}  // namespace grt

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
