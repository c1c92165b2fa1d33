// Follows TFLite's QuantizeMultiplier and CalculateActivationRange* bit for bit: the kernels
// must reproduce TFLite Micro's integer outputs exactly, so the rounding here matters.
#include "graphrt/tools/quantize_params.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace grt::tools {
namespace {

// The fused activation codes of TFLite's ActivationFunctionType.
constexpr int kRelu = 1;
constexpr int kReluN1To1 = 2;
constexpr int kRelu6 = 3;

// round(f / scale) + zero_point in float, as TFLite computes it, saturated to int32 instead
// of failing when the scale is absurdly small.
int32_t quantize_value(float value, float scale, int32_t zero_point) {
  const float rounded = std::round(value / scale);
  if (!(rounded > static_cast<float>(std::numeric_limits<int32_t>::min()))) return std::numeric_limits<int32_t>::min();
  if (!(rounded < static_cast<float>(std::numeric_limits<int32_t>::max()))) return std::numeric_limits<int32_t>::max();
  const int64_t q = int64_t{zero_point} + static_cast<int64_t>(rounded);
  return static_cast<int32_t>(std::clamp<int64_t>(q, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
}

}  // namespace

FixedPointMultiplier quantize_multiplier(double real_multiplier) {
  FixedPointMultiplier result;
  // Not representable: the kernels' checks refuse the (0, 0) this gives where it matters.
  if (real_multiplier == 0.0 || !std::isfinite(real_multiplier)) return result;
  int exponent = 0;
  const double fraction = std::frexp(real_multiplier, &exponent);  // in [0.5, 1)
  // std::round is half away from zero, like TfLiteRound.
  int64_t q_fixed = static_cast<int64_t>(std::round(fraction * static_cast<double>(int64_t{1} << 31)));
  // A fraction just below 1 can round up to exactly 2^31, which does not fit in Q31.
  if (q_fixed == (int64_t{1} << 31)) {
    q_fixed /= 2;
    ++exponent;
  }
  // Beyond a 31-bit right shift every product rounds to zero anyway.
  if (exponent < -31) {
    exponent = 0;
    q_fixed = 0;
  }
  result.multiplier = static_cast<int32_t>(q_fixed);
  result.shift = exponent;
  return result;
}

void quantized_activation_range(int activation, float output_scale, int32_t output_zero_point, int32_t type_min,
                                int32_t type_max, int32_t* act_min, int32_t* act_max) {
  int32_t low = type_min;
  int32_t high = type_max;
  if (activation == kRelu) {
    low = std::max(type_min, quantize_value(0.0f, output_scale, output_zero_point));
  } else if (activation == kRelu6) {
    low = std::max(type_min, quantize_value(0.0f, output_scale, output_zero_point));
    high = std::min(type_max, quantize_value(6.0f, output_scale, output_zero_point));
  } else if (activation == kReluN1To1) {
    low = std::max(type_min, quantize_value(-1.0f, output_scale, output_zero_point));
    high = std::min(type_max, quantize_value(1.0f, output_scale, output_zero_point));
  }
  *act_min = low;
  *act_max = high;
}

void float_activation_range(int activation, float* act_min, float* act_max) {
  float low = std::numeric_limits<float>::lowest();
  float high = std::numeric_limits<float>::max();
  if (activation == kRelu) {
    low = 0.0f;
  } else if (activation == kRelu6) {
    low = 0.0f;
    high = 6.0f;
  } else if (activation == kReluN1To1) {
    low = -1.0f;
    high = 1.0f;
  }
  *act_min = low;
  *act_max = high;
}

}  // namespace grt::tools
