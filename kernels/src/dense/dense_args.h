// Argument checks and small arithmetic helpers shared by the dense kernel family.
#ifndef GRAPHRT_KERNELS_DENSE_DENSE_ARGS_H_
#define GRAPHRT_KERNELS_DENSE_DENSE_ARGS_H_

#include <stdint.h>

#include "../kernel_args.h"
#include "../quant_math.h"

namespace grt::kernels::dense {

// Kernels index with int; refuse anything bigger so no index arithmetic overflows.
inline bool fits_int(int64_t count) { return count >= 0 && count <= INT32_MAX; }

inline bool same_shape(const DLTensor* a, const DLTensor* b) {
  if (a->ndim != b->ndim) return false;
  for (int i = 0; i < a->ndim; ++i) {
    if (a->shape[i] != b->shape[i]) return false;
  }
  return true;
}

inline int64_t last_dim(const DLTensor* t) { return t->ndim > 0 ? t->shape[t->ndim - 1] : 1; }

// Whether each of n int32 values lies in [low, high].
inline bool values_within(const int32_t* v, int64_t n, int64_t low, int64_t high) {
  for (int64_t i = 0; i < n; ++i) {
    if (v[i] < low || v[i] > high) return false;
  }
  return true;
}

// A fully-connected layer's requantization, one IntArray (one tensor argument fewer to bind
// per node): its Q31 multipliers, then as many shifts, one pair per tensor or per unit.
struct UnitScales {
  const int32_t* multipliers;
  const int32_t* shifts;
  bool per_channel;
  int32_t multiplier(int unit) const { return multipliers[per_channel ? unit : 0]; }
  int32_t shift(int unit) const { return shifts[per_channel ? unit : 0]; }
};

inline UnitScales unit_scales(const DLTensor* requantization) {
  const int64_t channels = element_count(requantization) / 2;
  const int32_t* values = data_of<const int32_t>(requantization);
  return {values, values + channels, channels > 1};
}

// The requantization holds a pair per tensor or per each of `units`, its shifts in [-31, 30].
inline void check_unit_scales(ArgCheck& check, const DLTensor* requantization, int64_t units) {
  const int64_t count = element_count(requantization);
  const int64_t channels = count / 2;
  check.expect(count % 2 == 0 && (channels == 1 || channels == units),
               "requantization must hold multipliers then shifts, one each per tensor or per unit")
      .expect(requantization->data != nullptr, "requantization is missing");
  if (!check.ok()) return;
  check.expect(values_within(unit_scales(requantization).shifts, channels, -31, 30), "shifts must lie in [-31, 30]");
}

using grt::kernels::wrapping_add;
using grt::kernels::wrapping_mul;

inline int32_t clamp_int(int32_t v, int32_t low, int32_t high) {
  return v < low ? low : (v > high ? high : v);
}

// TFLM's int8 average of a window sum over `count` positions: rounded half away from zero.
inline int32_t rounded_average(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

// A fully-connected int8 unit from its wrapped int32 sum of products: bias added (wrapping,
// as TFLM's sum wraps), requantized, offset, clamped.
inline int8_t fully_connected_unit_s8(uint32_t sum, const int32_t* bias, int unit, int32_t multiplier, int32_t shift,
                                      int32_t output_offset, int32_t act_min, int32_t act_max) {
  if (bias != nullptr) sum += static_cast<uint32_t>(bias[unit]);
  const int32_t scaled = multiply_by_quantized_multiplier(static_cast<int32_t>(sum), multiplier, shift);
  return static_cast<int8_t>(clamp_int(wrapping_add(scaled, output_offset), act_min, act_max));
}

// fully_connected_f32's dot product runs in eight lanes: lane k % 8 adds product k, in order
// of k, and the lanes combine pairwise at the end. Its parts (fully_connected_sum_f32) keep
// the lanes between bands and so add in the same order: the same bits.
constexpr int kFloatLanes = 8;
inline float combine_lanes(const float* lanes) {
  return ((lanes[0] + lanes[4]) + (lanes[1] + lanes[5])) + ((lanes[2] + lanes[6]) + (lanes[3] + lanes[7]));
}

// std::min(std::max(v, low), high), the reference kernels' float activation clamp.
inline float clamp_float(float v, float low, float high) {
  const float raised = v < low ? low : v;
  return high < raised ? high : raised;
}

}  // namespace grt::kernels::dense

#endif  // GRAPHRT_KERNELS_DENSE_DENSE_ARGS_H_
