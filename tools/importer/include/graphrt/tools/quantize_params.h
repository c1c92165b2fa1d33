// Host-side precomputation of the fixed-point parameters TFLM's kernels derive from float
// scales, with TFLite's exact rounding, so kernels do no float math at run time.
#ifndef GRAPHRT_TOOLS_QUANTIZE_PARAMS_H_
#define GRAPHRT_TOOLS_QUANTIZE_PARAMS_H_

#include <cstdint>

namespace grt::tools {

struct FixedPointMultiplier {
  int32_t multiplier = 0;  // Q31
  int shift = 0;           // > 0: left shift, < 0: right shift
};

// TFLite's QuantizeMultiplier: m = q * 2^shift with q in [0.5, 1) as Q31, rounded half away
// from zero; 0 maps to (0, 0); tiny values flush to (0, 0).
FixedPointMultiplier quantize_multiplier(double real_multiplier);

// Clamp range of a fused activation for a quantized output (TFLite's
// CalculateActivationRangeQuantized). activation: 0 none, 1 RELU, 2 RELU_N1_TO_1, 3 RELU6.
void quantized_activation_range(int activation, float output_scale, int32_t output_zero_point, int32_t type_min,
                                int32_t type_max, int32_t* act_min, int32_t* act_max);

// Float clamp range of a fused activation.
void float_activation_range(int activation, float* act_min, float* act_max);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_QUANTIZE_PARAMS_H_
