// C callers may store any int in an enum field, and loading an out-of-range enum is
// undefined in C++: read the field's bytes instead.
// (Bare-metal ARM EABI uses short enums: one byte for these.)
#ifndef GRAPHRT_RAW_ENUM_H_
#define GRAPHRT_RAW_ENUM_H_

#include <stdint.h>
#include <string.h>

namespace grt {

template <typename Enum>
uint32_t raw_enum(const Enum& field) {
  if constexpr (sizeof(Enum) == 1) {
    uint8_t value = 0;
    memcpy(&value, &field, sizeof value);
    return value;
  } else if constexpr (sizeof(Enum) == 2) {
    uint16_t value = 0;
    memcpy(&value, &field, sizeof value);
    return value;
  } else {
    static_assert(sizeof(Enum) == 4, "an enum of 1, 2 or 4 bytes");
    uint32_t value = 0;
    memcpy(&value, &field, sizeof value);
    return value;
  }
}

}  // namespace grt

#endif  // GRAPHRT_RAW_ENUM_H_
