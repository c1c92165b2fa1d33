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
#include <stdint.h>

#include "../kernel_args.h"
#include "../conv/depthwise_requantize.h"
#include "broadcast.h"

namespace grt::kernels::elementwise {
namespace {

enum class Combine { kAdd, kSub };

struct QuantizedBinaryParams {
  int left_shift;
  int32_t a_offset, a_multiplier;
  int a_shift;
  int32_t b_offset, b_multiplier;
  int b_shift;
  int32_t out_offset, out_multiplier;
  int out_shift;
  int32_t activation_min, activation_max;
};

QuantizedBinaryParams read_params(TVMValue* args) {
  QuantizedBinaryParams p;
  p.left_shift = static_cast<int>(int_at(args, 3));
  p.a_offset = static_cast<int32_t>(int_at(args, 4));
  p.a_multiplier = static_cast<int32_t>(int_at(args, 5));
  p.a_shift = static_cast<int>(int_at(args, 6));
  p.b_offset = static_cast<int32_t>(int_at(args, 7));
  p.b_multiplier = static_cast<int32_t>(int_at(args, 8));
  p.b_shift = static_cast<int>(int_at(args, 9));
  p.out_offset = static_cast<int32_t>(int_at(args, 10));
  p.out_multiplier = static_cast<int32_t>(int_at(args, 11));
  p.out_shift = static_cast<int>(int_at(args, 12));
  p.activation_min = static_cast<int32_t>(int_at(args, 13));
  p.activation_max = static_cast<int32_t>(int_at(args, 14));
  return p;
}

// Wrapping int32 arithmetic: what TFLM's int32 expressions compute, without undefined
// behaviour should a hostile blob's parameters push them past the range.
inline int32_t wrapping_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrapping_sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

// The three multiply_by_quantized_multiplier steps with their constants worked out once per
// call (conv::Requantizer: the same integers; the checks keep every multiplier >= 0).
template <typename T, Combine kCombine>
struct QuantizedBinaryOp {
  int32_t a_offset, b_offset, out_offset;
  int left_shift;
  conv::Requantizer a_scale, b_scale, out_scale;
  int32_t activation_min, activation_max;

  explicit QuantizedBinaryOp(const QuantizedBinaryParams& p)
      : a_offset(p.a_offset),
        b_offset(p.b_offset),
        out_offset(p.out_offset),
        left_shift(p.left_shift),
        a_scale(conv::Requantizer::make(p.a_multiplier, p.a_shift)),
        b_scale(conv::Requantizer::make(p.b_multiplier, p.b_shift)),
        out_scale(conv::Requantizer::make(p.out_multiplier, p.out_shift)),
        activation_min(p.activation_min),
        activation_max(p.activation_max) {}

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

template <typename T>
constexpr int32_t type_min() {
  return sizeof(T) == 1 ? INT8_MIN : INT16_MIN;
}
template <typename T>
constexpr int32_t type_max() {
  return sizeof(T) == 1 ? INT8_MAX : INT16_MAX;
}

template <typename T, Combine kCombine>
int run_quantized_binary(TVMValue* args) {
  const QuantizedBinaryOp<T, kCombine> op(read_params(args));
  broadcast_binary<T, T>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

template <typename T>
int check_quantized_binary(const char* name, ElementType type, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  constexpr int32_t kMin = type_min<T>();
  constexpr int32_t kMax = type_max<T>();
  constexpr int kBits = static_cast<int>(sizeof(T) * 8);
  check.count(15).tensor(0, type).tensor(1, type).tensor(2, type);
  if (check.ok()) {
    check.expect(broadcast_shapes_match(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2)),
                 "output shape is not the broadcast of the input shapes");
  }
  // |x + offset| < 2^bits, so left_shift <= 31 - bits keeps the shifted value in int32.
  check.integer(3, 0, 31 - kBits)
      .integer(4, -kMax, -kMin)
      .integer(5, 0, INT32_MAX)
      .integer(6, -31, 0)
      .integer(7, -kMax, -kMin)
      .integer(8, 0, INT32_MAX)
      .integer(9, -31, 0)
      .integer(10, kMin, kMax)
      .integer(11, 0, INT32_MAX)
      .integer(12, -31, 0)
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
