// CONV_2D, bit-exact with TFLM's reference kernels (ConvPerChannel, Conv), NHWC, with
// grouped filters (filter depth divides input depth).
//
// Arguments (the importer precomputes everything; kernels do no float math on scales):
//   conv2d_s8  (16): 0 in X int8 [N,H,W,Cin]   1 in filter int8 [Cout,KH,KW,Cin/groups]
//                    2 in bias int32 [Cout] | None   3 out Y int8 [N,OH,OW,Cout]
//                    4 multipliers int32 [Cout]   5 shifts int32 [Cout] (IntArray, Q31 / 2^shift)
//                    6 stride_h  7 stride_w  8 dilation_h  9 dilation_w  10 pad_top  11 pad_left
//                    12 input_offset (-input zero point)  13 output_offset (output zero point)
//                    14 activation_min  15 activation_max
//                    16 (optional, from the importer) folded bias int32 [Cout] (IntArray):
//                       bias + input_offset * sum of the filter's weights, wrapped to int32;
//                       the DSP path sums raw products with it, the portable one ignores it
//   conv2d_s16 (14): 0 in X int16  1 in filter int8  2 in bias int64 | None  3 out Y int16
//                    4 multipliers  5 shifts  6..11 window as above
//                    12 activation_min  13 activation_max        (zero points are 0)
//   conv2d_f32 (12): 0 in X f32  1 in filter f32  2 in bias f32 | None  3 out Y f32
//                    4..9 window as above  10 activation_min (Float)  11 activation_max (Float)
//
// Speed: with one group (every real model), taps inside the image are summed run by run
// (a filter row, or one tap's channels; a whole 1x1 filter), four output channels sharing
// each activation load, in vectorizable dot products (conv2d_dot.h). Integer results stay
// bit-exact; float sums use per-lane partial sums, so they match TFLM to rounding only.
// Grouped filters keep the plain TFLM-order loops below. On cores with the DSP extension
// conv2d_s8 takes conv2d_dsp.h's matrix product first.
#include <stddef.h>
#include <stdint.h>

#include "../kernel_args.h"
#include "conv_arithmetic.h"
#include "conv2d_dot.h"
#include "conv2d_dsp.h"
#include "conv_checks.h"
#include "conv_geometry.h"

