// add_s8 on the DSP extension (../conv/dsp_intrinsics.h): four int8 of each input per
// load, the offsets added in 16-bit lanes by SXTAB16, each of TFLM's three
// multiply_by_quantized_multiplier steps in at most four instructions (SMMLAR, an add of the
// sign, a shift; the output's also adds its offset), four outputs saturated, packed, clamped
// by SSUB8/SEL and stored as one word: the same integers as the portable kernel.
//
// With p = x * m (m >= 0) and h = (p + 2^30) >> 31, SMMLAR(2x, m, k) is h + k when 2x fits
// int32, and rounding_divide_by_pot(h, e) for e >= 1 is (h + 2^(e-1) - [x < 0]) >> e
// (dsp_requantize.h derives it); for e = 0 it is h. Exact, and declined to the portable
// kernel otherwise, when:
//  * left_shift is in [15, 21]: |x + offset| <= 255, so 2 * ((x + offset) << left_shift) fits
//    int32, each scaled input is below 2^29 in magnitude and twice their sum fits int32;
//    from 15 up, shifting a pair of lanes left by left_shift + 1 drops the high lane, so one
//    LSL extracts the low one;
//  * the output shift is <= -1 with 2^(e-1) + offset * 2^e inside +-2^30 (TFLM's is near
//    -left_shift), so its sum does not wrap; the input shifts may be 0 (TFLM's larger input
//    has multiplier 2^30 and shift 0) or negative, each loop compiled for which;
//  * both inputs have the output's shape, or one of them is a single element.
#ifndef GRAPHRT_KERNELS_ELEMENTWISE_ADD_DSP_H_
#define GRAPHRT_KERNELS_ELEMENTWISE_ADD_DSP_H_

#include <stddef.h>
#include <stdint.h>

#include "../conv/dsp_intrinsics.h"
#include "../two_input_rescaling.h"
#include "tensor_layout.h"

#if GRT_KERNELS_DSP
namespace grt::kernels::dsp {

// multiply_by_quantized_multiplier(x, multiplier, -shift) + offset, given 2x.
struct DoubledRescale {
  int32_t multiplier;
  int32_t constant;  // 2^(shift-1) + offset * 2^shift, for shift >= 1
  int32_t shift;

  template <bool kShifted>
  int32_t apply(int32_t doubled) const {
    if (!kShifted) return smmlar(doubled, multiplier, 0);
    return (smmlar(doubled, multiplier, constant) + (doubled >> 31)) >> shift;
  }
  int32_t apply_any(int32_t doubled) const { return shift > 0 ? apply<true>(doubled) : apply<false>(doubled); }
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
  uint32_t min_bytes, max_bytes;  // the clamp in four byte lanes

