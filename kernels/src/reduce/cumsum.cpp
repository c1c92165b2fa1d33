// CUMSUM along one axis, inclusive or exclusive, forward or reversed, as TFLM's reference
// (reference/cumsum.h): float32 sums in walk order, int32 wraps (TFLite's int32 kernel;
// TFLM has none), int8 follows TFLM's quantized path exactly: each value, centred and shifted
// left by 20, is halved into the running sum, which starts at the halved, shifted negative
// zero point (not at 0) and is requantized for every output.
//
// cumsum_f32, cumsum_s32 arguments:
//   0 in X, 1 out Y (same dtype and shape), the tensor seen as [outer, depth, inner]
//   2 Int outer, 3 Int depth (the axis), 4 Int inner
//   5 Int exclusive (0 or 1), 6 Int reverse (0 or 1)
// cumsum_s8 adds: 7 Int input_offset (-input zero point), 8 Int input_multiplier (Q31 >= 0),
//   9 Int input_shift in [-31, 0], 10 Int output_multiplier (Q31 >= 0),
//   11 Int output_shift in [-31, 0], 12 Int output_zero_point
#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"

namespace grt::kernels::reduce {
namespace {

struct Lines {
  int64_t outer, depth, inner;
  bool exclusive, reverse;
};

Lines read_lines(TVMValue* args) {
  return {int_at(args, 2), int_at(args, 3), int_at(args, 4), int_at(args, 5) != 0, int_at(args, 6) != 0};
}

// Calls line(first offset, step) for each line along the axis, in summing order.
template <typename Line>
void for_each_line(const Lines& l, Line&& line) {
  for (int64_t o = 0; o < l.outer; ++o) {
    for (int64_t i = 0; i < l.inner; ++i) {
      const int64_t start = o * l.depth * l.inner + i;
      // Reversed lines run from the last element back, one inner stride at a time.
      line(l.reverse ? start + (l.depth - 1) * l.inner : start, l.reverse ? -l.inner : l.inner);
    }
  }
}

inline float add_values(float a, float b) { return a + b; }
inline int32_t add_values(int32_t a, int32_t b) { return wrapping_add(a, b); }

template <typename T>
int run_cumsum(TVMValue* args) {
  const T* x = data_of<const T>(tensor_at(args, 0));
  T* y = data_of<T>(tensor_at(args, 1));
  const Lines l = read_lines(args);
  for_each_line(l, [&](int64_t offset, int64_t step) {
    T sum = 0;
    for (int64_t d = 0; d < l.depth; ++d, offset += step) {
      if (l.exclusive) {
        y[offset] = sum;
        sum = add_values(sum, x[offset]);
      } else {
        sum = add_values(sum, x[offset]);
        y[offset] = sum;
      }
    }
  });
  return 0;
}

int run_cumsum_s8(TVMValue* args) {
  constexpr int kLeftShift = 20;
  const int8_t* x = data_of<const int8_t>(tensor_at(args, 0));
  int8_t* y = data_of<int8_t>(tensor_at(args, 1));
  const Lines l = read_lines(args);
  const int32_t input_offset = static_cast<int32_t>(int_at(args, 7));
  const int32_t input_multiplier = static_cast<int32_t>(int_at(args, 8));
  const int input_shift = static_cast<int>(int_at(args, 9));
  const int32_t output_multiplier = static_cast<int32_t>(int_at(args, 10));
  const int output_shift = static_cast<int>(int_at(args, 11));
  const int32_t output_zero_point = static_cast<int32_t>(int_at(args, 12));
  const auto scale_in = [&](int32_t centered) {
    return multiply_by_quantized_multiplier(static_cast<int32_t>(static_cast<uint32_t>(centered) << kLeftShift),
                                            input_multiplier, input_shift);
  };
  // TFLM starts every line's sum at the scaled input offset.
  const int32_t start = scale_in(input_offset);
  for_each_line(l, [&](int64_t offset, int64_t step) {
    int32_t sum = start;
    for (int64_t d = 0; d < l.depth; ++d, offset += step) {
      const int32_t scaled = scale_in(input_offset + x[offset]);
      int32_t total = sum;
      sum = wrapping_add(sum, scaled);
      if (!l.exclusive) total = sum;
      int32_t value = wrapping_add(multiply_by_quantized_multiplier(total, output_multiplier, output_shift), output_zero_point);
      value = value < INT8_MIN ? INT8_MIN : (value > INT8_MAX ? INT8_MAX : value);
      y[offset] = static_cast<int8_t>(value);
    }
  });
  return 0;
}

void check_lines(ArgCheck& check, TVMValue* args) {
  check.integer(2, 0, INT32_MAX).integer(3, 0, INT32_MAX).integer(4, 0, INT32_MAX).integer(5, 0, 1).integer(6, 0, 1);
  if (!check.ok()) return;
  const DLTensor* x = tensor_at(args, 0);
  const DLTensor* y = tensor_at(args, 1);
  bool same = x->ndim == y->ndim;
  for (int d = 0; same && d < x->ndim; ++d) same = x->shape[d] == y->shape[d];
  const int64_t count = element_count(x);
  // Each factor is at most INT32_MAX, so the product of the first two cannot overflow.
  int64_t lines = int_at(args, 2) * int_at(args, 3);
  if (lines > INT32_MAX) lines = int64_t{INT32_MAX} + 1;
  check.expect(same, "output must have the input's shape")
      .expect(count <= INT32_MAX && lines * int_at(args, 4) == count, "outer * depth * inner must be the input's size");
}

int check_cumsum(const char* name, ElementType type, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(7).tensor(0, type).tensor(1, type);
  check_lines(check, args);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::reduce

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace reduce = grt::kernels::reduce;

GRT_KERNEL_FUNCTION(cumsum_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::run_cumsum<float>(args);
}

GRT_CHECK_FUNCTION(cumsum_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::check_cumsum("cumsum_f32", ElementType::kFloat32, args, type_codes, num_args);
}

GRT_KERNEL_FUNCTION(cumsum_s32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::run_cumsum<int32_t>(args);
}

GRT_CHECK_FUNCTION(cumsum_s32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::check_cumsum("cumsum_s32", ElementType::kInt32, args, type_codes, num_args);
}

GRT_KERNEL_FUNCTION(cumsum_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return reduce::run_cumsum_s8(args);
}

GRT_CHECK_FUNCTION(cumsum_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("cumsum_s8", args, type_codes, num_args);
  check.count(13)
      .tensor(0, ElementType::kInt8)
      .tensor(1, ElementType::kInt8)
      .integer(7, -127, 128)
      .integer(8, 0, INT32_MAX)
      .integer(9, -31, 0)
      .integer(10, 0, INT32_MAX)
      .integer(11, -31, 0)
      .integer(12, INT8_MIN, INT8_MAX);
  reduce::check_lines(check, args);
  return check.result();
}
