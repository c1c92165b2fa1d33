// int16 RELU, RELU6, RELU_N1_TO_1 and ABS: the input, less its zero point, is rescaled to
// the output's scale (TFLM's MultiplyByQuantizedMultiplier), the output zero point added and
// the result clamped. RELU6's TFLM kernel does not requantize: it clamps in the input's
// scale, which is relu_s16 with the identity multiplier (2^30, shift 1: exact for int16).
//
// relu_s16 takes:
//   0 in X, 1 out Y                                   (int16, same element count)
//   2 Int input_zero_point, 3 Int output_zero_point
//   4 Int multiplier, 5 Int shift                     (input_scale / output_scale)
//   6 Int low, 7 Int high                             (the clamp, in output units)
// abs_s16 takes 0 to 5 alike: |x - input_zero_point| rescaled, plus the output zero point,
// saturated to int16.
#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"
#include "unary_checks.h"

namespace grt::kernels::activation {
namespace {

struct Requantize {
  int32_t input_zero_point, output_zero_point, multiplier;
  int shift;

  explicit Requantize(TVMValue* args)
      : input_zero_point(static_cast<int32_t>(int_at(args, 2))),
        output_zero_point(static_cast<int32_t>(int_at(args, 3))),
        multiplier(static_cast<int32_t>(int_at(args, 4))),
        shift(static_cast<int>(int_at(args, 5))) {}
  int32_t operator()(int32_t value) const {
    return wrapping_add(output_zero_point, multiply_by_quantized_multiplier(value, multiplier, shift));
  }
};

int run_relu(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const int16_t* x = data_of<const int16_t>(in);
  int16_t* y = data_of<int16_t>(tensor_at(args, 1));
  const Requantize requantize(args);
  const int32_t low = static_cast<int32_t>(int_at(args, 6));
  const int32_t high = static_cast<int32_t>(int_at(args, 7));
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) {
    const int32_t v = requantize(x[i] - requantize.input_zero_point);
    y[i] = static_cast<int16_t>(v < low ? low : (v > high ? high : v));
  }
  return 0;
}

int run_abs(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const int16_t* x = data_of<const int16_t>(in);
  int16_t* y = data_of<int16_t>(tensor_at(args, 1));
  const Requantize requantize(args);
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) {
    const int32_t centered = x[i] - requantize.input_zero_point;
    y[i] = saturate<int16_t>(requantize(centered < 0 ? -centered : centered));
  }
  return 0;
}

ArgCheck& check_requantize(ArgCheck& check, int count, TVMValue* args) {
  return check_unary(check, count, ElementType::kInt16, args)
      .integer(2, INT16_MIN, INT16_MAX)
      .integer(3, INT16_MIN, INT16_MAX)
      .integer(4, 0, INT32_MAX)
      .integer(5, -31, 30);
}

}  // namespace
}  // namespace grt::kernels::activation

GRT_KERNEL_FUNCTION(relu_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::activation::run_relu(args);
}

GRT_CHECK_FUNCTION(relu_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  ArgCheck check("relu_s16", args, type_codes, num_args);
  activation::check_requantize(check, 8, args).integer(6, INT16_MIN, INT16_MAX).integer(7, INT16_MIN, INT16_MAX);
  if (check.ok()) check.expect(int_at(args, 6) <= int_at(args, 7), "low is above high");
  return check.result();
}

GRT_KERNEL_FUNCTION(abs_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::activation::run_abs(args);
}

GRT_CHECK_FUNCTION(abs_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  ArgCheck check("abs_s16", args, type_codes, num_args);
  return activation::check_requantize(check, 6, args).result();
}
