// The int8 activation tables, each entry computed as TFLM's reference kernel computes that
// input (see each builder for the kernel it follows).
#include "activation_tables.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>

#include "../../../kernels/src/dense/softmax_fixed_point.h"
#include "../../../kernels/src/quant_math.h"
#include "graphrt/tools/quantize_params.h"

namespace grt::tools::activation {
namespace {

using kernels::multiply_by_quantized_multiplier;
using kernels::rounding_divide_by_pot;
using kernels::softmax::mul;
using kernels::softmax::saturating_shift_left;
using kernels::softmax::sub;

// Table of f(v) for every int8 v, saturated to int8.
Int8Table tabulate(const std::function<int32_t(int32_t)>& f) {
  Int8Table table{};
  for (int32_t v = -128; v <= 127; ++v) table[static_cast<size_t>(v + 128)] = static_cast<int8_t>(std::clamp(f(v), -128, 127));
  return table;
}

// ---- gemmlowp's fixed-point exp, logistic and tanh (int32 raw values, Qm.(31 - m)) ----

// exp(a) for a <= 0 in Q(integer_bits); the result is Q0.31. exp of the remainder within a
// quarter, times exp(-2^k) for each power of two k that a's magnitude holds.
int32_t exp_on_negative_values(int32_t a, int integer_bits) {
  const int fractional_bits = 31 - integer_bits;
  const int32_t one_quarter = int32_t{1} << (fractional_bits - 2);
  const int32_t a_mod_quarter_minus_quarter = sub(a & (one_quarter - 1), one_quarter);
  int32_t result = kernels::softmax::exp_on_quarter_interval(saturating_shift_left(a_mod_quarter_minus_quarter, integer_bits));
  const int32_t remainder = sub(a_mod_quarter_minus_quarter, a);
  constexpr int32_t kExpOfMinusPowerOfTwo[] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int k = -2; k <= 4 && k < integer_bits; ++k) {
    if ((remainder & (int32_t{1} << (fractional_bits + k))) != 0) result = mul(result, kExpOfMinusPowerOfTwo[k + 2]);
  }
  if (integer_bits > 5 && a < -(int32_t{1} << (36 - integer_bits))) result = 0;  // below -32
  return a == 0 ? std::numeric_limits<int32_t>::max() : result;
}

// (1 - x) / (1 + x) for x in [0, 1), Q0.31. gemmlowp's Newton iteration ends at
// z = 2 / (1 + x) in Q2.29; 1 / (1 + x) is z / 2 saturated into Q0.31 (2z raw), and
// (1 - x) / (1 + x) = z - 1 is 4z - 2^31 raw, saturating exactly where 2z does.
int32_t one_minus_x_over_one_plus_x(int32_t x) {
  const int32_t reciprocal = kernels::softmax::one_over_one_plus_x(x);
  if (reciprocal == std::numeric_limits<int32_t>::max()) return reciprocal;
  return static_cast<int32_t>(2 * int64_t{reciprocal} - (int64_t{1} << 31));
}

// logistic(a) for a in Q(integer_bits); the result is Q0.31.
int32_t fixed_point_logistic(int32_t a, int integer_bits) {
  if (a == 0) return int32_t{1} << 30;
  const int32_t magnitude = a > 0 ? a : sub(0, a);
  const int32_t positive = kernels::softmax::one_over_one_plus_x(exp_on_negative_values(sub(0, magnitude), integer_bits));
  return a > 0 ? positive : sub(std::numeric_limits<int32_t>::max(), positive);
}

// tanh(a) for a in Q(integer_bits); the result is Q0.31. exp(-2|a|) is a's raw value read
// with one more integer bit.
int32_t fixed_point_tanh(int32_t a, int integer_bits) {
  if (a == 0) return 0;
  const int32_t negative_magnitude = a < 0 ? a : sub(0, a);
  const int32_t t = one_minus_x_over_one_plus_x(exp_on_negative_values(negative_magnitude, integer_bits + 1));
  return a < 0 ? sub(0, t) : t;
}

// ---- gemmlowp's int16 primitives, for HARD_SWISH ----

int16_t saturating_rounding_doubling_high_mul16(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) return std::numeric_limits<int16_t>::max();
  const int32_t product = int32_t{a} * int32_t{b};
  const int32_t nudge = product >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((product + nudge) / (1 << 15));
}

