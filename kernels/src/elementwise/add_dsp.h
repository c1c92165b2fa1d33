// add_s8 on the DSP extension (../conv/dsp_intrinsics.h): four int8 of each input per
// load, the offsets added in 16-bit lanes by SXTAB16, and each of TFLM's three
// multiply_by_quantized_multiplier steps in four instructions (SMMLAR, an add of the sign,
// a shift; the output's also folds in its offset), the same integers as the portable kernel.
//
// With p = x * m (m >= 0) and h = (p + 2^30) >> 31, rounding_divide_by_pot(h, e) for e >= 1
// is (h + 2^(e-1) - [x < 0]) >> e (dsp_requantize.h derives it), and SMMLAR(2x, m, k) is
// h + k when 2x fits int32. Where it is exact, and declined to the portable kernel otherwise:
//  * left_shift in [15, 21]: |x + offset| <= 255, so 2 * ((x + offset) << left_shift) < 2^30,
//    every scaled input has |s| <= 2^28 and twice their sum fits int32; from 15 up, the low
//    lane shifted left by left_shift + 1 loses the high lane's bits, so one LSL extracts it;
//  * every shift <= -1 (TFLM's add always has them: its multipliers are below 1/2) and the
//    output's 2^(e-1) + offset * 2^e inside +-2^30, so no step wraps;
//  * both inputs of the output's shape, or one of them a single element.
#ifndef GRAPHRT_KERNELS_ELEMENTWISE_ADD_DSP_H_
#define GRAPHRT_KERNELS_ELEMENTWISE_ADD_DSP_H_

#include <stdint.h>

#include "../conv/dsp_intrinsics.h"
#include "../two_input_rescaling.h"
#include "tensor_layout.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// multiply_by_quantized_multiplier(x, multiplier, -shift) + offset, given 2x.
struct DoubledRescale {
  int32_t multiplier;
  int32_t constant;  // 2^(shift-1) + offset * 2^shift
  int32_t shift;

  int32_t apply(int32_t doubled) const { return (smmlar(doubled, multiplier, constant) + (doubled >> 31)) >> shift; }
};

// One input: its offset in both 16-bit lanes and its rescaling.
struct AddInput {
  uint32_t offset_pair;
  int32_t offset;
  DoubledRescale rescale;
};

struct AddStage {
  AddInput a, b;
  int32_t doubling_shift;  // left_shift + 1
  DoubledRescale out;
  int32_t min, max;

  // The scaled input of a lane whose low 16 bits hold x + offset (the rest is shifted out).
  int32_t low_lane(const AddInput& in, uint32_t lanes) const {
    return in.rescale.apply(static_cast<int32_t>(lanes << doubling_shift));
  }
  int32_t high_lane(const AddInput& in, uint32_t lanes) const {
    return low_lane(in, static_cast<uint32_t>(static_cast<int32_t>(lanes) >> 16));
  }
  int32_t scaled(const AddInput& in, int8_t x) const { return low_lane(in, static_cast<uint32_t>(x + in.offset)); }
  int8_t finish(int32_t scaled_a, int32_t scaled_b) const {
    int32_t value = out.apply(static_cast<int32_t>(static_cast<uint32_t>(scaled_a + scaled_b) << 1));
    value = value < min ? min : value;
    value = value > max ? max : value;
    return static_cast<int8_t>(value);
  }
};

// The stage for these parameters, or false where the fast steps would not be exact.
inline bool make_add_stage(const TwoInputRescaling& p, int32_t act_min, int32_t act_max, AddStage* stage) {
  if (p.left_shift < 15 || p.left_shift > 21 || p.a_shift > -1 || p.b_shift > -1 || p.out_shift > -1) return false;
  const int e = -p.out_shift;
  const int64_t out_constant = (int64_t{1} << (e - 1)) + static_cast<int64_t>(p.out_offset) * (int64_t{1} << e);
  if (out_constant <= -(int64_t{1} << 30) || out_constant >= (int64_t{1} << 30)) return false;
  const auto input = [](int32_t offset, int32_t multiplier, int shift) {
    return AddInput{pair_of(offset), offset, {multiplier, static_cast<int32_t>(1u << (-shift - 1)), -shift}};
  };
  *stage = {input(p.a_offset, p.a_multiplier, p.a_shift), input(p.b_offset, p.b_multiplier, p.b_shift),
            p.left_shift + 1, {p.out_multiplier, static_cast<int32_t>(out_constant), e}, act_min, act_max};
  return true;
}

// Both inputs of `count` elements.
inline void add_elementwise(const AddStage& s, const int8_t* a, const int8_t* b, int8_t* out, int64_t count) {
  int64_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const uint32_t wa = load4(a + i), wb = load4(b + i);
    const uint32_t a02 = sxtab16(s.a.offset_pair, wa), a13 = sxtab16_ror8(s.a.offset_pair, wa);
    const uint32_t b02 = sxtab16(s.b.offset_pair, wb), b13 = sxtab16_ror8(s.b.offset_pair, wb);
    out[i] = s.finish(s.low_lane(s.a, a02), s.low_lane(s.b, b02));
    out[i + 1] = s.finish(s.low_lane(s.a, a13), s.low_lane(s.b, b13));
    out[i + 2] = s.finish(s.high_lane(s.a, a02), s.high_lane(s.b, b02));
    out[i + 3] = s.finish(s.high_lane(s.a, a13), s.high_lane(s.b, b13));
  }
  for (; i < count; ++i) out[i] = s.finish(s.scaled(s.a, a[i]), s.scaled(s.b, b[i]));
}

// `x` of `count` elements (input `in` of the stage) with the other input's one scaled
// value (the sum is symmetric).
inline void add_single(const AddStage& s, const AddInput& in, const int8_t* x, int32_t other, int8_t* out,
                       int64_t count) {
  int64_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const uint32_t w = load4(x + i);
    const uint32_t x02 = sxtab16(in.offset_pair, w), x13 = sxtab16_ror8(in.offset_pair, w);
    out[i] = s.finish(s.low_lane(in, x02), other);
    out[i + 1] = s.finish(s.low_lane(in, x13), other);
    out[i + 2] = s.finish(s.high_lane(in, x02), other);
    out[i + 3] = s.finish(s.high_lane(in, x13), other);
  }
  for (; i < count; ++i) out[i] = s.finish(s.scaled(in, x[i]), other);
}

// add_s8 where the above holds; false (nothing written) otherwise.
inline bool add_s8(const DLTensor* a, const DLTensor* b, DLTensor* out, const TwoInputRescaling& p, int32_t act_min,
                   int32_t act_max) {
  AddStage s;
  if (!make_add_stage(p, act_min, act_max, &s)) return false;
  const int8_t* a_data = data_of<const int8_t>(a);
  const int8_t* b_data = data_of<const int8_t>(b);
  int8_t* out_data = data_of<int8_t>(out);
  const int64_t count = element_count(out);
  const bool a_full = elementwise::same_shape(a, out), b_full = elementwise::same_shape(b, out);
  if (a_full && b_full) {
    add_elementwise(s, a_data, b_data, out_data, count);
  } else if (a_full && element_count(b) == 1) {
    add_single(s, s.a, a_data, s.scaled(s.b, b_data[0]), out_data, count);
  } else if (b_full && element_count(a) == 1) {
    add_single(s, s.b, b_data, s.scaled(s.a, a_data[0]), out_data, count);
  } else {
    return false;
  }
  return true;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_ELEMENTWISE_ADD_DSP_H_
