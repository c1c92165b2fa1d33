// SUM over any axes, bit-exact with TFLM's reference (quantized: QuantizedMeanOrSum with
// compute_sum; float32: ReduceGeneric's row-major sum). Arithmetic and arguments: mean_sum.h.
#include "mean_sum.h"

GRT_QUANTIZED_SUM_KERNEL(sum_s8, int8_t, kInt8)
GRT_QUANTIZED_SUM_KERNEL(sum_s16, int16_t, kInt16)
GRT_FLOAT_SUM_KERNEL(sum_f32, /*mean=*/false)
