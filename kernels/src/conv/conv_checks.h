// Argument checks shared by the convolution kernels' grt_check_* functions. Together they
// prove every index a kernel computes stays inside its tensors.
#ifndef GRAPHRT_KERNELS_CONV_CONV_CHECKS_H_
#define GRAPHRT_KERNELS_CONV_CONV_CHECKS_H_

#include <float.h>
#include <math.h>
#include <stdint.h>

#include "../kernel_args.h"
#include "conv_geometry.h"

namespace grt::kernels::conv {

// Every convolution kernel's first four arguments.
constexpr int kInput = 0;
constexpr int kFilter = 1;
constexpr int kBias = 2;
constexpr int kOutput = 3;

inline int64_t output_channels(TVMValue* args) { return tensor_at(args, kOutput)->shape[3]; }

// Largest dimension: coordinates are int32, and one stride past any coordinate still fits.
constexpr int64_t kMaxDimension = INT32_MAX - kMaxWindowParameter;

// A 4-D tensor of `type` with every dimension in [0, kMaxDimension].
inline void check_nhwc(ArgCheck& check, TVMValue* args, int index, ElementType type) {
  check.tensor(index, type, 4);
  if (!check.ok()) return;
  const DLTensor* t = tensor_at(args, index);
  for (int i = 0; i < 4; ++i) check.expect(t->shape[i] >= 0 && t->shape[i] <= kMaxDimension, "a dimension is too large");
}

// Stride h/w and dilation h/w at least 1, pad top/left at least 0, none absurd.
inline void check_window(ArgCheck& check, int first, bool has_dilation) {
  check.integer(first, 1, kMaxWindowParameter).integer(first + 1, 1, kMaxWindowParameter);
  if (has_dilation) {
    check.integer(first + 2, 1, kMaxWindowParameter).integer(first + 3, 1, kMaxWindowParameter);
    first += 2;
  }
  check.integer(first + 2, 0, kMaxWindowParameter).integer(first + 3, 0, kMaxWindowParameter);
}

// Absent, or a 1-D tensor of `type` with one entry per output channel.
inline void check_bias(ArgCheck& check, TVMValue* args, int index, ElementType type, int64_t channels) {
  check.optional_tensor(index, type, 1);
  if (!check.ok()) return;
  const DLTensor* bias = optional_tensor_at(args, index);
  if (bias != nullptr) check.expect(bias->shape[0] == channels, "bias length differs from the output channels");
}

// Per-channel multipliers (Q31, non-negative) and shifts in [min_shift, max_shift]: constant
// 1-D int32 arrays with one entry per output channel. Their values are read here, once.
inline void check_requantization(ArgCheck& check, TVMValue* args, int multipliers_index, int shifts_index, int64_t channels,
                                 int32_t min_shift, int32_t max_shift) {
  check.tensor(multipliers_index, ElementType::kInt32, 1).tensor(shifts_index, ElementType::kInt32, 1);
  if (!check.ok()) return;
  const DLTensor* multipliers = tensor_at(args, multipliers_index);
  const DLTensor* shifts = tensor_at(args, shifts_index);
  check.expect(multipliers->shape[0] == channels && shifts->shape[0] == channels,
               "multipliers and shifts need one entry per output channel");
  check.expect(multipliers->data != nullptr && shifts->data != nullptr, "multipliers and shifts must be constants");
  if (!check.ok()) return;
  const int32_t* m = data_of<int32_t>(multipliers);
  const int32_t* s = data_of<int32_t>(shifts);
  for (int64_t c = 0; c < channels && check.ok(); ++c) {
    check.expect(m[c] >= 0, "a multiplier is negative");
    check.expect(s[c] >= min_shift && s[c] <= max_shift, "a shift is out of range");
  }
}

// Quantized activation clamp [min, max] inside the output type's range.
inline void check_activation_range(ArgCheck& check, TVMValue* args, int min_index, int64_t type_min, int64_t type_max) {
  check.integer(min_index, type_min, type_max).integer(min_index + 1, type_min, type_max);
  if (check.ok()) check.expect(int_at(args, min_index) <= int_at(args, min_index + 1), "activation min exceeds max");
}

// A double that converts to float without leaving float's range (infinities allowed).
inline bool representable_as_float(double v) { return (v >= -FLT_MAX && v <= FLT_MAX) || v == HUGE_VAL || v == -HUGE_VAL; }

// Float activation clamp [min, max], not NaN.
inline void check_float_activation_range(ArgCheck& check, TVMValue* args, int min_index) {
  check.real(min_index).real(min_index + 1);
  if (!check.ok()) return;
  const double low = real_at(args, min_index);
  const double high = real_at(args, min_index + 1);
  check.expect(representable_as_float(low) && representable_as_float(high), "activation bound is not a float");
  check.expect(low <= high, "activation min exceeds max");
}

// conv2d_s8 and depthwise_conv2d_s8 share their arguments after the tensors: 4 multipliers,
// 5 shifts, 6-11 window, 12 input offset, 13 output offset, 14-15 activation range.
inline void check_int8_parameters(ArgCheck& check, TVMValue* args) {
  if (check.ok()) check_requantization(check, args, 4, 5, output_channels(args), -31, 31);
  check_window(check, 6, true);
  check.integer(12, -127, 128).integer(13, INT8_MIN, INT8_MAX);
  check_activation_range(check, args, 14, INT8_MIN, INT8_MAX);
}

// The same arguments read into an int8 arithmetic (Int8Arithmetic or a refinement of it).
template <class Arithmetic>
Arithmetic int8_arithmetic_at(TVMValue* args) {
  const DLTensor* bias = optional_tensor_at(args, kBias);
  Arithmetic a{};
  a.input_offset = static_cast<int32_t>(int_at(args, 12));
  a.output_offset = static_cast<int32_t>(int_at(args, 13));
  a.activation_min = static_cast<int32_t>(int_at(args, 14));
  a.activation_max = static_cast<int32_t>(int_at(args, 15));
  a.bias = bias != nullptr ? data_of<int32_t>(bias) : nullptr;
  a.multipliers = data_of<int32_t>(tensor_at(args, 4));
  a.shifts = data_of<int32_t>(tensor_at(args, 5));
  return a;
}

}  // namespace grt::kernels::conv

#endif  // GRAPHRT_KERNELS_CONV_CONV_CHECKS_H_