  // The scaled input of a lane whose low 16 bits hold x + offset (the rest is shifted out).
  template <bool kShifted>
  int32_t low_lane(const AddInput& in, uint32_t lanes) const {
    return in.rescale.apply<kShifted>(static_cast<int32_t>(lanes << doubling_shift));
  }
  template <bool kShifted>
  int32_t high_lane(const AddInput& in, uint32_t lanes) const {
    return low_lane<kShifted>(in, static_cast<uint32_t>(static_cast<int32_t>(lanes) >> 16));
  }
  int32_t scaled(const AddInput& in, int8_t x) const {
    return in.rescale.apply_any(static_cast<int32_t>(static_cast<uint32_t>(x + in.offset) << doubling_shift));
  }
  // The output before the clamp, inside int8 (SSAT).
  int32_t saturated(int32_t scaled_a, int32_t scaled_b) const {
    return ssat8(out.apply<true>(static_cast<int32_t>(static_cast<uint32_t>(scaled_a + scaled_b) << 1)));
  }
  int8_t finish(int32_t scaled_a, int32_t scaled_b) const {
    int32_t value = saturated(scaled_a, scaled_b);
    value = value < min ? min : value;
    value = value > max ? max : value;
    return static_cast<int8_t>(value);
  }
  void store(int8_t* out_bytes, int32_t v0, int32_t v1, int32_t v2, int32_t v3) const {
    store_word(out_bytes, min_s8x4(max_s8x4(bytes_of(v0, v1, v2, v3), min_bytes), max_bytes));
  }
};

// The stage for these parameters, or false where the fast steps would not be exact.
inline bool make_add_stage(const TwoInputRescaling& p, int32_t act_min, int32_t act_max, AddStage* stage) {
  if (p.left_shift < 15 || p.left_shift > 21 || p.a_shift > 0 || p.b_shift > 0 || p.out_shift > -1) return false;
  const int e = -p.out_shift;
  const int64_t out_constant = (int64_t{1} << (e - 1)) + static_cast<int64_t>(p.out_offset) * (int64_t{1} << e);
  if (out_constant <= -(int64_t{1} << 30) || out_constant >= (int64_t{1} << 30)) return false;
  const auto input = [](int32_t offset, int32_t multiplier, int shift) {
    const int32_t constant = shift < 0 ? static_cast<int32_t>(1u << (-shift - 1)) : 0;
    return AddInput{pair_of(offset), offset, {multiplier, constant, -shift}};
  };
  *stage = {input(p.a_offset, p.a_multiplier, p.a_shift),
            input(p.b_offset, p.b_multiplier, p.b_shift),
            p.left_shift + 1,
            {p.out_multiplier, static_cast<int32_t>(out_constant), e},
            act_min,
            act_max,
            bytes_of(act_min, act_min, act_min, act_min),
            bytes_of(act_max, act_max, act_max, act_max)};
  return true;
}

// Both inputs of `count` elements; kAShifted, kBShifted: their shifts are below 0.
template <bool kAShifted, bool kBShifted>
inline void add_elementwise(const AddStage& s, const int8_t* a, const int8_t* b, int8_t* out, size_t count) {
  for (const int8_t* const end = a + (count & ~size_t{3}); a != end; a += 4, b += 4, out += 4) {
    const uint32_t wa = load4(a), wb = load4(b);
    const uint32_t a02 = sxtab16(s.a.offset_pair, wa), a13 = sxtab16_ror8(s.a.offset_pair, wa);
    const uint32_t b02 = sxtab16(s.b.offset_pair, wb), b13 = sxtab16_ror8(s.b.offset_pair, wb);
    s.store(out, s.saturated(s.low_lane<kAShifted>(s.a, a02), s.low_lane<kBShifted>(s.b, b02)),
            s.saturated(s.low_lane<kAShifted>(s.a, a13), s.low_lane<kBShifted>(s.b, b13)),
            s.saturated(s.high_lane<kAShifted>(s.a, a02), s.high_lane<kBShifted>(s.b, b02)),
            s.saturated(s.high_lane<kAShifted>(s.a, a13), s.high_lane<kBShifted>(s.b, b13)));
  }
  for (size_t i = 0; i < (count & 3); ++i) out[i] = s.finish(s.scaled(s.a, a[i]), s.scaled(s.b, b[i]));
}

// `x` of `count` elements (input `in` of the stage) with the other input's one scaled
// value (the sum is symmetric).
template <bool kShifted>
inline void add_single(const AddStage& s, const AddInput& in, const int8_t* x, int32_t other, int8_t* out,
                       size_t count) {
  for (const int8_t* const end = x + (count & ~size_t{3}); x != end; x += 4, out += 4) {
    const uint32_t w = load4(x);
    const uint32_t x02 = sxtab16(in.offset_pair, w), x13 = sxtab16_ror8(in.offset_pair, w);
    s.store(out, s.saturated(s.low_lane<kShifted>(in, x02), other), s.saturated(s.low_lane<kShifted>(in, x13), other),
            s.saturated(s.high_lane<kShifted>(in, x02), other), s.saturated(s.high_lane<kShifted>(in, x13), other));
  }
  for (size_t i = 0; i < (count & 3); ++i) out[i] = s.finish(s.scaled(in, x[i]), other);
}

// add_s8 where the above holds; false (nothing written) otherwise.
inline bool add_s8(const DLTensor* a, const DLTensor* b, DLTensor* out, const TwoInputRescaling& p, int32_t act_min,
                   int32_t act_max) {
  AddStage s;
  if (!make_add_stage(p, act_min, act_max, &s)) return false;
  const int8_t* a_data = data_of<const int8_t>(a);
  const int8_t* b_data = data_of<const int8_t>(b);
  int8_t* out_data = data_of<int8_t>(out);
  const size_t count = static_cast<size_t>(element_count(out));  // the tensor is in memory
  const bool a_full = elementwise::same_shape(a, out), b_full = elementwise::same_shape(b, out);
  if (a_full && b_full) {
    // The sum is symmetric: an unshifted input goes first, so three loops cover every case.
    if (s.a.rescale.shift > 0 && s.b.rescale.shift == 0) {
      const AddInput first = s.b;
      s.b = s.a;
      s.a = first;
      const int8_t* first_data = b_data;
      b_data = a_data;
      a_data = first_data;
    }
    if (s.a.rescale.shift > 0) {
      add_elementwise<true, true>(s, a_data, b_data, out_data, count);
    } else if (s.b.rescale.shift > 0) {
      add_elementwise<false, true>(s, a_data, b_data, out_data, count);
    } else {
      add_elementwise<false, false>(s, a_data, b_data, out_data, count);
    }
  } else if ((a_full && element_count(b) == 1) || (b_full && element_count(a) == 1)) {
    const bool a_single = !a_full;
    const AddInput& in = a_single ? s.b : s.a;
    const int32_t other = a_single ? s.scaled(s.a, a_data[0]) : s.scaled(s.b, b_data[0]);
    const int8_t* x = a_single ? b_data : a_data;
    if (in.rescale.shift > 0) {
      add_single<true>(s, in, x, other, out_data, count);
    } else {
      add_single<false>(s, in, x, other, out_data, count);
    }
  } else {
    return false;
  }
  return true;
}

}  // namespace grt::kernels::dsp
#endif  // GRT_KERNELS_DSP

#endif  // GRAPHRT_KERNELS_ELEMENTWISE_ADD_DSP_H_
