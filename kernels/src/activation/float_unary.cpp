// Float elementwise activations and math, each the expression TFLM's reference kernel
// evaluates, in float with <math.h>'s float functions.
//
// <op>_f32 takes: 0 in X, 1 out Y (float32, same element count), for op in logistic, tanh,
// hard_swish, elu, abs, neg, exp, log, sqrt, rsqrt, square, sin, cos, floor, ceil, round.
// relu_f32 takes: 0 in X, 1 out Y, 2 Float low, 3 Float high (RELU [0, inf), RELU6 [0, 6],
// RELU_N1_TO_1 [-1, 1]).
#include <math.h>
#include <stdint.h>

#include "../kernel_args.h"
#include "unary_checks.h"

namespace grt::kernels::activation {
namespace {

// Beyond these, TFLM's logistic returns 1 and exp(x) instead of 1 / (1 + exp(-x)).
constexpr float kLogisticUpperCutoff = 16.619047164916992188f;
constexpr float kLogisticLowerCutoff = -9.0f;

inline float logistic(float x) {
  if (x > kLogisticUpperCutoff) return 1.0f;
  if (x < kLogisticLowerCutoff) return expf(x);
  return 1.0f / (1.0f + expf(-x));
}

inline float hard_swish(float x) {
  const float relu6 = fminf(6.0f, fmaxf(0.0f, x + 3.0f));
  return x * relu6 / 6.0f;
}

inline float elu(float x) { return x < 0.0f ? expm1f(x) : x; }

// Round half to even, as TFLM's RoundToNearest (tf.round): computed from the floor.
inline float round_half_even(float x) {
  const float low = floorf(x);
  const float diff = x - low;
  if (diff < 0.5f || (diff == 0.5f && fmodf(low, 2.0f) == 0.0f)) return low;
  return low + 1.0f;
}

template <float (*kFunction)(float)>
int run_float_unary(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const float* x = data_of<const float>(in);
  float* y = data_of<float>(tensor_at(args, 1));
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) y[i] = kFunction(x[i]);
  return 0;
}

int check_float_unary(const char* name, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  return check_unary(check, 2, ElementType::kFloat32, args).result();
}

inline float absolute(float x) { return fabsf(x); }
inline float negate(float x) { return -x; }
inline float exponential(float x) { return expf(x); }
inline float logarithm(float x) { return logf(x); }
inline float square_root(float x) { return sqrtf(x); }
inline float reciprocal_square_root(float x) { return 1.0f / sqrtf(x); }
inline float square(float x) { return x * x; }
inline float sine(float x) { return sinf(x); }
inline float cosine(float x) { return cosf(x); }
inline float round_down(float x) { return floorf(x); }
inline float round_up(float x) { return ceilf(x); }
inline float hyperbolic_tangent(float x) { return tanhf(x); }

}  // namespace
}  // namespace grt::kernels::activation

#define GRT_FLOAT_UNARY_KERNEL(name, function)                                                 \
  GRT_KERNEL_FUNCTION(name) {                                                                  \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle; \
    return grt::kernels::activation::run_float_unary<grt::kernels::activation::function>(args);  \
  }                                                                                            \
  GRT_CHECK_FUNCTION(name) {                                                                   \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                               \
    return grt::kernels::activation::check_float_unary(#name, args, type_codes, num_args);     \
  }

GRT_FLOAT_UNARY_KERNEL(logistic_f32, logistic)
GRT_FLOAT_UNARY_KERNEL(tanh_f32, hyperbolic_tangent)
GRT_FLOAT_UNARY_KERNEL(hard_swish_f32, hard_swish)
GRT_FLOAT_UNARY_KERNEL(elu_f32, elu)
GRT_FLOAT_UNARY_KERNEL(abs_f32, absolute)
GRT_FLOAT_UNARY_KERNEL(neg_f32, negate)
GRT_FLOAT_UNARY_KERNEL(exp_f32, exponential)
GRT_FLOAT_UNARY_KERNEL(log_f32, logarithm)
GRT_FLOAT_UNARY_KERNEL(sqrt_f32, square_root)
GRT_FLOAT_UNARY_KERNEL(rsqrt_f32, reciprocal_square_root)
GRT_FLOAT_UNARY_KERNEL(square_f32, square)
GRT_FLOAT_UNARY_KERNEL(sin_f32, sine)
GRT_FLOAT_UNARY_KERNEL(cos_f32, cosine)
GRT_FLOAT_UNARY_KERNEL(floor_f32, round_down)
GRT_FLOAT_UNARY_KERNEL(ceil_f32, round_up)
GRT_FLOAT_UNARY_KERNEL(round_f32, round_half_even)

#undef GRT_FLOAT_UNARY_KERNEL

GRT_KERNEL_FUNCTION(relu_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  const DLTensor* in = tensor_at(args, 0);
  const float* x = data_of<const float>(in);
  float* y = data_of<float>(tensor_at(args, 1));
  const float low = static_cast<float>(real_at(args, 2));
  const float high = static_cast<float>(real_at(args, 3));
  const int64_t count = element_count(in);
  // TFLM's order of comparisons: NaN passes through.
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] > high ? high : (x[i] < low ? low : x[i]);
  return 0;
}

GRT_CHECK_FUNCTION(relu_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  ArgCheck check("relu_f32", args, type_codes, num_args);
  activation::check_unary(check, 4, ElementType::kFloat32, args).real(2).real(3);
  if (check.ok()) check.expect(real_at(args, 2) <= real_at(args, 3), "low is above high");
  return check.result();
}
