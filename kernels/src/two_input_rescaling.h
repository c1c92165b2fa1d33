// The parameters of the int8/int16 kernels that rescale two inputs to a common scale before
// combining them, as TFLM's ADD, SUB and SQUARED_DIFFERENCE do:
//   3 Int left_shift, 4 Int a_offset, 5 Int a_multiplier, 6 Int a_shift,
//   7 Int b_offset, 8 Int b_multiplier, 9 Int b_shift,
//   10 Int out_offset, 11 Int out_multiplier, 12 Int out_shift
// (offsets: minus the inputs' zero points, the output's zero point).
#ifndef GRAPHRT_KERNELS_TWO_INPUT_RESCALING_H_
#define GRAPHRT_KERNELS_TWO_INPUT_RESCALING_H_

#include <stdint.h>

#include "kernel_args.h"
#include "quant_math.h"

namespace grt::kernels {

struct TwoInputRescaling {
  int left_shift;
  int32_t a_offset, a_multiplier;
  int a_shift;
  int32_t b_offset, b_multiplier;
  int b_shift;
  int32_t out_offset, out_multiplier;
  int out_shift;
};

inline TwoInputRescaling read_two_input_rescaling(TVMValue* args) {
  TwoInputRescaling r;
  r.left_shift = static_cast<int>(int_at(args, 3));
  r.a_offset = static_cast<int32_t>(int_at(args, 4));
  r.a_multiplier = static_cast<int32_t>(int_at(args, 5));
  r.a_shift = static_cast<int>(int_at(args, 6));
  r.b_offset = static_cast<int32_t>(int_at(args, 7));
  r.b_multiplier = static_cast<int32_t>(int_at(args, 8));
  r.b_shift = static_cast<int>(int_at(args, 9));
  r.out_offset = static_cast<int32_t>(int_at(args, 10));
  r.out_multiplier = static_cast<int32_t>(int_at(args, 11));
  r.out_shift = static_cast<int>(int_at(args, 12));
  return r;
}

// Arguments 3 to 11; the output shift's range (argument 12) is the kernel's own.
template <typename T>
inline void check_two_input_rescaling(ArgCheck& check) {
  constexpr int32_t kMin = quantized_min<T>();
  constexpr int32_t kMax = quantized_max<T>();
  constexpr int kBits = static_cast<int>(sizeof(T) * 8);
  // |x + offset| < 2^bits, so left_shift <= 31 - bits keeps the shifted value in int32.
  check.integer(3, 0, 31 - kBits)
      .integer(4, -kMax, -kMin)
      .integer(5, 0, INT32_MAX)
      .integer(6, -31, 0)
      .integer(7, -kMax, -kMin)
      .integer(8, 0, INT32_MAX)
      .integer(9, -31, 0)
      .integer(10, kMin, kMax)
      .integer(11, 0, INT32_MAX);
}

}  // namespace grt::kernels

#endif  // GRAPHRT_KERNELS_TWO_INPUT_RESCALING_H_