namespace grt::kernels::conv {
namespace {

// Output pixel by output pixel; per output channel, the taps inside the image row by row
// with input channels innermost (TFLM's order, which float results depend on).
template <class Arithmetic>
void conv2d_nhwc(const ConvGeometry& g, const typename Arithmetic::Input* input, const typename Arithmetic::Filter* filter,
                 typename Arithmetic::Output* output, const Arithmetic& arithmetic) {
  using Accumulator = typename Arithmetic::Accumulator;
  const int32_t group_depth = g.filter_c;  // input channels each filter sees
  const int32_t groups = g.input_c / group_depth;
  const int32_t filters_per_group = g.output_c / groups;
  const size_t filter_size = static_cast<size_t>(g.filter_h) * g.filter_w * group_depth;
  const size_t image_size = static_cast<size_t>(g.input_h) * g.input_w * g.input_c;
  for (int32_t b = 0; b < g.batches; ++b) {
    const typename Arithmetic::Input* image = input + b * image_size;
    for (int32_t oy = 0; oy < g.output_h; ++oy) {
      const int64_t origin_y = static_cast<int64_t>(oy) * g.stride_h - g.pad_top;
      const TapRange rows = taps_inside(origin_y, g.dilation_h, g.filter_h, g.input_h);
      for (int32_t ox = 0; ox < g.output_w; ++ox) {
        const int64_t origin_x = static_cast<int64_t>(ox) * g.stride_w - g.pad_left;
        const TapRange cols = taps_inside(origin_x, g.dilation_w, g.filter_w, g.input_w);
        typename Arithmetic::Output* out =
            output + ((static_cast<size_t>(b) * g.output_h + oy) * g.output_w + ox) * g.output_c;
        for (int32_t oc = 0; oc < g.output_c; ++oc) {
          const typename Arithmetic::Input* group_input = image + static_cast<size_t>(oc / filters_per_group) * group_depth;
          const typename Arithmetic::Filter* weights = filter + oc * filter_size;
          Accumulator sum = 0;
          for (int32_t fy = rows.begin; fy < rows.end; ++fy) {
            const int32_t in_y = static_cast<int32_t>(origin_y + static_cast<int64_t>(fy) * g.dilation_h);
            for (int32_t fx = cols.begin; fx < cols.end; ++fx) {
              const int32_t in_x = static_cast<int32_t>(origin_x + static_cast<int64_t>(fx) * g.dilation_w);
              const typename Arithmetic::Input* x = group_input + (static_cast<size_t>(in_y) * g.input_w + in_x) * g.input_c;
              const typename Arithmetic::Filter* w = weights + (static_cast<size_t>(fy) * g.filter_w + fx) * group_depth;
              for (int32_t ic = 0; ic < group_depth; ++ic) sum += arithmetic.multiply(x[ic], w[ic]);
            }
          }
          out[oc] = arithmetic.finish(sum, oc);
        }
      }
    }
  }
}

// Int8Arithmetic with a shorter, equal form of TFLM's requantization, valid because the
// check proves every multiplier >= 0 (so saturating_rounding_doubling_high_mul never
// saturates). With p = (x << left) * multiplier: (p + nudge) / 2^31 truncated toward zero
// is (p + 2^30) >> 31 for either sign of p (for p < 0, truncating q = p + 1 - 2^30 up is
// flooring q + 2^31 - 1); and rounding h / 2^e to nearest, ties away from zero, is
// (h + 2^(e-1) - (h < 0)) >> e for e >= 1. Both in int64, where nothing overflows.
struct Int8ConvArithmetic : Int8Arithmetic {
  Output finish(Accumulator sum, int32_t channel) const {
    if (bias != nullptr) sum += static_cast<Accumulator>(bias[channel]);
    const int32_t shift = shifts[channel];
    const int left = shift > 0 ? shift : 0;
    const int right = shift > 0 ? 0 : -shift;
    const int32_t shifted = static_cast<int32_t>(sum << left);
    const int64_t high = (static_cast<int64_t>(shifted) * multipliers[channel] + (int64_t{1} << 30)) >> 31;
    const int64_t round = right > 0 ? (int64_t{1} << (right - 1)) - (high < 0 ? 1 : 0) : 0;
    int32_t value = static_cast<int32_t>((high + round) >> right);
    value = wrapping_add(value, output_offset);
    if (value < activation_min) value = activation_min;
    if (value > activation_max) value = activation_max;
    return static_cast<Output>(value);
  }
};

// The dot products of conv2d_dot.h per data type, with the type's accumulator.
struct Int8Dots {
  using Accumulator = uint32_t;
  int16_t input_offset;
  void block(const int8_t* x, const int8_t* w, size_t filter_stride, size_t n, Accumulator* acc) const {
    conv2d_dot4_s8(x, w, filter_stride, input_offset, n, acc);
  }
  void single(const int8_t* x, const int8_t* w, size_t n, Accumulator* acc) const { conv2d_dot1_s8(x, w, input_offset, n, acc); }
};

struct Int16Dots {
  using Accumulator = int64_t;
  static void block(const int16_t* x, const int8_t* w, size_t filter_stride, size_t n, Accumulator* acc) {
    conv2d_dot4_s16(x, w, filter_stride, n, acc);
  }
  static void single(const int16_t* x, const int8_t* w, size_t n, Accumulator* acc) { conv2d_dot1_s16(x, w, n, acc); }
};

struct FloatDots {
  using Accumulator = float;
  static void block(const float* x, const float* w, size_t filter_stride, size_t n, Accumulator* acc) {
    conv2d_dot4_f32(x, w, filter_stride, n, acc);
  }
  static void single(const float* x, const float* w, size_t n, Accumulator* acc) { conv2d_dot1_f32(x, w, n, acc); }
};

// 1x1 filters (groups == 1): a matrix product of pixels x Cin by Cin x Cout, each output
// one run of Cin taps.
template <class Arithmetic, class Dots>
void conv2d_pointwise(const ConvGeometry& g, const typename Arithmetic::Input* input, const typename Arithmetic::Filter* filter,
                      typename Arithmetic::Output* output, const Arithmetic& arithmetic, const Dots& dots) {
  using Accumulator = typename Dots::Accumulator;
  const size_t channels = static_cast<size_t>(g.input_c);
  const int32_t output_c = g.output_c;
  typename Arithmetic::Output* out = output;
  for (int32_t b = 0; b < g.batches; ++b) {
    const typename Arithmetic::Input* image = input + static_cast<size_t>(b) * g.input_h * g.input_w * channels;
    for (int32_t oy = 0; oy < g.output_h; ++oy) {
      const typename Arithmetic::Input* row = image + static_cast<size_t>(oy) * g.stride_h * g.input_w * channels;
      for (int32_t ox = 0; ox < g.output_w; ++ox, out += output_c) {
        const typename Arithmetic::Input* x = row + static_cast<size_t>(ox) * g.stride_w * channels;
        const typename Arithmetic::Filter* w = filter;
        int32_t oc = 0;
        for (; oc + 4 <= output_c; oc += 4, w += 4 * channels) {
          Accumulator acc[4] = {0, 0, 0, 0};
          dots.block(x, w, channels, channels, acc);
          out[oc] = arithmetic.finish(acc[0], oc);
          out[oc + 1] = arithmetic.finish(acc[1], oc + 1);
          out[oc + 2] = arithmetic.finish(acc[2], oc + 2);
          out[oc + 3] = arithmetic.finish(acc[3], oc + 3);
        }
        for (; oc < output_c; ++oc, w += channels) {
          Accumulator acc = 0;
          dots.single(x, w, channels, &acc);
          out[oc] = arithmetic.finish(acc, oc);
        }
      }
    }
  }
}

// One group (groups == 1): per output pixel, the taps inside the image form runs whose
// activations and weights are both contiguous: a whole filter row (KW' * Cin values) when
// dilation_w is 1, else one tap's Cin values. Four output channels at a time share every
// activation load (conv2d_dot.h); leftover channels go one by one. Integer sums are exact
// (wrapping) so the order does not matter; float sums differ from TFLM's order by rounding.
template <class Arithmetic, class Dots>
void conv2d_runs(const ConvGeometry& g, const typename Arithmetic::Input* input, const typename Arithmetic::Filter* filter,
                 typename Arithmetic::Output* output, const Arithmetic& arithmetic, const Dots& dots) {
  using Accumulator = typename Dots::Accumulator;
  using Input = typename Arithmetic::Input;
  using Filter = typename Arithmetic::Filter;
  const size_t channels = static_cast<size_t>(g.input_c);
  const size_t filter_size = static_cast<size_t>(g.filter_h) * g.filter_w * channels;
  const size_t image_size = static_cast<size_t>(g.input_h) * g.input_w * channels;
  const size_t row_pitch = static_cast<size_t>(g.input_w) * channels;
  const bool whole_rows = g.dilation_w == 1;
  const int32_t output_c = g.output_c;
  if (is_pointwise(g)) {
    conv2d_pointwise(g, input, filter, output, arithmetic, dots);
    return;
  }
  for (int32_t b = 0; b < g.batches; ++b) {
    const Input* image = input + b * image_size;
    for (int32_t oy = 0; oy < g.output_h; ++oy) {
      const int64_t origin_y = static_cast<int64_t>(oy) * g.stride_h - g.pad_top;
      const TapRange rows = taps_inside(origin_y, g.dilation_h, g.filter_h, g.input_h);
      for (int32_t ox = 0; ox < g.output_w; ++ox) {
        const int64_t origin_x = static_cast<int64_t>(ox) * g.stride_w - g.pad_left;
        const TapRange cols = taps_inside(origin_x, g.dilation_w, g.filter_w, g.input_w);
        typename Arithmetic::Output* out =
            output + ((static_cast<size_t>(b) * g.output_h + oy) * g.output_w + ox) * static_cast<size_t>(output_c);
        const int32_t tap_cols = cols.end - cols.begin;
        const int32_t runs = whole_rows ? (tap_cols > 0 ? 1 : 0) : tap_cols;
        const size_t run_length = whole_rows ? static_cast<size_t>(tap_cols) * channels : channels;
        const int32_t first_x = static_cast<int32_t>(origin_x + static_cast<int64_t>(cols.begin) * g.dilation_w);
        const size_t x_step = static_cast<size_t>(g.dilation_w) * channels;  // between runs of one row
        // No column inside: no taps at all (and first_x may lie outside the image).
        const TapRange used_rows = runs > 0 ? rows : TapRange{};
        int32_t oc = 0;
        for (; oc + 4 <= output_c; oc += 4) {
          const Filter* weights = filter + static_cast<size_t>(oc) * filter_size;
          Accumulator acc[4] = {0, 0, 0, 0};
          for (int32_t fy = used_rows.begin; fy < used_rows.end; ++fy) {
            const int32_t in_y = static_cast<int32_t>(origin_y + static_cast<int64_t>(fy) * g.dilation_h);
            const Input* x = image + static_cast<size_t>(in_y) * row_pitch + static_cast<size_t>(first_x) * channels;
            const Filter* w = weights + (static_cast<size_t>(fy) * g.filter_w + cols.begin) * channels;
            for (int32_t r = 0; r < runs; ++r, x += x_step, w += channels) dots.block(x, w, filter_size, run_length, acc);
          }
          for (int32_t j = 0; j < 4; ++j) out[oc + j] = arithmetic.finish(acc[j], oc + j);
        }
        for (; oc < output_c; ++oc) {
          const Filter* weights = filter + static_cast<size_t>(oc) * filter_size;
          Accumulator acc = 0;
          for (int32_t fy = used_rows.begin; fy < used_rows.end; ++fy) {
            const int32_t in_y = static_cast<int32_t>(origin_y + static_cast<int64_t>(fy) * g.dilation_h);
            const Input* x = image + static_cast<size_t>(in_y) * row_pitch + static_cast<size_t>(first_x) * channels;
            const Filter* w = weights + (static_cast<size_t>(fy) * g.filter_w + cols.begin) * channels;
            for (int32_t r = 0; r < runs; ++r, x += x_step, w += channels) dots.single(x, w, run_length, &acc);
          }
          out[oc] = arithmetic.finish(acc, oc);
        }
      }
    }
  }
}

// Grouped filters take the plain loops; one group takes the runs.
template <class Arithmetic, class Dots>
void conv2d_dispatch(const ConvGeometry& g, const typename Arithmetic::Input* input, const typename Arithmetic::Filter* filter,
                     typename Arithmetic::Output* output, const Arithmetic& arithmetic, const Dots& dots) {
  if (g.filter_c == g.input_c) {
    conv2d_runs(g, input, filter, output, arithmetic, dots);
  } else {
    conv2d_nhwc(g, input, filter, output, arithmetic);
  }
}

ConvGeometry geometry_at(TVMValue* args, int window_first) {
  ConvGeometry g = geometry_of(tensor_at(args, kInput), tensor_at(args, kFilter), tensor_at(args, kOutput));
  read_window(args, window_first, &g);
  return g;
}

// Shapes: batches agree, filter depth divides input depth, groups divide output channels,
// filter count = output channels; then bias, window.
void check_shapes(ArgCheck& check, TVMValue* args, ElementType activation, ElementType weight, ElementType bias) {
  check_nhwc(check, args, kInput, activation);
  check_nhwc(check, args, kFilter, weight);
  check_nhwc(check, args, kOutput, activation);
  if (!check.ok()) return;
  const DLTensor* x = tensor_at(args, kInput);
  const DLTensor* f = tensor_at(args, kFilter);
  const DLTensor* y = tensor_at(args, kOutput);
  check.expect(x->shape[0] == y->shape[0], "input and output batches differ");
  check.expect(f->shape[0] == y->shape[3], "filter count differs from the output channels");
  check.expect(f->shape[3] >= 1 && x->shape[3] % f->shape[3] == 0, "filter depth does not divide the input depth");
  if (!check.ok()) return;
  const int64_t groups = x->shape[3] / f->shape[3];
  check.expect(groups >= 1 && y->shape[3] % groups == 0, "groups do not divide the output channels");
  check_bias(check, args, kBias, bias, y->shape[3]);
}

}  // namespace
}  // namespace grt::kernels::conv

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
using grt::kernels::data_of;
using grt::kernels::int_at;
using grt::kernels::optional_tensor_at;
using grt::kernels::real_at;
using grt::kernels::tensor_at;
namespace conv = grt::kernels::conv;

