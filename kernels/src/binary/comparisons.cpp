// EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL with broadcasting, as TFLM's
// reference kernels. Outputs are bool (one byte per element, 0 or 1).
//
// <op>_s8 takes:
//   0 in A, 1 in B (int8), 2 out Y (bool; Y's shape is A and B broadcast)
//   3 Int left_shift                                 (TFLM: 8)
//   4 Int a_offset, 5 Int a_multiplier, 6 Int a_shift  (offset = -zero point; multiplier *
//   7 Int b_offset, 8 Int b_multiplier, 9 Int b_shift   2^shift = the input's scale, shift <= 0)
// Both inputs are brought to a common real scale, ((x + offset) << left_shift) * scale in
// fixed point, and the int32 results compared, so inputs of different scales compare by value.
//
// <op>_s32, <op>_i64, <op>_f32 and equal_bool, not_equal_bool take 0 A, 1 B, 2 Y (bool) and
// compare the elements as they are.
#include <stdint.h>

#include "../quant_math.h"
#include "binary_common.h"

namespace grt::kernels::binary {
namespace {

struct Equal {
  template <typename T>
  bool operator()(T a, T b) const {
    return a == b;
  }
};
struct NotEqual {
  template <typename T>
  bool operator()(T a, T b) const {
    return a != b;
  }
};
struct Greater {
  template <typename T>
  bool operator()(T a, T b) const {
    return a > b;
  }
};
struct GreaterEqual {
  template <typename T>
  bool operator()(T a, T b) const {
    return a >= b;
  }
};
struct Less {
  template <typename T>
  bool operator()(T a, T b) const {
    return a < b;
  }
};
struct LessEqual {
  template <typename T>
  bool operator()(T a, T b) const {
    return a <= b;
  }
};

template <typename T, typename Compare>
struct PlainComparison {
  BoolStorage operator()(T a, T b) const { return Compare{}(a, b) ? 1 : 0; }
};

// Booleans compare as truth values, whatever non-zero byte holds true.
template <typename Compare>
struct BoolComparison {
  BoolStorage operator()(BoolStorage a, BoolStorage b) const { return Compare{}(a != 0, b != 0) ? 1 : 0; }
};

template <typename Compare>
struct RescaledComparison {
  int left_shift;
  int32_t a_offset, a_multiplier;
  int a_shift;
  int32_t b_offset, b_multiplier;
  int b_shift;

  BoolStorage operator()(int8_t a, int8_t b) const {
    // |x + offset| <= 255 and left_shift <= 23: the shifted value stays inside int32.
    const int32_t scaled_a = multiply_by_quantized_multiplier((a_offset + a) * (int32_t{1} << left_shift), a_multiplier, a_shift);
    const int32_t scaled_b = multiply_by_quantized_multiplier((b_offset + b) * (int32_t{1} << left_shift), b_multiplier, b_shift);
    return Compare{}(scaled_a, scaled_b) ? 1 : 0;
  }
};

template <typename T, typename Op>
int run_comparison(TVMValue* args, const Op& op) {
  broadcast_binary<T, BoolStorage>(tensor_at(args, 0), tensor_at(args, 1), tensor_at(args, 2), op);
  return 0;
}

template <typename T, typename Compare>
int run_plain(TVMValue* args) {
  return run_comparison<T>(args, PlainComparison<T, Compare>{});
}

template <typename Compare>
int run_bool(TVMValue* args) {
  return run_comparison<BoolStorage>(args, BoolComparison<Compare>{});
}

template <typename Compare>
int run_rescaled(TVMValue* args) {
  const auto i32 = [args](int i) { return static_cast<int32_t>(int_at(args, i)); };
  return run_comparison<int8_t>(args, RescaledComparison<Compare>{i32(3), i32(4), i32(5), i32(6), i32(7), i32(8), i32(9)});
}

int check_plain(ElementType type, TVMValue* args, int* codes, int count) {
  return check_three_operands(type, ElementType::kBool, args, codes, count);
}

int check_rescaled(TVMValue* args, int* codes, int count) {
  ArgCheck check("comparison", args, codes, count);
  check.count(10);
  check_broadcast_operands(check, args, ElementType::kInt8, ElementType::kBool);
  check.integer(3, 0, 23)
      .integer(4, -INT8_MAX, -INT8_MIN)
      .integer(5, 0, INT32_MAX)
      .integer(6, -31, 0)
      .integer(7, -INT8_MAX, -INT8_MIN)
      .integer(8, 0, INT32_MAX)
      .integer(9, -31, 0);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::binary

using grt::kernels::ElementType;
using namespace grt::kernels::binary;

#define GRT_ORDERING_KERNELS(name, Compare)                                                                 \
  GRT_BINARY_KERNEL(name##_s8, run_rescaled<Compare>(args), check_rescaled(args, type_codes, num_args))    \
  GRT_BINARY_KERNEL(name##_s32, (run_plain<int32_t, Compare>(args)),                                       \
                    check_plain(ElementType::kInt32, args, type_codes, num_args))                           \
  GRT_BINARY_KERNEL(name##_i64, (run_plain<int64_t, Compare>(args)),                                       \
                    check_plain(ElementType::kInt64, args, type_codes, num_args))                           \
  GRT_BINARY_KERNEL(name##_f32, (run_plain<float, Compare>(args)),                                         \
                    check_plain(ElementType::kFloat32, args, type_codes, num_args))

// EQUAL and NOT_EQUAL also take bool inputs.
#define GRT_EQUALITY_KERNELS(name, Compare) \
  GRT_ORDERING_KERNELS(name, Compare)       \
  GRT_BINARY_KERNEL(name##_bool, run_bool<Compare>(args), check_plain(ElementType::kBool, args, type_codes, num_args))

GRT_EQUALITY_KERNELS(equal, Equal)
GRT_EQUALITY_KERNELS(not_equal, NotEqual)
GRT_ORDERING_KERNELS(greater, Greater)
GRT_ORDERING_KERNELS(greater_equal, GreaterEqual)
GRT_ORDERING_KERNELS(less, Less)
GRT_ORDERING_KERNELS(less_equal, LessEqual)