// The same, truncating toward zero instead of rounding (TFLite's SaturatingDoublingHighMul).
int16_t saturating_doubling_high_mul16(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((int32_t{a} * int32_t{b}) / (1 << 15));
}

// gemmlowp's RoundingDivideByPOT on int16, every intermediate narrowed to int16 as there.
int16_t rounding_divide_by_pot16(int16_t x, int exponent) {
  const auto mask = static_cast<int16_t>((int64_t{1} << exponent) - 1);
  const auto remainder = static_cast<int16_t>(x & mask);
  const auto threshold = static_cast<int16_t>(static_cast<int16_t>(mask >> 1) + (x < 0 ? 1 : 0));
  return static_cast<int16_t>(static_cast<int16_t>(x >> exponent) + (remainder > threshold ? 1 : 0));
}

int16_t saturating_left_shift16(int16_t value, int amount) {
  const int64_t shifted = int64_t{value} * (int64_t{1} << std::min(amount, 32));
  return static_cast<int16_t>(std::clamp<int64_t>(shifted, std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()));
}

// TFLite's DownScaleInt32ToInt16Multiplier: the Q31 multiplier rounded to Q15.
int16_t downscale_multiplier(int32_t multiplier) {
  constexpr int32_t kRounding = 1 << 15;
  if (multiplier >= std::numeric_limits<int32_t>::max() - kRounding) return std::numeric_limits<int16_t>::max();
  return static_cast<int16_t>((multiplier + kRounding) >> 16);
}

// ---- RSQRT's inverse square root ----

// TFLite's GetInvSqrtQuantizedMultiplierExp with reverse_shift -1: 1 / sqrt(input) as a
// Q31 multiplier and a shift for multiply_by_quantized_multiplier. Newton-Raphson in Q3.28.
void inverse_sqrt_multiplier(int32_t input, int32_t* multiplier, int* shift) {
  if (input <= 1) {  // 1 exactly, and 0 (and below, which TFLM refuses at run time) as 1
    *multiplier = std::numeric_limits<int32_t>::max();
    *shift = 0;
    return;
  }
  int right_shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++right_shift;
  }
  const int bit_pairs = (std::countl_zero(static_cast<uint32_t>(input)) - 1) / 2 - 1;
  right_shift -= bit_pairs;
  input <<= 2 * bit_pairs;
  const int32_t half_input = rounding_divide_by_pot(input >> 1, 1);
  constexpr int32_t kThreeHalves = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28;  // 1.0
  for (int i = 0; i < 5; ++i) {
    const int32_t x3 = saturating_shift_left(mul(mul(x, x), x), 6);
    x = saturating_shift_left(sub(mul(kThreeHalves, x), mul(half_input, x3)), 3);
  }
  constexpr int32_t kHalfSqrtTwo = 1518500250;
  x = mul(x, kHalfSqrtTwo);
  if (right_shift < 0) {
    x = static_cast<int32_t>(static_cast<uint32_t>(x) << -right_shift);
    right_shift = 0;
  }
  *multiplier = x;
  *shift = -right_shift;
}

bool fail(std::string* error, const char* why) {
  *error = why;
  return false;
}

bool representable(FixedPointMultiplier m) { return m.shift >= -31 && m.shift <= 30; }

// The input side TFLM's int8 LOGISTIC and TANH share: x less its zero point is rescaled to
// Q4.27 (multiplier and left shift from frexp of scale * 2^27); beyond the radius the
// output saturates without rescaling.
struct Q4Input {
  int32_t zero_point = 0;
  int32_t multiplier = 0;
  int left_shift = 0;
  int32_t radius = 0;
};

bool q4_input(Quantization in, Q4Input* q4, std::string* error) {
  constexpr int kFractionalBits = 27;
  const double fraction = std::frexp(static_cast<double>(in.scale) * static_cast<double>(1 << kFractionalBits), &q4->left_shift);
  if (q4->left_shift < 0 || q4->left_shift > 31) return fail(error, "input scale is out of range");
  q4->zero_point = in.zero_point;
  q4->multiplier = static_cast<int32_t>(std::round(fraction * static_cast<double>(int64_t{1} << 31)));
  // TFLite's CalculateInputRadius(4, left_shift, 31): 15 * 2^27 / 2^left_shift, floored.
  q4->radius = static_cast<int32_t>(std::floor(std::ldexp(15.0 * static_cast<double>(1 << kFractionalBits), -q4->left_shift)));
  return true;
}