GRT_KERNEL_FUNCTION(conv2d_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const conv::ConvGeometry g = conv::geometry_at(args, 6);
  const auto arithmetic = conv::int8_arithmetic_at<conv::Int8ConvArithmetic>(args);
  const int8_t* input = data_of<int8_t>(tensor_at(args, conv::kInput));
  const int8_t* filter = data_of<int8_t>(tensor_at(args, conv::kFilter));
  int8_t* output = data_of<int8_t>(tensor_at(args, conv::kOutput));
#if GRT_KERNELS_DSP
  const int32_t* folded_bias = num_args > 16 ? data_of<int32_t>(tensor_at(args, 16)) : nullptr;
  if (grt::kernels::dsp::conv2d_s8(g, input, filter, output, arithmetic, folded_bias)) return 0;
#endif
  const conv::Int8Dots dots{static_cast<int16_t>(arithmetic.input_offset)};
  conv::conv2d_dispatch(g, input, filter, output, arithmetic, dots);
  return 0;
}

GRT_CHECK_FUNCTION(conv2d_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("conv2d_s8", args, type_codes, num_args);
  check.count_between(16, 17);
  conv::check_shapes(check, args, ElementType::kInt8, ElementType::kInt8, ElementType::kInt32);
  conv::check_int8_parameters(check, args);
  if (check.ok() && num_args == 17) {
    check.tensor(16, ElementType::kInt32, 1);
    if (check.ok()) {
      const DLTensor* folded = tensor_at(args, 16);
      check.expect(folded->shape[0] == conv::output_channels(args) && folded->data != nullptr,
                   "the folded bias needs one constant per output channel");
    }
  }
  return check.result();
}

