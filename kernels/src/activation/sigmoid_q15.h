// TFLM's int16 sigmoid and tanh (reference_integer_ops::Logistic / Tanh on int16): linear
// interpolation in a 256-entry table of sigmoid(i / 24) in unsigned Q0.16 (the importer
// builds it and the blob carries it), tanh(x) = 2 * sigmoid(2x) - 1 from the same table.
// The value passed in is the input already rescaled so that 2^9 (sigmoid) or 2^8 (tanh)
// steps cover one table interval. Shared by the int16 LOGISTIC / TANH kernels and the
// integer LSTM.
#ifndef GRAPHRT_KERNELS_ACTIVATION_SIGMOID_Q15_H_
#define GRAPHRT_KERNELS_ACTIVATION_SIGMOID_Q15_H_

#include <stdint.h>

namespace grt::kernels::activation {

inline uint32_t magnitude(int32_t v) { return v < 0 ? 0u - static_cast<uint32_t>(v) : static_cast<uint32_t>(v); }

// The table entry pair around `position` (fraction_bits fractional bits), interpolated.
inline uint32_t interpolate(const uint16_t* table, uint32_t position, int fraction_bits) {
  const uint32_t index = position >> fraction_bits;
  const uint32_t low = table[index];
  const uint32_t high = table[index + 1];
  const uint32_t fraction = position & ((1u << fraction_bits) - 1);
  return (low << fraction_bits) + fraction * (high - low);
}

// Q0.16 sigmoid with 9 more fractional bits, saturating past the table's end;
// sigmoid(-x) = 1 - sigmoid(x); rounded to Q0.15.
inline int16_t logistic_value(const uint16_t* table, int32_t value) {
  const uint32_t position = magnitude(value);
  uint32_t result = (position >> 9) >= 255 ? 0x7FFFu << 10 : interpolate(table, position, 9);
  result = value >= 0 ? result + (1u << 9) : (1u << 25) - result + (1u << 9) - 1;
  return static_cast<int16_t>(result >> 10);
}

// 2 * sigmoid - 1 with the sign of x (8 more fractional bits), rounded to Q0.15.
inline int16_t tanh_value(const uint16_t* table, int32_t value) {
  const uint32_t position = magnitude(value);
  const auto sigmoid = static_cast<int32_t>((position >> 8) >= 255 ? 0xFFFFu << 8 : interpolate(table, position, 8));
  const int32_t result = value >= 0 ? sigmoid - (1 << 23) + (1 << 7) : -sigmoid + (1 << 23) + (1 << 7) - 1;
  return static_cast<int16_t>(result >> 8);
}

}  // namespace grt::kernels::activation

#endif  // GRAPHRT_KERNELS_ACTIVATION_SIGMOID_Q15_H_