// f(x in Q4.27) for every int8 value, saturated to -128 / 127 beyond the radius.
Int8Table q4_table(const Q4Input& q4, const std::function<int32_t(int32_t)>& f) {
  return tabulate([&](int32_t v) {
    const int32_t x = v - q4.zero_point;
    if (x <= -q4.radius) return -128;
    if (x >= q4.radius) return 127;
    return f(multiply_by_quantized_multiplier(x, q4.multiplier, q4.left_shift));
  });
}

}  // namespace

int32_t quantize_clamped(float value, Quantization q, int32_t low, int32_t high) {
  const double rounded = std::round(static_cast<double>(value / q.scale)) + q.zero_point;
  return static_cast<int32_t>(std::clamp<double>(rounded, low, high));
}

bool checked_log2(float x, int* log2) {
  const float exact = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(exact);
  *log2 = static_cast<int>(rounded);
  return std::abs(exact - rounded) < 1e-3f;
}

// TFLM's int8 LOGISTIC (reference_integer_ops::Logistic): gemmlowp's logistic of the Q4.27
// input gives Q0.31, rounded to 1/256 steps around the fixed output zero point -128.
bool logistic_table(Quantization in, Quantization out, Int8Table* table, std::string* error) {
  if (out.zero_point != -128) return fail(error, "int8 output zero point must be -128");
  Q4Input q4;
  if (!q4_input(in, &q4, error)) return false;
  *table = q4_table(q4, [](int32_t x) { return rounding_divide_by_pot(fixed_point_logistic(x, 4), 23) - 128; });
  return true;
}

// TFLM's int8 TANH (reference_integer_ops::Tanh): gemmlowp's tanh in 1/128 steps around
// zero; the output's own quantization is not read.
bool tanh_table(Quantization in, Int8Table* table, std::string* error) {
  Q4Input q4;
  if (!q4_input(in, &q4, error)) return false;
  *table = q4_table(q4, [](int32_t x) { return rounding_divide_by_pot(fixed_point_tanh(x, 4), 24); });
  return true;
}

// TFLM's int8 RELU (ReluQuantized with CalculateReluOpData's parameters; RELU_N1_TO_1 as
// TFLite's ReluX): the input less its zero point, rescaled by in_scale / out_scale (the
// ratio in float), plus the output zero point, clamped to the activation's range.
bool relu_table(int activation, Quantization in, Quantization out, Int8Table* table, std::string* error) {
  const FixedPointMultiplier m = quantize_multiplier(static_cast<double>(in.scale / out.scale));
  if (!representable(m)) return fail(error, "input to output rescaling is out of range");
  int32_t low = 0;
  int32_t high = 0;
  quantized_activation_range(activation, out.scale, out.zero_point, -128, 127, &low, &high);
  *table = tabulate([&](int32_t v) {
    const int32_t y = kernels::wrapping_add(out.zero_point, multiply_by_quantized_multiplier(v - in.zero_point, m.multiplier, m.shift));
    return std::clamp(y, low, high);
  });
  return true;
}

Int8Table relu6_table(Quantization in) {
  const int32_t six = quantize_clamped(6.0f, in, -128, 127);
  return tabulate([&](int32_t v) { return v < in.zero_point ? in.zero_point : std::min(v, six); });
}

