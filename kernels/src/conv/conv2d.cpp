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
//   conv2d_s16 (14): 0 in X int16  1 in filter int8  2 in bias int64 | None  3 out Y int16
//                    4 multipliers  5 shifts  6..11 window as above
//                    12 activation_min  13 activation_max        (zero points are 0)
//   conv2d_f32 (12): 0 in X f32  1 in filter f32  2 in bias f32 | None  3 out Y f32
//                    4..9 window as above  10 activation_min (Float)  11 activation_max (Float)
#include <stddef.h>
#include <stdint.h>

#include "../kernel_args.h"
#include "conv_arithmetic.h"
#include "conv_checks.h"
#include "conv_geometry.h"

namespace grt::kernels::conv {
namespace {

constexpr int kInput = 0;
constexpr int kFilter = 1;
constexpr int kBias = 2;
constexpr int kOutput = 3;

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

int64_t output_channels(TVMValue* args) { return tensor_at(args, kOutput)->shape[3]; }

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
  const DLTensor* bias = optional_tensor_at(args, conv::kBias);
  conv::Int8Arithmetic arithmetic{};
  arithmetic.input_offset = static_cast<int32_t>(int_at(args, 12));
  arithmetic.output_offset = static_cast<int32_t>(int_at(args, 13));
  arithmetic.activation_min = static_cast<int32_t>(int_at(args, 14));
  arithmetic.activation_max = static_cast<int32_t>(int_at(args, 15));
  arithmetic.bias = bias != nullptr ? data_of<int32_t>(bias) : nullptr;
  arithmetic.multipliers = data_of<int32_t>(tensor_at(args, 4));
  arithmetic.shifts = data_of<int32_t>(tensor_at(args, 5));
  conv::conv2d_nhwc(g, data_of<int8_t>(tensor_at(args, conv::kInput)), data_of<int8_t>(tensor_at(args, conv::kFilter)),
                    data_of<int8_t>(tensor_at(args, conv::kOutput)), arithmetic);
  return 0;
}

GRT_CHECK_FUNCTION(conv2d_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("conv2d_s8", args, type_codes, num_args);
  check.count(16);
  conv::check_shapes(check, args, ElementType::kInt8, ElementType::kInt8, ElementType::kInt32);
  if (check.ok()) conv::check_requantization(check, args, 4, 5, conv::output_channels(args), -31, 31);
  conv::check_window(check, 6, true);
  check.integer(12, -127, 128).integer(13, INT8_MIN, INT8_MAX);
  conv::check_activation_range(check, args, 14, INT8_MIN, INT8_MAX);
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
  conv::conv2d_nhwc(g, data_of<int16_t>(tensor_at(args, conv::kInput)), data_of<int8_t>(tensor_at(args, conv::kFilter)),
                    data_of<int16_t>(tensor_at(args, conv::kOutput)), arithmetic);
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
  conv::conv2d_nhwc(g, data_of<float>(tensor_at(args, conv::kInput)), data_of<float>(tensor_at(args, conv::kFilter)),
                    data_of<float>(tensor_at(args, conv::kOutput)), arithmetic);
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
