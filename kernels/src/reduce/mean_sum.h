// MEAN and SUM over any axes, bit-exact with TFLM's reference (reference/reduce.h):
// quantized, QuantizedMeanOrSum: int32 sums (wrapping), minus zero point * count, one
// requantization (for MEAN the converter folds 1 / count into the multiplier as TFLM does,
// so the quantized MEAN and SUM kernels are the same arithmetic); float, sums in the input's
// row-major order, MEAN then divides by the count as a float.
//
// Arguments (mean_s8, mean_s16, sum_s8, sum_s16):
//   0 in X, 1 out Y (same dtype), 2 IntArray kept walk, 3 IntArray reduced walk
//     (see reduction_walk.h)
//   4 Int input_zero_point, 5 Int multiplier (Q31, >= 0), 6 Int shift in [-31, 30],
//   7 Int output_zero_point
// mean_f32, sum_f32: 0 in X, 1 out Y (float32), 2 kept walk, 3 reduced walk.
// No workspace: each output element is summed on its own.
#ifndef GRAPHRT_KERNELS_REDUCE_MEAN_SUM_H_
#define GRAPHRT_KERNELS_REDUCE_MEAN_SUM_H_

#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"
#include "reduction_walk.h"

namespace grt::kernels::reduce {

template <typename T>
int run_quantized_sum(TVMValue* args) {
  const T* x = data_of<const T>(tensor_at(args, 0));
  T* y = data_of<T>(tensor_at(args, 1));
  const Walk kept = read_walk(tensor_at(args, 2));
  const Walk reduced = read_walk(tensor_at(args, 3));
  const int64_t input_zero_point = int_at(args, 4);
  const int32_t multiplier = static_cast<int32_t>(int_at(args, 5));
  const int shift = static_cast<int>(int_at(args, 6));
  const int32_t output_zero_point = static_cast<int32_t>(int_at(args, 7));
  const int64_t count = walk_positions(reduced);
  // The reference's int64 zero point * count, truncated to int32 with the sum.
  const int32_t zero_point_total = static_cast<int32_t>(static_cast<uint32_t>(input_zero_point * count));
  int64_t n = 0;
  walk_offsets(kept, 0, [&](int64_t base) {
    if (count == 0) {  // the reference leaves T() when the input is empty
      y[n++] = T();
      return;
    }
    int32_t sum = 0;
    walk_offsets(reduced, base, [&](int64_t offset) { sum = wrapping_add(sum, x[offset]); });
    const int32_t centered = wrapping_add(sum, static_cast<int32_t>(0u - static_cast<uint32_t>(zero_point_total)));
    const int32_t scaled = wrapping_add(multiply_by_quantized_multiplier(centered, multiplier, shift), output_zero_point);
    y[n++] = static_cast<T>(scaled < quantized_min<T>() ? quantized_min<T>()
                                                        : (scaled > quantized_max<T>() ? quantized_max<T>() : scaled));
  });
  return 0;
}

template <typename T>
int check_quantized_sum(const char* name, ElementType type, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(8)
      .tensor(0, type)
      .tensor(1, type)
      .integer(4, quantized_min<T>(), quantized_max<T>())
      .integer(5, 0, INT32_MAX)
      .integer(6, -31, 30)
      .integer(7, quantized_min<T>(), quantized_max<T>());
  check_reduction(check, args);
  return check.result();
}

inline int run_float_sum(TVMValue* args, bool mean) {
  const float* x = data_of<const float>(tensor_at(args, 0));
  float* y = data_of<float>(tensor_at(args, 1));
  const Walk kept = read_walk(tensor_at(args, 2));
  const Walk reduced = read_walk(tensor_at(args, 3));
  const int64_t count = walk_positions(reduced);
  int64_t n = 0;
  walk_offsets(kept, 0, [&](int64_t base) {
    float sum = 0.0f;
    if (count > 0) walk_offsets(reduced, base, [&](int64_t offset) { sum += x[offset]; });
    y[n++] = mean && count > 0 ? sum / static_cast<float>(count) : sum;
  });
  return 0;
}

inline int check_float_sum(const char* name, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(4).tensor(0, ElementType::kFloat32).tensor(1, ElementType::kFloat32);
  check_reduction(check, args);
  return check.result();
}

}  // namespace grt::kernels::reduce

// Defines a quantized MEAN or SUM kernel and its check: name, element type, ElementType.
#define GRT_QUANTIZED_SUM_KERNEL(name, T, element_type)                                                     \
  GRT_KERNEL_FUNCTION(name) {                                                                              \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;         \
    return grt::kernels::reduce::run_quantized_sum<T>(args);                                               \
  }                                                                                                        \
  GRT_CHECK_FUNCTION(name) {                                                                               \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                                           \
    return grt::kernels::reduce::check_quantized_sum<T>(#name, grt::kernels::ElementType::element_type, args, \
                                                        type_codes, num_args);                             \
  }

// Defines a float32 MEAN (mean = true) or SUM kernel and its check.
#define GRT_FLOAT_SUM_KERNEL(name, mean)                                                           \
  GRT_KERNEL_FUNCTION(name) {                                                                     \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle; \
    return grt::kernels::reduce::run_float_sum(args, mean);                                       \
  }                                                                                               \
  GRT_CHECK_FUNCTION(name) {                                                                      \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                                  \
    return grt::kernels::reduce::check_float_sum(#name, args, type_codes, num_args);              \
  }

#endif  // GRAPHRT_KERNELS_REDUCE_MEAN_SUM_H_
