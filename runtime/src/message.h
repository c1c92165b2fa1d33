// Error messages from one format string per failure. Every check of the loader and the
// executor ends in a message naming the thing and the numbers; a format string and a call
// per check keeps that within a few bytes of code each on a Cortex-M (printf would pull in
// kilobytes, a builder call per piece costs tens of bytes per check).
#ifndef GRAPHRT_MESSAGE_H_
#define GRAPHRT_MESSAGE_H_

#include <stddef.h>
#include <stdint.h>
#include <type_traits>

#include "graphrt/graphrt.h"

namespace grt {

namespace fb {
struct Model;
}

// Every argument reaches the formatter as a uint64_t: integers and enums by value (signed
// ones as their two's-complement bits), strings as their address. One type keeps va_arg
// defined whatever the call passes.
template <typename T>
constexpr uint64_t message_arg(T value) {
  if constexpr (std::is_pointer_v<T>) {
    static_assert(std::is_same_v<std::remove_cv_t<std::remove_pointer_t<T>>, char>, "strings only");
    return reinterpret_cast<uintptr_t>(value);
  } else {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>, "integers, enums or strings");
    return static_cast<uint64_t>(value);
  }
}

// The formatters behind fail() and append(): uint64_t arguments follow `format`.
grt_status fail_v(grt_error* error, grt_status status, const fb::Model* model, const char* format, ...);
void append_v(grt_error* error, const fb::Model* model, const char* format, ...);

// Writes `format` into error->message, sets error->status, returns `status`. Directives,
// each taking the next argument:
//   %u unsigned number   %d signed number   %s string   %q name in quotes ('x')
//   %t tensor of `model`: "tensor 7 'conv1/out'"   %n node: "node 3 (conv2d_s8)"
//   %p pool: "pool 'activations'"   (indices out of range print just the index)
// Names (%q and the names of %t, %n, %p) come from the blob: control characters and bytes
// that are not valid UTF-8 are escaped (\xNN), and names longer than 32 characters are
// shortened in the middle ('functional_1/co...FusedBatchNormV3'), so that a message with up to
// three names keeps its numbers; what still does not fit GRT_ERROR_MESSAGE_SIZE is cut at
// the end. So put figures before names, above all in a message built in several calls.
// `error` may be NULL; `model` may be NULL when no %t, %n or %p is used.
template <typename... Args>
grt_status fail(grt_error* error, grt_status status, const fb::Model* model, const char* format, Args... args) {
  return fail_v(error, status, model, format, message_arg(args)...);
}

// Adds to the message fail() wrote (optional parts of a message).
template <typename... Args>
void append(grt_error* error, const fb::Model* model, const char* format, Args... args) {
  append_v(error, model, format, message_arg(args)...);
}

// Clears an error record to "no error".
void clear_error(grt_error* error);

}  // namespace grt

#endif  // GRAPHRT_MESSAGE_H_