GRT_KERNEL_FUNCTION(conv2d_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const conv::ConvGeometry g = conv::geometry_at(args, 6);
  const DLTensor* bias = optional_tensor_at(args, conv::kBias);
  conv::Int16Arithmetic arithmetic{};
  arithmetic.activation_min = static_cast<int32_t>(int_at(args, 12));
  arithmetic.activation_max = static_cast<int32_t>(int_at(args, 13));
  arithmetic.bias = bias != nullptr ? data_of<int64_t>(bias) : nullptr;
  arithmetic.multipliers = data_of<int32_t>(tensor_at(args, 4));
  arithmetic.shifts = data_of<int32_t>(tensor_at(args, 5));
  conv::conv2d_dispatch(g, data_of<int16_t>(tensor_at(args, conv::kInput)), data_of<int8_t>(tensor_at(args, conv::kFilter)),
                        data_of<int16_t>(tensor_at(args, conv::kOutput)), arithmetic, conv::Int16Dots{});
  return 0;
}

GRT_CHECK_FUNCTION(conv2d_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("conv2d_s16", args, type_codes, num_args);
  check.count(14);
  conv::check_shapes(check, args, ElementType::kInt16, ElementType::kInt8, ElementType::kInt64);
  // The 64-bit requantization shifts right by 15 - shift, so shift must stay below 15;
  // TFLM allows up to 7.
  if (check.ok()) conv::check_requantization(check, args, 4, 5, conv::output_channels(args), -31, 7);
  conv::check_window(check, 6, true);
  conv::check_activation_range(check, args, 12, INT16_MIN, INT16_MAX);
  return check.result();
}

GRT_KERNEL_FUNCTION(conv2d_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const conv::ConvGeometry g = conv::geometry_at(args, 4);
  const DLTensor* bias = optional_tensor_at(args, conv::kBias);
  conv::FloatArithmetic arithmetic{};
  arithmetic.activation_min = static_cast<float>(real_at(args, 10));
  arithmetic.activation_max = static_cast<float>(real_at(args, 11));
  arithmetic.bias = bias != nullptr ? data_of<float>(bias) : nullptr;
  conv::conv2d_dispatch(g, data_of<float>(tensor_at(args, conv::kInput)), data_of<float>(tensor_at(args, conv::kFilter)),
                        data_of<float>(tensor_at(args, conv::kOutput)), arithmetic, conv::FloatDots{});
  return 0;
}

GRT_CHECK_FUNCTION(conv2d_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("conv2d_f32", args, type_codes, num_args);
  check.count(12);
  conv::check_shapes(check, args, ElementType::kFloat32, ElementType::kFloat32, ElementType::kFloat32);
  conv::check_window(check, 4, true);
  conv::check_float_activation_range(check, args, 10);
  return check.result();
}
