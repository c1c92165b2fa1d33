// A tiny message builder for the executor's fixed error buffer. printf would pull several
// KiB of formatting code into a Cortex-M image for the handful of shapes we need.
#ifndef GRAPHRT_ERROR_TEXT_H_
#define GRAPHRT_ERROR_TEXT_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/graphrt.h"

namespace grt {

class ErrorText {
 public:
  explicit ErrorText(grt_error* error) : error_(error) {
    if (error_ != nullptr) error_->message[0] = '\0';
  }
  ErrorText& text(const char* s);
  // A string of known length (FlatBuffers strings), quoted: 'name'.
  ErrorText& quoted(const char* s, size_t length);
  ErrorText& quoted(const char* s);
  ErrorText& number(uint64_t value);
  ErrorText& signed_number(int64_t value);
  // Records the status and returns it, so checks read `return fail(...)...status(X)`.
  grt_status status(grt_status s) {
    if (error_ != nullptr) error_->status = s;
    return s;
  }

 private:
  void put(char c);
  grt_error* error_;
  size_t length_ = 0;
};

// Clears an error record to "no error".
void clear_error(grt_error* error);

}  // namespace grt

#endif  // GRAPHRT_ERROR_TEXT_H_
