// REDUCE_MAX and REDUCE_MIN over any axes, as TFLM's reference (ReduceGeneric with
// MinMaxReducerCompare): each output starts at the type's lowest (max) or highest (min)
// value and takes an input that compares strictly greater (less). int8 needs equal input and
// output quantization (the converter checks), so values are compared as they are.
//
// reduce_max_s8, reduce_max_f32, reduce_min_s8, reduce_min_f32 take:
//   0 in X, 1 out Y (same dtype), 2 IntArray kept walk, 3 IntArray reduced walk
//   (see reduction_walk.h). An empty reduction leaves the starting value.
#include <float.h>
#include <stdint.h>

#include "reduction_walk.h"

namespace grt::kernels::reduce {
namespace {

template <typename T>
struct Limits;
template <>
struct Limits<int8_t> {
  static constexpr int8_t lowest = INT8_MIN;
  static constexpr int8_t highest = INT8_MAX;
};
template <>
struct Limits<float> {
  static constexpr float lowest = -FLT_MAX;
  static constexpr float highest = FLT_MAX;
};

template <typename T, bool kMax>
int run_min_max(TVMValue* args) {
  const T* x = data_of<const T>(tensor_at(args, 0));
  T* y = data_of<T>(tensor_at(args, 1));
  const Walk kept = read_walk(tensor_at(args, 2));
  const Walk reduced = read_walk(tensor_at(args, 3));
  const bool empty = walk_positions(reduced) == 0;
  int64_t n = 0;
  walk_offsets(kept, 0, [&](int64_t base) {
    T best = kMax ? Limits<T>::lowest : Limits<T>::highest;
    if (!empty) {
      walk_offsets(reduced, base, [&](int64_t offset) {
        const T v = x[offset];
        if (kMax ? v > best : v < best) best = v;
      });
    }
    y[n++] = best;
  });
  return 0;
}

int check_min_max(const char* name, ElementType type, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(4).tensor(0, type).tensor(1, type);
  check_reduction(check, args);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::reduce

#define GRT_MIN_MAX_KERNEL(name, T, is_max, element_type)                                            \
  GRT_KERNEL_FUNCTION(name) {                                                                       \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;   \
    return grt::kernels::reduce::run_min_max<T, is_max>(args);                                      \
  }                                                                                                 \
  GRT_CHECK_FUNCTION(name) {                                                                        \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                                    \
    return grt::kernels::reduce::check_min_max(#name, grt::kernels::ElementType::element_type, args, \
                                               type_codes, num_args);                               \
  }

GRT_MIN_MAX_KERNEL(reduce_max_s8, int8_t, true, kInt8)
GRT_MIN_MAX_KERNEL(reduce_max_f32, float, true, kFloat32)
GRT_MIN_MAX_KERNEL(reduce_min_s8, int8_t, false, kInt8)
GRT_MIN_MAX_KERNEL(reduce_min_f32, float, false, kFloat32)
