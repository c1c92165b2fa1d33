// DEPTHWISE_CONV_2D, bit-exact with TFLM's reference kernels (DepthwiseConvPerChannel,
// DepthwiseConv), NHWC. Output channel c * M + m filters input channel c, where the depth
// multiplier M = output channels / input channels.
//
// Arguments:
//   depthwise_conv2d_s8  (16): 0 in X int8 [N,H,W,C]   1 in filter int8 [1,KH,KW,C*M]
//                              2 in bias int32 [C*M] | None   3 out Y int8 [N,OH,OW,C*M]
//                              4 multipliers int32 [C*M]   5 shifts int32 [C*M] (IntArray)
//                              6 stride_h  7 stride_w  8 dilation_h  9 dilation_w
//                              10 pad_top  11 pad_left
//                              12 input_offset (-input zero point)  13 output_offset (output zero point)
//                              14 activation_min  15 activation_max
//   depthwise_conv2d_f32 (12): 0 in X f32  1 in filter f32  2 in bias f32 | None  3 out Y f32
//                              4..9 window as above  10 activation_min (Float)  11 activation_max (Float)
//
// On cores with the DSP extension depthwise_conv2d_s8 with multiplier 1 runs depthwise_dsp.h,
// with multiplier 2 or a multiple of 4 depthwise_multiplied_dsp.h.
#include <stddef.h>
#include <stdint.h>

#include "../kernel_args.h"
#include "conv_arithmetic.h"
#include "conv_checks.h"
#include "conv_geometry.h"
#include "depthwise_channels.h"
#include "depthwise_multiplied_dsp.h"

namespace grt::kernels::conv {
namespace {

// Per output pixel and output channel, the taps inside the image row by row (TFLM's order).
template <class Arithmetic>
void depthwise_conv2d_nhwc(const ConvGeometry& g, const typename Arithmetic::Input* input,
                           const typename Arithmetic::Filter* filter, typename Arithmetic::Output* output,
                           const Arithmetic& arithmetic) {
  using Accumulator = typename Arithmetic::Accumulator;
  const int32_t multiplier = g.output_c / g.input_c;
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
        for (int32_t ic = 0; ic < g.input_c; ++ic) {
          for (int32_t m = 0; m < multiplier; ++m) {
            const int32_t oc = ic * multiplier + m;
            Accumulator sum = 0;
            for (int32_t fy = rows.begin; fy < rows.end; ++fy) {
              const int32_t in_y = static_cast<int32_t>(origin_y + static_cast<int64_t>(fy) * g.dilation_h);
              const typename Arithmetic::Input* x_row = image + static_cast<size_t>(in_y) * g.input_w * g.input_c + ic;
              const typename Arithmetic::Filter* w_row = filter + static_cast<size_t>(fy) * g.filter_w * g.output_c + oc;
              for (int32_t fx = cols.begin; fx < cols.end; ++fx) {
                const int32_t in_x = static_cast<int32_t>(origin_x + static_cast<int64_t>(fx) * g.dilation_w);
                sum += arithmetic.multiply(x_row[static_cast<size_t>(in_x) * g.input_c],
                                           w_row[static_cast<size_t>(fx) * g.output_c]);
              }
            }
            out[oc] = arithmetic.finish(sum, oc);
          }
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

// Shapes: batches agree, the filter is [1,KH,KW,Cout], Cout is a multiple of the input
// channels (the depth multiplier); then bias.
void check_shapes(ArgCheck& check, TVMValue* args, ElementType type, ElementType bias) {
  check_nhwc(check, args, kInput, type);
  check_nhwc(check, args, kFilter, type);
  check_nhwc(check, args, kOutput, type);
  if (!check.ok()) return;
  const DLTensor* x = tensor_at(args, kInput);
  const DLTensor* f = tensor_at(args, kFilter);
  const DLTensor* y = tensor_at(args, kOutput);
  check.expect(x->shape[0] == y->shape[0], "input and output batches differ");
  check.expect(f->shape[0] == 1, "filter's first dimension is not 1");
  check.expect(f->shape[3] == y->shape[3], "filter channels differ from the output channels");
  check.expect(x->shape[3] >= 1 && y->shape[3] % x->shape[3] == 0,
               "output channels are not a multiple of the input channels");
  if (check.ok()) check_bias(check, args, kBias, bias, y->shape[3]);
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

GRT_KERNEL_FUNCTION(depthwise_conv2d_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const conv::ConvGeometry g = conv::geometry_at(args, 6);
  const auto arithmetic = conv::int8_arithmetic_at<conv::Int8Arithmetic>(args);
  const int8_t* input = data_of<int8_t>(tensor_at(args, conv::kInput));
  const int8_t* filter = data_of<int8_t>(tensor_at(args, conv::kFilter));
  int8_t* output = data_of<int8_t>(tensor_at(args, conv::kOutput));
#if GRT_KERNELS_DSP
  if (grt::kernels::dsp::depthwise_conv2d_s8(g, input, filter, output, arithmetic)) return 0;
  if (grt::kernels::dsp::depthwise_multiplied_s8(g, input, filter, output, arithmetic)) return 0;
#endif
  if (g.output_c == g.input_c) {
    const conv::Int8DepthwiseProduct product{static_cast<int16_t>(arithmetic.input_offset)};
    conv::depthwise_multiplier1(g, input, filter, output, arithmetic, product);
  } else {
    conv::depthwise_conv2d_nhwc(g, input, filter, output, arithmetic);
  }
  return 0;
}

GRT_CHECK_FUNCTION(depthwise_conv2d_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("depthwise_conv2d_s8", args, type_codes, num_args);
  check.count(16);
  conv::check_shapes(check, args, ElementType::kInt8, ElementType::kInt32);
  conv::check_int8_parameters(check, args);
  return check.result();
}

GRT_KERNEL_FUNCTION(depthwise_conv2d_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const conv::ConvGeometry g = conv::geometry_at(args, 4);
  const DLTensor* bias = optional_tensor_at(args, conv::kBias);
  conv::FloatArithmetic arithmetic{};
  arithmetic.activation_min = static_cast<float>(real_at(args, 10));
  arithmetic.activation_max = static_cast<float>(real_at(args, 11));
  arithmetic.bias = bias != nullptr ? data_of<float>(bias) : nullptr;
  const float* input = data_of<float>(tensor_at(args, conv::kInput));
  const float* filter = data_of<float>(tensor_at(args, conv::kFilter));
  float* output = data_of<float>(tensor_at(args, conv::kOutput));
  if (g.output_c == g.input_c) {
    conv::depthwise_multiplier1(g, input, filter, output, arithmetic, conv::FloatDepthwiseProduct{});
  } else {
    conv::depthwise_conv2d_nhwc(g, input, filter, output, arithmetic);
  }
  return 0;
}

GRT_CHECK_FUNCTION(depthwise_conv2d_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("depthwise_conv2d_f32", args, type_codes, num_args);
  check.count(12);
  conv::check_shapes(check, args, ElementType::kFloat32, ElementType::kFloat32);
  conv::check_window(check, 4, true);
  conv::check_float_activation_range(check, args, 10);
  return check.result();
}
