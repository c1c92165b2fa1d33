// What a multiply-accumulate is and how an accumulator becomes an output, per data type,
// exactly as TFLM's reference convolution kernels do it. The loops (conv2d.cpp,
// depthwise_conv2d.cpp, transpose_conv.cpp) are written once over these.
#ifndef GRAPHRT_KERNELS_CONV_CONV_ARITHMETIC_H_
#define GRAPHRT_KERNELS_CONV_CONV_ARITHMETIC_H_

#include <stdint.h>

#include "../quant_math.h"

namespace grt::kernels::conv {

// int8 activations, int8 per-channel weights, int32 bias: TFLM's ConvPerChannel and
// DepthwiseConvPerChannel. The accumulator is unsigned so that a window no real model has
// wraps instead of overflowing (undefined); where TFLM's int32 sum is defined it is the same.
struct Int8Arithmetic {
  using Input = int8_t;
  using Filter = int8_t;
  using Output = int8_t;
  using Accumulator = uint32_t;

  int32_t input_offset;
  int32_t output_offset;
  int32_t activation_min;
  int32_t activation_max;
  const int32_t* bias;  // may be null
  const int32_t* multipliers;
  const int32_t* shifts;

  Accumulator multiply(Input x, Filter w) const {
    return static_cast<Accumulator>(static_cast<int32_t>(w) * (static_cast<int32_t>(x) + input_offset));
  }
  Output finish(Accumulator sum, int32_t channel) const {
    if (bias != nullptr) sum += static_cast<Accumulator>(bias[channel]);
    int32_t value = multiply_by_quantized_multiplier(static_cast<int32_t>(sum), multipliers[channel], shifts[channel]);
    value = wrapping_add(value, output_offset);
    if (value < activation_min) value = activation_min;
    if (value > activation_max) value = activation_max;
    return static_cast<Output>(value);
  }
};

// int16 activations (zero point 0), int8 per-channel weights, int64 bias: TFLM's 16x8
// kernels with a 64-bit accumulator and the 64-bit requantization.
struct Int16Arithmetic {
  using Input = int16_t;
  using Filter = int8_t;
  using Output = int16_t;
  using Accumulator = int64_t;

  // TFLM's requantization is defined for |sum| < 2^47; clamping keeps a blob with absurd
  // biases from overflowing it and changes nothing inside that range.
  static constexpr int64_t kSumLimit = int64_t{1} << 47;

  int32_t activation_min;
  int32_t activation_max;
  const int64_t* bias;  // may be null
  const int32_t* multipliers;
  const int32_t* shifts;

  static Accumulator multiply(Input x, Filter w) {
    return static_cast<int32_t>(x) * static_cast<int32_t>(w);
  }
  Output finish(Accumulator sum, int32_t channel) const {
    if (bias != nullptr) {
      // Wrapping add: a blob's bias can be anything.
      sum = static_cast<int64_t>(static_cast<uint64_t>(sum) + static_cast<uint64_t>(bias[channel]));
    }
    if (sum < -kSumLimit) sum = -kSumLimit;
    if (sum > kSumLimit - 1) sum = kSumLimit - 1;
    int32_t value = multiply_by_quantized_multiplier(sum, multipliers[channel], shifts[channel]);
    if (value < activation_min) value = activation_min;
    if (value > activation_max) value = activation_max;
    return static_cast<Output>(value);
  }
};

// float32 throughout: TFLM's reference_ops::Conv / DepthwiseConv. The sum runs in the same
// order as TFLM's (taps row by row, channels innermost) so results are bit-identical.
struct FloatArithmetic {
  using Input = float;
  using Filter = float;
  using Output = float;
  using Accumulator = float;

  float activation_min;
  float activation_max;
  const float* bias;  // may be null

  static Accumulator multiply(Input x, Filter w) { return x * w; }
  Output finish(Accumulator total, int32_t channel) const {
    // TFLM adds 0.0f when there is no bias, which turns -0.0f into +0.0f.
    const float value = total + (bias != nullptr ? bias[channel] : 0.0f);
    // std::min(std::max(value, min), max), NaN included.
    const float low_clamped = value < activation_min ? activation_min : value;
    return activation_max < low_clamped ? activation_max : low_clamped;
  }
};

}  // namespace grt::kernels::conv

#endif  // GRAPHRT_KERNELS_CONV_CONV_ARITHMETIC_H_
