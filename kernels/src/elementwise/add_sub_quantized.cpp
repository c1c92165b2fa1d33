// Quantized ADD and SUB (int8, int16), TFLM's general rescaling path, with broadcasting.
//
// add_s8, add_s16, sub_s8, sub_s16 take:
//   0 in A, 1 in B, 2 out Y                      (same dtype; Y's shape is A and B broadcast)
//   3 Int left_shift                             (TFLM: 20 for int8, 15 for int16)
//   4 Int a_offset, 5 Int a_multiplier, 6 Int a_shift     (offset = -zero_point of A)
//   7 Int b_offset, 8 Int b_multiplier, 9 Int b_shift
//   10 Int out_offset, 11 Int out_multiplier, 12 Int out_shift  (offset = zero_point of Y)
//   13 Int activation_min, 14 Int activation_max
// Each input is scaled by (x + offset) << left_shift, then multiplier * 2^shift (shift <= 0);
// the sum or difference is scaled by the output multiplier and offset, then clamped.
// On cores with the DSP extension add_s8 runs add_dsp.h where its preconditions hold.
#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"
#include "../two_input_rescaling.h"
#include "../conv/depthwise_requantize.h"
#include "add_dsp.h"
#include "broadcast.h"

namespace grt::kernels::elementwise {
namespace {

enum class Combine { kAdd, kSub };

// The three multiply_by_quantized_multiplier steps with their constants worked out once per
// call (conv::Requantizer: the same integers; the checks keep every multiplier >= 0).
template <typename T, Combine kCombine>
struct QuantizedBinaryOp {
  int32_t a_offset, b_offset, out_offset;
  int left_shift;
  conv::Requantizer a_scale, b_scale, out_scale;
  int32_t activation_min, activation_max;

  QuantizedBinaryOp(const TwoInputRescaling& p, int32_t act_min, int32_t act_max)
      : a_offset(p.a_offset),
        b_offset(p.b_offset),
        out_offset(p.out_offset),
        left_shift(p.left_shift),
        a_scale(conv::Requantizer::make(p.a_multiplier, p.a_shift)),
        b_scale(conv::Requantizer::make(p.b_multiplier, p.b_shift)),
        out_scale(conv::Requantizer::make(p.out_multiplier, p.out_shift)),
        activation_min(act_min),
        activation_max(act_max) {}

  T operator()(T a, T b) const {
    // The checked ranges keep (x + offset) << left_shift inside int32.
    const int32_t shifted_a = (a_offset + a) * (int32_t{1} << left_shift);
    const int32_t shifted_b = (b_offset + b) * (int32_t{1} << left_shift);
    const int32_t scaled_a = a_scale.apply(shifted_a);
    const int32_t scaled_b = b_scale.apply(shifted_b);
    const int32_t raw = kCombine == Combine::kAdd ? wrapping_add(scaled_a, scaled_b) : wrapping_sub(scaled_a, scaled_b);
    const int32_t output = wrapping_add(out_scale.apply(raw), out_offset);
    const int32_t clamped = output < activation_min ? activation_min : (output > activation_max ? activation_max : output);
    return static_cast<T>(clamped);
  }
};

template <typename T, Combine kCombine>
int run_quantized_binary(TVMValue* args) {
  const TwoInputRescaling rescaling = read_two_input_rescaling(args);
  const int32_t act_min = static_cast<int32_t>(int_at(args, 13)), act_max = static_cast<int32_t>(int_at(args, 14));
#if GRT_KERNELS_DSP
  if constexpr (sizeof(T) == 1 && kCombine == Combine::kAdd) {
    if (dsp::add_s8(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), rescaling, act_min, act_max)) return 0;
  }
#endif
  const QuantizedBinaryOp<T, kCombine> op(rescaling, act_min, act_max);
  broadcast_binary<T, T>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

template <typename T>
int check_quantized_binary(const char* name, ElementType type, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  constexpr int32_t kMin = quantized_min<T>();
  constexpr int32_t kMax = quantized_max<T>();
  check.count(15).tensor(0, type).tensor(1, type).tensor(2, type);
  if (check.ok()) {
    check.expect(broadcast_shapes_match(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2)),
                 "output shape is not the broadcast of the input shapes");
  }
  check_two_input_rescaling<T>(check);
  check.integer(12, -31, 0)
      .integer(13, kMin, kMax)
      .integer(14, kMin, kMax);
  if (check.ok()) check.expect(int_at(args, 13) <= int_at(args, 14), "activation_min is above activation_max");
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::elementwise

using grt::kernels::ElementType;
using grt::kernels::elementwise::Combine;
using grt::kernels::elementwise::check_quantized_binary;
using grt::kernels::elementwise::run_quantized_binary;

#define GRT_QUANTIZED_BINARY_KERNEL(name, T, combine, element_type)                                      \
  GRT_KERNEL_FUNCTION(name) {                                                                           \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;      \
    return run_quantized_binary<T, combine>(args);                                                      \
  }                                                                                                     \
  GRT_CHECK_FUNCTION(name) {                                                                            \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                                        \
    return check_quantized_binary<T>(#name, element_type, args, type_codes, num_args);                  \
  }

GRT_QUANTIZED_BINARY_KERNEL(add_s8, int8_t, Combine::kAdd, ElementType::kInt8)
GRT_QUANTIZED_BINARY_KERNEL(add_s16, int16_t, Combine::kAdd, ElementType::kInt16)
GRT_QUANTIZED_BINARY_KERNEL(sub_s8, int8_t, Combine::kSub, ElementType::kInt8)
GRT_QUANTIZED_BINARY_KERNEL(sub_s16, int16_t, Combine::kSub, ElementType::kInt16)