// TFLM's int8 HARD_SWISH (reference_ops::HardSwish with HardSwishPrepare's parameters):
// 16-bit fixed point throughout. x * 128 on a finer input scale; a "reluish" factor maps
// [-3, 3] to [0, 1] with saturation; their product, shifted to the output scale.
bool hard_swish_table(Quantization in, Quantization out, Int8Table* table, std::string* error) {
  const float hires_input_scale = (1.0f / 128.0f) * in.scale;
  const float reluish_scale = 3.0f / 32768.0f;
  const FixedPointMultiplier output_m = quantize_multiplier(static_cast<double>(hires_input_scale / out.scale));
  const FixedPointMultiplier reluish_m = quantize_multiplier(static_cast<double>(hires_input_scale / reluish_scale));
  if (output_m.shift > 0) return fail(error, "output scale is too small for TFLM's int8 hard swish");
  const int16_t output_multiplier = downscale_multiplier(output_m.multiplier);
  const int16_t reluish_multiplier = downscale_multiplier(reluish_m.multiplier);
  *table = tabulate([&](int32_t v) {
    const auto input = static_cast<int16_t>(v - in.zero_point);
    const auto hires_input = static_cast<int16_t>(input * (1 << 7));
    const int16_t preshift_output = saturating_rounding_doubling_high_mul16(hires_input, output_multiplier);
    int16_t reluish = hires_input;
    if (reluish_m.shift > 0) reluish = saturating_left_shift16(reluish, reluish_m.shift - 1);
    reluish = saturating_rounding_doubling_high_mul16(reluish, reluish_multiplier);
    if (reluish_m.shift > 0) reluish = saturating_left_shift16(reluish, 1);
    if (reluish_m.shift < 0) reluish = rounding_divide_by_pot16(reluish, -reluish_m.shift);
    reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);  // [-1, 1] -> [0, 1]
    const int16_t preshift = saturating_doubling_high_mul16(reluish, preshift_output);
    const int16_t shifted = rounding_divide_by_pot16(preshift, -output_m.shift);
    return static_cast<int32_t>(static_cast<int16_t>(shifted + out.zero_point));  // int16 sum, as TFLM's
  });
  return true;
}

// TFLM's int8 ELU builds this very table (PopulateLookupTable), in float: dequantize,
// exp(x) - 1 below zero, rescale, round, add the zero point.
Int8Table elu_table(Quantization in, Quantization out) {
  const float inverse_scale = 1.0f / out.scale;
  return tabulate([&](int32_t v) {
    const float x = in.scale * static_cast<float>(v - in.zero_point);
    const float elu = x < 0.0f ? std::exp(x) - 1.0f : x;
    const float quantized = std::round(elu * inverse_scale) + static_cast<float>(out.zero_point);
    // NaN only from an output scale too small for float (0 * inf): the zero point then.
    return static_cast<int32_t>(std::clamp(std::isnan(quantized) ? static_cast<float>(out.zero_point) : quantized, -128.0f, 127.0f));
  });
}

// TFLM's int8 ABS (AbsEvalQuantized): |x - zero point|, rescaled only when the scales
// differ, plus the output zero point.
bool abs_table(Quantization in, Quantization out, Int8Table* table, std::string* error) {
  const bool rescale = in.scale != out.scale;
  const FixedPointMultiplier m = quantize_multiplier(static_cast<double>(in.scale / out.scale));
  if (rescale && !representable(m)) return fail(error, "input to output rescaling is out of range");
  *table = tabulate([&](int32_t v) {
    const int32_t magnitude = std::abs(v - in.zero_point);
    return (rescale ? multiply_by_quantized_multiplier(magnitude, m.multiplier, m.shift) : magnitude) + out.zero_point;
  });
  return true;
}

// TFLM's int8 RSQRT (RsqrtEvalQuantized): 1 / sqrt(x - zero point) as a fixed-point
// multiplier applied to 1 << 20, then rescaled by 1 / (sqrt(in_scale) * out_scale) and
// shifted back. x at the zero point gives 127. TFLM refuses to run on x below the zero
// point; the table holds what its arithmetic gives there without that check (as for 1).
bool rsqrt_table(Quantization in, Quantization out, Int8Table* table, std::string* error) {
  constexpr int kShift = 20;
  const FixedPointMultiplier m = quantize_multiplier(1.0 / static_cast<double>(std::sqrt(in.scale) * out.scale));
  if (m.shift - kShift < -31 || m.shift > 30) return fail(error, "input to output rescaling is out of range");
  *table = tabulate([&](int32_t v) {
    const int32_t x = v - in.zero_point;
    if (x == 0) return 127;
    int32_t inverse_sqrt = 0;
    int inverse_sqrt_shift = 0;
    inverse_sqrt_multiplier(x, &inverse_sqrt, &inverse_sqrt_shift);
    const int32_t scaled = multiply_by_quantized_multiplier(1, inverse_sqrt, inverse_sqrt_shift + kShift);
    return multiply_by_quantized_multiplier(scaled, m.multiplier, m.shift - kShift) + out.zero_point;
  });
  return true;
}

}  // namespace grt::tools::activation
