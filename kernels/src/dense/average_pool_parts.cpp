// A global AVERAGE_POOL_2D in parts, for band plans (tools/bands): each band of the pool's
// input rows adds its per-channel sums to an int32 accumulator, and a last node averages
// them. Integer sums do not depend on their order, so the result is bit-exact with
// average_pool2d_s8 over the whole input (same rounding, same clamp).
//
// average_pool2d_sum_s8 arguments:
//   0 in X int8 [1, rows, W, C]: rows of the pool's input
//   1 out S int32 [C]: the running sums (read and written)
//   2 Int accumulate: 0 S gets X's sums, 1 S gets them added
//
// average_pool2d_finish_s8 arguments:
//   0 in S int32 [C]: every input row's sums
//   1 out Y int8, C elements
//   2 Int count: the positions summed (H * W of the whole input), in [1, 2048 * 2048]
//   3 Int act_min, 4 Int act_max: -128 <= act_min <= act_max <= 127
#include <stdint.h>

#include "dense_args.h"

namespace {

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
namespace dense = grt::kernels::dense;

// The whole pool's window (average_pool2d.cpp's kMaxFilter squared): every int8 sum stays
// inside int32.
constexpr int64_t kMaxCount = int64_t{2048} * 2048;

}  // namespace

GRT_KERNEL_FUNCTION(average_pool2d_sum_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  DLTensor* s = grt::kernels::tensor_at(args, 1);
  const bool accumulate = grt::kernels::int_at(args, 2) != 0;
  const int channels = static_cast<int>(s->shape[0]);
  const int pixels = static_cast<int>(x->shape[1] * x->shape[2]);
  const int8_t* input = grt::kernels::data_of<const int8_t>(x);
  // Wrapping adds: a plan's sums stay far inside int32, a blob's many sum nodes cannot overflow.
  uint32_t* sums = grt::kernels::data_of<uint32_t>(s);
  if (!accumulate) {
    for (int c = 0; c < channels; ++c) sums[c] = 0;
  }
  for (int p = 0; p < pixels; ++p) {
    const int8_t* pixel = input + p * channels;
    for (int c = 0; c < channels; ++c) sums[c] += static_cast<uint32_t>(pixel[c]);
  }
  return 0;
}

GRT_CHECK_FUNCTION(average_pool2d_sum_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("average_pool2d_sum_s8", args, type_codes, num_args);
  check.count(3).tensor(0, ElementType::kInt8, 4).tensor(1, ElementType::kInt32, 1).integer(2, 0, 1);
  if (!check.ok()) return check.result();
  const DLTensor* x = grt::kernels::tensor_at(args, 0);
  const DLTensor* s = grt::kernels::tensor_at(args, 1);
  check.expect(x->shape[0] == 1 && x->shape[3] == s->shape[0], "input must be [1, rows, W, C] with C the sums' length")
      .expect(x->shape[1] * x->shape[2] <= kMaxCount, "input has more positions than a pool window may");
  return check.result();
}

GRT_KERNEL_FUNCTION(average_pool2d_finish_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* s = grt::kernels::tensor_at(args, 0);
  const int32_t count = static_cast<int32_t>(grt::kernels::int_at(args, 2));
  const int32_t act_min = static_cast<int32_t>(grt::kernels::int_at(args, 3));
  const int32_t act_max = static_cast<int32_t>(grt::kernels::int_at(args, 4));
  const int32_t* sums = grt::kernels::data_of<const int32_t>(s);
  int8_t* output = grt::kernels::data_of<int8_t>(grt::kernels::tensor_at(args, 1));
  // Sums of a plan lie within 2^29 (kMaxCount * 128); beyond 2^30 the rounding would overflow.
  constexpr int32_t kMostSum = int32_t{1} << 30;
  for (int64_t c = 0; c < s->shape[0]; ++c) {
    const int32_t sum = dense::clamp_int(sums[c], -kMostSum, kMostSum);
    output[c] = static_cast<int8_t>(dense::clamp_int(dense::rounded_average(sum, count), act_min, act_max));
  }
  return 0;
}

GRT_CHECK_FUNCTION(average_pool2d_finish_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("average_pool2d_finish_s8", args, type_codes, num_args);
  check.count(5)
      .tensor(0, ElementType::kInt32, 1)
      .tensor(1, ElementType::kInt8)
      .integer(2, 1, kMaxCount)
      .integer(3, -128, 127)
      .integer(4, -128, 127);
  if (!check.ok()) return check.result();
  check.expect(grt::kernels::element_count(grt::kernels::tensor_at(args, 1)) == grt::kernels::tensor_at(args, 0)->shape[0],
               "output must hold one value per sum")
      .expect(grt::kernels::int_at(args, 3) <= grt::kernels::int_at(args, 4), "act_min exceeds act_max");
  return check.result();
}
