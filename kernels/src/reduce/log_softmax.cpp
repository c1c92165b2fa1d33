// LOG_SOFTMAX over the last dimension, bit-exact with TFLM's reference
// (reference/log_softmax.h): int8 in fixed point (LogSoftmaxQuantized: exponentials of
// Q5.26 differences summed in Q12.19, a fixed-point log, outputs in 16/256 steps below 127),
// float32 with expf and logf.
//
// log_softmax_s8 arguments (output quantization is TFLM's required scale 16/256, zero
// point 127):
//   0 in X int8, rank >= 1; 1 out Y int8, the shape of X
//   2 Int input_multiplier, Q31 >= 0, 3 Int input_left_shift in [0, 31]
//     (beta * input scale * 2^26, TFLM's PreprocessLogSoftmaxScalingExp)
//   4 Int reverse_scaling_divisor, Q31 >= 0, 5 Int reverse_scaling_shift in [-31, 0]
//     (the inverse of that scaling)
//   6 Int diff_min <= 0: differences from the row maximum below it contribute nothing
//
// log_softmax_f32 arguments: 0 in X float32, rank >= 1; 1 out Y float32, the shape of X.
#include <float.h>
#include <math.h>

#include "../kernel_args.h"
#include "../quant_math.h"
#include "log_fixed_point.h"
#include "rows.h"

namespace grt::kernels::reduce {
namespace {

constexpr int kInputIntegerBits = 5;
constexpr int kAccumulationIntegerBits = 12;
constexpr int kOutputIntegerBits = 4;

struct LogSoftmaxParams {
  int32_t input_multiplier;
  int input_left_shift;
  int32_t reverse_scaling_divisor;
  int reverse_scaling_shift;
  int32_t diff_min;
};

void log_softmax_row(const int8_t* in, int8_t* out, int64_t depth, const LogSoftmaxParams& p) {
  int8_t max_in_row = INT8_MIN;
  for (int64_t c = 0; c < depth; ++c) max_in_row = in[c] > max_in_row ? in[c] : max_in_row;

  int32_t sum_of_exps = 0;  // Q12.19
  for (int64_t c = 0; c < depth; ++c) {
    const int32_t difference = int32_t{in[c]} - max_in_row;
    if (difference >= p.diff_min) {
      const int32_t scaled = multiply_by_quantized_multiplier(difference, p.input_multiplier, p.input_left_shift);
      sum_of_exps = wrapping_add(
          sum_of_exps, rounding_divide_by_pot(softmax::exp_on_negative_values_q5(scaled), kAccumulationIntegerBits));
    }
  }
  const int32_t log_sum_of_exps = log_q12_to_q5(sum_of_exps);  // Q5.26

  // Differences at or below this give the lowest output: the smallest Q5.26 value plus the
  // log of the sum, scaled back to input units.
  const int32_t shifted_log_sum = wrapping_add(log_sum_of_exps, INT32_MIN);
  const int32_t reverse_scaled =
      multiply_by_quantized_multiplier(shifted_log_sum, p.reverse_scaling_divisor, p.reverse_scaling_shift);
  const int32_t adjusted_diff_min = p.diff_min - 1 > reverse_scaled ? p.diff_min - 1 : reverse_scaled;

  for (int64_t c = 0; c < depth; ++c) {
    const int32_t difference = int32_t{in[c]} - max_in_row;
    if (difference > adjusted_diff_min) {
      const int32_t scaled = multiply_by_quantized_multiplier(difference, p.input_multiplier, p.input_left_shift);
      int32_t value = wrapping_add(rounding_divide_by_pot(softmax::sub(scaled, log_sum_of_exps),
                                                          31 - kInputIntegerBits - kOutputIntegerBits),
                                   INT8_MAX);
      value = value > INT8_MAX ? INT8_MAX : (value < INT8_MIN ? INT8_MIN : value);
      out[c] = static_cast<int8_t>(value);
    } else {
      out[c] = INT8_MIN;
    }
  }
}

void log_softmax_row(const float* in, float* out, int64_t depth) {
  float max = -FLT_MAX;
  for (int64_t c = 0; c < depth; ++c) max = max < in[c] ? in[c] : max;  // std::max(max, x)
  float sum = 0.0f;
  for (int64_t c = 0; c < depth; ++c) sum += expf(in[c] - max);
  const float log_sum = logf(sum);
  for (int64_t c = 0; c < depth; ++c) out[c] = in[c] - max - log_sum;
}

}  // namespace
}  // namespace grt::kernels::reduce

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace reduce = grt::kernels::reduce;

GRT_KERNEL_FUNCTION(log_softmax_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using grt::kernels::int_at;
  const reduce::LogSoftmaxParams p = {
      static_cast<int32_t>(int_at(args, 2)), static_cast<int>(int_at(args, 3)), static_cast<int32_t>(int_at(args, 4)),
      static_cast<int>(int_at(args, 5)), static_cast<int32_t>(int_at(args, 6))};
  reduce::for_each_row<int8_t>(args, [&](const int8_t* in, int8_t* out, int64_t depth) {
    reduce::log_softmax_row(in, out, depth, p);
  });
  return 0;
}

GRT_CHECK_FUNCTION(log_softmax_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("log_softmax_s8", args, type_codes, num_args);
  check.count(7)
      .tensor(0, ElementType::kInt8)
      .tensor(1, ElementType::kInt8)
      .integer(2, 0, INT32_MAX)
      .integer(3, 0, 31)
      .integer(4, 0, INT32_MAX)
      .integer(5, -31, 0)
      .integer(6, INT32_MIN + 1, 0);
  reduce::check_rows(check, args);
  return check.result();
}

GRT_KERNEL_FUNCTION(log_softmax_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  reduce::for_each_row<float>(args, [](const float* in, float* out, int64_t depth) {
    reduce::log_softmax_row(in, out, depth);
  });
  return 0;
}

GRT_CHECK_FUNCTION(log_softmax_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::check_float_rows("log_softmax_f32", args, type_codes, num_args);
}
