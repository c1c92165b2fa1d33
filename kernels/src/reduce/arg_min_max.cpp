// ARG_MAX and ARG_MIN along one axis, as TFLM's reference (reference/arg_min_max.h with
// GreaterFn / LessFn): the first element is the starting candidate and a later one replaces
// it only when strictly greater (less), so ties keep the lowest index (and a NaN first
// element is never replaced, as in TFLM).
//
// arg_max_<in>_<out>, arg_min_<in>_<out> (in: s8 or f32; out: s32 or i64) take:
//   0 in X, 1 out Y (index dtype), 2 IntArray kept walk, 3 IntArray reduced walk of at most
//   one dimension: the axis (see reduction_walk.h). An empty axis gives index 0.
#include <stdint.h>

#include "reduction_walk.h"

namespace grt::kernels::reduce {
namespace {

template <typename T, typename Index, bool kMax>
int run_arg_min_max(TVMValue* args) {
  const T* x = data_of<const T>(tensor_at(args, 0));
  Index* y = data_of<Index>(tensor_at(args, 1));
  const Walk kept = read_walk(tensor_at(args, 2));
  const Walk axis = read_walk(tensor_at(args, 3));
  const int64_t axis_size = axis.rank == 0 ? 1 : axis.extent[0];
  const int64_t axis_stride = axis.rank == 0 ? 0 : axis.stride[0];
  int64_t n = 0;
  walk_offsets(kept, 0, [&](int64_t base) {
    Index best_index = 0;
    if (axis_size > 0) {
      T best = x[base];
      for (int64_t i = 1; i < axis_size; ++i) {
        const T v = x[base + i * axis_stride];
        if (kMax ? v > best : v < best) {
          best = v;
          best_index = static_cast<Index>(i);
        }
      }
    }
    y[n++] = best_index;
  });
  return 0;
}

int check_arg_min_max(const char* name, ElementType in_type, ElementType out_type, TVMValue* args, int* codes,
                      int count) {
  ArgCheck check(name, args, codes, count);
  check.count(4).tensor(0, in_type).tensor(1, out_type);
  check_reduction(check, args, /*max_reduced_rank=*/1);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::reduce

#define GRT_ARG_MIN_MAX_KERNEL(name, T, Index, is_max, in_type, out_type)                                 \
  GRT_KERNEL_FUNCTION(name) {                                                                            \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;        \
    return grt::kernels::reduce::run_arg_min_max<T, Index, is_max>(args);                                \
  }                                                                                                      \
  GRT_CHECK_FUNCTION(name) {                                                                             \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                                         \
    return grt::kernels::reduce::check_arg_min_max(#name, grt::kernels::ElementType::in_type,            \
                                                   grt::kernels::ElementType::out_type, args, type_codes, \
                                                   num_args);                                            \
  }

GRT_ARG_MIN_MAX_KERNEL(arg_max_s8_s32, int8_t, int32_t, true, kInt8, kInt32)
GRT_ARG_MIN_MAX_KERNEL(arg_max_s8_i64, int8_t, int64_t, true, kInt8, kInt64)
GRT_ARG_MIN_MAX_KERNEL(arg_max_f32_s32, float, int32_t, true, kFloat32, kInt32)
GRT_ARG_MIN_MAX_KERNEL(arg_max_f32_i64, float, int64_t, true, kFloat32, kInt64)
GRT_ARG_MIN_MAX_KERNEL(arg_min_s8_s32, int8_t, int32_t, false, kInt8, kInt32)
GRT_ARG_MIN_MAX_KERNEL(arg_min_s8_i64, int8_t, int64_t, false, kInt8, kInt64)
GRT_ARG_MIN_MAX_KERNEL(arg_min_f32_s32, float, int32_t, false, kFloat32, kInt32)
GRT_ARG_MIN_MAX_KERNEL(arg_min_f32_i64, float, int64_t, false, kFloat32, kInt64)
