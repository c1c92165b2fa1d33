// QUANTIZE between integer types (a requantization), as TFLM's Requantize.
//
// requantize_<in>_<out> (s8_s8, s8_u8, s8_s16, s8_s32, u8_s8, s16_s8, s16_s16, s16_s32,
// s32_s8, s32_s16) take:
//   0 in X, 1 out Y                       (same element count)
//   2 Int input_zero_point (in X's range), 3 Int output_zero_point (in Y's range)
//   4 Int multiplier, 5 Int shift         (input_scale / output_scale, TFLite's
//                                          QuantizeMultiplier: Q31 multiplier, shift in [-31, 30])
// y = saturate(multiply_by_quantized_multiplier(x - input_zero_point) + output_zero_point).
#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"

namespace grt::kernels::elementwise {
namespace {

template <typename T>
struct Limits;
template <>
struct Limits<int8_t> {
  static constexpr int32_t kMin = INT8_MIN, kMax = INT8_MAX;
  static constexpr ElementType kType = ElementType::kInt8;
};
template <>
struct Limits<uint8_t> {
  static constexpr int32_t kMin = 0, kMax = UINT8_MAX;
  static constexpr ElementType kType = ElementType::kUInt8;
};
template <>
struct Limits<int16_t> {
  static constexpr int32_t kMin = INT16_MIN, kMax = INT16_MAX;
  static constexpr ElementType kType = ElementType::kInt16;
};
template <>
struct Limits<int32_t> {
  static constexpr int32_t kMin = INT32_MIN, kMax = INT32_MAX;
  static constexpr ElementType kType = ElementType::kInt32;
};

template <typename In, typename Out>
int run_requantize(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const In* x = data_of<const In>(in);
  Out* y = data_of<Out>(tensor_at(args, 1));
  const int32_t input_zero_point = static_cast<int32_t>(int_at(args, 2));
  const int32_t output_zero_point = static_cast<int32_t>(int_at(args, 3));
  const int32_t multiplier = static_cast<int32_t>(int_at(args, 4));
  const int shift = static_cast<int>(int_at(args, 5));
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) {
    const int32_t value = wrapping_add(x[i], -input_zero_point);
    const int32_t output = wrapping_add(multiply_by_quantized_multiplier(value, multiplier, shift), output_zero_point);
    y[i] = static_cast<Out>(output < Limits<Out>::kMin ? Limits<Out>::kMin
                                                       : (output > Limits<Out>::kMax ? Limits<Out>::kMax : output));
  }
  return 0;
}

template <typename In, typename Out>
int check_requantize(const char* name, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  // Zero points stop short of INT32_MIN so that negating one stays defined.
  check.count(6)
      .tensor(0, Limits<In>::kType)
      .tensor(1, Limits<Out>::kType)
      .integer(2, Limits<In>::kMin == INT32_MIN ? -INT32_MAX : Limits<In>::kMin, Limits<In>::kMax)
      .integer(3, Limits<Out>::kMin, Limits<Out>::kMax)
      .integer(4, 0, INT32_MAX)
      .integer(5, -31, 30);
  if (check.ok()) {
    check.expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 1)), "input and output sizes differ");
  }
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::elementwise

#define GRT_REQUANTIZE_KERNEL(name, In, Out)                                                         \
  GRT_KERNEL_FUNCTION(name) {                                                                       \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;  \
    return grt::kernels::elementwise::run_requantize<In, Out>(args);                                \
  }                                                                                                 \
  GRT_CHECK_FUNCTION(name) {                                                                        \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                                    \
    return grt::kernels::elementwise::check_requantize<In, Out>(#name, args, type_codes, num_args); \
  }

GRT_REQUANTIZE_KERNEL(requantize_s8_s8, int8_t, int8_t)
GRT_REQUANTIZE_KERNEL(requantize_s8_u8, int8_t, uint8_t)
GRT_REQUANTIZE_KERNEL(requantize_s8_s16, int8_t, int16_t)
GRT_REQUANTIZE_KERNEL(requantize_s8_s32, int8_t, int32_t)
GRT_REQUANTIZE_KERNEL(requantize_u8_s8, uint8_t, int8_t)
GRT_REQUANTIZE_KERNEL(requantize_s16_s8, int16_t, int8_t)
GRT_REQUANTIZE_KERNEL(requantize_s16_s16, int16_t, int16_t)
GRT_REQUANTIZE_KERNEL(requantize_s16_s32, int16_t, int32_t)
GRT_REQUANTIZE_KERNEL(requantize_s32_s8, int32_t, int8_t)
GRT_REQUANTIZE_KERNEL(requantize_s32_s16, int32_t, int16_t)
