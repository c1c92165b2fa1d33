// MEAN over any axes of a tensor of any rank, keep_dims or not, bit-exact with TFLM's
// reference MEAN (reference/reduce.h): int8 and int16 through QuantizedMeanOrSum (the
// converter folds 1 / count into the multiplier as TFLM does), float32 as a row-major sum
// divided by the count. The arithmetic, shared with SUM, and the arguments are described in
// kernels/src/reduce/mean_sum.h.
#include "../reduce/mean_sum.h"

GRT_QUANTIZED_SUM_KERNEL(mean_s8, int8_t, kInt8)
GRT_QUANTIZED_SUM_KERNEL(mean_s16, int16_t, kInt16)
GRT_FLOAT_SUM_KERNEL(mean_f32, /*mean=*/true)
