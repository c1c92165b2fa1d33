// int16 LOGISTIC and TANH as TFLM's reference: the input is rescaled so that 2^9 (LOGISTIC)
// or 2^8 (TANH) steps cover 1/24 of a unit of 3/4-scaled input, then sigmoid is
// interpolated linearly in a 256-entry table of sigmoid(i / 24) in unsigned Q0.16;
// tanh(x) = 2 * sigmoid(2x) - 1 reuses the same table.
//
// logistic_s16, tanh_s16 take:
//   0 in X, 1 out Y                 (int16, same element count; zero points 0)
//   2 in Table                      (int16, 256 elements: the sigmoid table's uint16 bits)
//   3 Int multiplier, 4 Int shift   (x * multiplier >> shift, rounded: the importer has
//                                    already folded TFLM's power-of-two case into them)
#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"
#include "sigmoid_q15.h"
#include "unary_checks.h"

namespace grt::kernels::activation {
namespace {

struct Rescale {
  int32_t multiplier;
  int shift;
  int32_t round;

  explicit Rescale(TVMValue* args)
      : multiplier(static_cast<int32_t>(int_at(args, 3))),
        shift(static_cast<int>(int_at(args, 4))),
        round(shift > 0 ? int32_t{1} << (shift - 1) : 0) {}
  // TFLM's int32 arithmetic; it wraps only for scales far below any real model's.
  int32_t operator()(int16_t x) const { return wrapping_add(wrapping_mul(x, multiplier), round) >> shift; }
};

template <int16_t (*kFunction)(const uint16_t*, int32_t)>
int run_sigmoid(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const int16_t* x = data_of<const int16_t>(in);
  int16_t* y = data_of<int16_t>(tensor_at(args, 1));
  const uint16_t* table = data_of<const uint16_t>(tensor_at(args, 2));
  const Rescale rescale(args);
  const int64_t count = element_count(in);
  for (int64_t i = 0; i < count; ++i) y[i] = kFunction(table, rescale(x[i]));
  return 0;
}

int check_sigmoid(const char* name, TVMValue* args, int* codes, int count) {
  ArgCheck check(name, args, codes, count);
  check_unary(check, 5, ElementType::kInt16, args).tensor(2, ElementType::kInt16).integer(3, 0, INT16_MAX).integer(4, 0, 31);
  if (check.ok()) check.expect(element_count(tensor_at(args, 2)) == 256, "the sigmoid table must have 256 entries");
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::activation

GRT_KERNEL_FUNCTION(logistic_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::activation::run_sigmoid<grt::kernels::activation::logistic_value>(args);
}

GRT_CHECK_FUNCTION(logistic_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::activation::check_sigmoid("logistic_s16", args, type_codes, num_args);
}

GRT_KERNEL_FUNCTION(tanh_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::activation::run_sigmoid<grt::kernels::activation::tanh_value>(args);
}

GRT_CHECK_FUNCTION(tanh_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::activation::check_sigmoid("tanh_s16", args, type_codes, num_args);
}
