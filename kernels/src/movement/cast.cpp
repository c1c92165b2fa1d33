// CAST between int8, int16, int32, float32 and bool, as TFLM's reference: a C++
// static_cast per element, so integers narrow by wrapping around and floats truncate toward
// zero, with no saturation.
//
// cast_<from>_<to> (from s8, s16, s32, f32, bool; to s8, s16, s32, f32; never the same) take:
//   0 in X, 1 out Y   (same element count)
// A float beyond int32 or NaN has no C++ value; TFLM's host build converts through a 32-bit
// x86 conversion, which yields INT32_MIN there, then narrows: so does this, without
// undefined behaviour.
#include <stdint.h>

#include <type_traits>

#include "../kernel_args.h"

namespace grt::kernels::movement {
namespace {

// The dtype of each C++ element type; bool is one byte, 0 or 1.
template <typename T>
constexpr ElementType element_type() {
  if constexpr (std::is_same_v<T, int8_t>) return ElementType::kInt8;
  if constexpr (std::is_same_v<T, int16_t>) return ElementType::kInt16;
  if constexpr (std::is_same_v<T, int32_t>) return ElementType::kInt32;
  if constexpr (std::is_same_v<T, float>) return ElementType::kFloat32;
  return ElementType::kBool;
}

inline int32_t truncate_to_int32(float x) {
  if (!(x >= -2147483648.0f && x < 2147483648.0f)) return INT32_MIN;
  return static_cast<int32_t>(x);
}

// Two's-complement narrowing, as GCC and Clang define static_cast between integers.
template <typename To>
inline To narrow(int32_t x) {
  static_assert(sizeof(To) < sizeof(int32_t), "only narrower types narrow");
  const auto bits = static_cast<uint32_t>(x) & ((uint32_t{1} << (8 * sizeof(To))) - 1);
  const uint32_t sign = uint32_t{1} << (8 * sizeof(To) - 1);
  return static_cast<To>(static_cast<int32_t>(bits ^ sign) - static_cast<int32_t>(sign));
}

template <typename From, typename To>
inline To convert(From x) {
  return static_cast<To>(x);
}
template <>
inline int8_t convert<int16_t, int8_t>(int16_t x) { return narrow<int8_t>(x); }
template <>
inline int8_t convert<int32_t, int8_t>(int32_t x) { return narrow<int8_t>(x); }
template <>
inline int16_t convert<int32_t, int16_t>(int32_t x) { return narrow<int16_t>(x); }
template <>
inline int8_t convert<float, int8_t>(float x) { return narrow<int8_t>(truncate_to_int32(x)); }
template <>
inline int16_t convert<float, int16_t>(float x) { return narrow<int16_t>(truncate_to_int32(x)); }
template <>
inline int32_t convert<float, int32_t>(float x) { return truncate_to_int32(x); }

template <typename From, typename To>
int run_cast(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const int64_t count = element_count(in);
  To* y = data_of<To>(tensor_at(args, 1));
  if constexpr (element_type<From>() == ElementType::kBool) {
    // Read as bytes: a bool whose byte is neither 0 nor 1 counts as true.
    const uint8_t* x = data_of<const uint8_t>(in);
    for (int64_t i = 0; i < count; ++i) y[i] = static_cast<To>(x[i] != 0 ? 1 : 0);
  } else {
    const From* x = data_of<const From>(in);
    for (int64_t i = 0; i < count; ++i) y[i] = convert<From, To>(x[i]);
  }
  return 0;
}

template <typename From, typename To>
int check_cast(const char* name, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check.count(2).tensor(0, element_type<From>()).tensor(1, element_type<To>());
  if (check.ok()) {
    check.expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 1)), "input and output sizes differ");
  }
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::movement

#define GRT_CAST_KERNEL(name, From, To)                                                          \
  GRT_KERNEL_FUNCTION(name) {                                                                    \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle; \
    return grt::kernels::movement::run_cast<From, To>(args);                                     \
  }                                                                                              \
  GRT_CHECK_FUNCTION(name) {                                                                     \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                                 \
    return grt::kernels::movement::check_cast<From, To>(#name, args, type_codes, num_args);      \
  }

GRT_CAST_KERNEL(cast_s8_s16, int8_t, int16_t)
GRT_CAST_KERNEL(cast_s8_s32, int8_t, int32_t)
GRT_CAST_KERNEL(cast_s8_f32, int8_t, float)
GRT_CAST_KERNEL(cast_s16_s8, int16_t, int8_t)
GRT_CAST_KERNEL(cast_s16_s32, int16_t, int32_t)
GRT_CAST_KERNEL(cast_s16_f32, int16_t, float)
GRT_CAST_KERNEL(cast_s32_s8, int32_t, int8_t)
GRT_CAST_KERNEL(cast_s32_s16, int32_t, int16_t)
GRT_CAST_KERNEL(cast_s32_f32, int32_t, float)
GRT_CAST_KERNEL(cast_f32_s8, float, int8_t)
GRT_CAST_KERNEL(cast_f32_s16, float, int16_t)
GRT_CAST_KERNEL(cast_f32_s32, float, int32_t)
GRT_CAST_KERNEL(cast_bool_s8, bool, int8_t)
GRT_CAST_KERNEL(cast_bool_s16, bool, int16_t)
GRT_CAST_KERNEL(cast_bool_s32, bool, int32_t)
GRT_CAST_KERNEL(cast_bool_f32, bool, float)
