// TRANSPOSE_CONV, bit-exact with TFLM's reference TransposeConv for int16 activations and
// int8 weights (64-bit accumulation), NHWC. TFLM scatters every input pixel into an int64
// scratch copy of the output; this kernel gathers instead (each output pixel sums the input
// pixels and taps that reach it), which gives the same integer sums with no scratch memory.
//
// Arguments:
//   transpose_conv_s16 (12): 0 in X int16 [N,H,W,Cin]   1 in filter int8 [Cout,KH,KW,Cin]
//                            2 in bias int64 [Cout] | None   3 out Y int16 [N,OH,OW,Cout]
//                            4 multipliers int32 [Cout]   5 shifts int32 [Cout] (IntArray)
//                            6 stride_h  7 stride_w  8 pad_top  9 pad_left
//                            10 activation_min  11 activation_max        (zero points are 0)
// TFLite's output_shape input is not an argument: the output tensor's static shape rules.
#include <stddef.h>
#include <stdint.h>

#include "../kernel_args.h"
#include "conv_arithmetic.h"
#include "conv_checks.h"
#include "conv_geometry.h"

namespace grt::kernels::conv {
namespace {

// Output pixel (oy, ox) receives input pixel (iy, ix) through tap (fy, fx) when
// iy * stride_h + fy == oy + pad_top (and likewise for x).
template <class Arithmetic>
void transpose_conv_nhwc(const ConvGeometry& g, const typename Arithmetic::Input* input,
                         const typename Arithmetic::Filter* filter, typename Arithmetic::Output* output,
                         const Arithmetic& arithmetic) {
  using Accumulator = typename Arithmetic::Accumulator;
  const size_t filter_size = static_cast<size_t>(g.filter_h) * g.filter_w * g.input_c;
  const size_t image_size = static_cast<size_t>(g.input_h) * g.input_w * g.input_c;
  for (int32_t b = 0; b < g.batches; ++b) {
    const typename Arithmetic::Input* image = input + b * image_size;
    for (int32_t oy = 0; oy < g.output_h; ++oy) {
      const int64_t shifted_y = static_cast<int64_t>(oy) + g.pad_top;
      const StridedTaps rows = transposed_taps(shifted_y, g.stride_h, g.filter_h, g.input_h);
      for (int32_t ox = 0; ox < g.output_w; ++ox) {
        const int64_t shifted_x = static_cast<int64_t>(ox) + g.pad_left;
        const StridedTaps cols = transposed_taps(shifted_x, g.stride_w, g.filter_w, g.input_w);
        typename Arithmetic::Output* out =
            output + ((static_cast<size_t>(b) * g.output_h + oy) * g.output_w + ox) * g.output_c;
        for (int32_t oc = 0; oc < g.output_c; ++oc) {
          const typename Arithmetic::Filter* weights = filter + oc * filter_size;
          Accumulator sum = 0;
          for (int32_t fy = rows.first; fy <= rows.last; fy += g.stride_h) {
            const int32_t in_y = static_cast<int32_t>((shifted_y - fy) / g.stride_h);
            for (int32_t fx = cols.first; fx <= cols.last; fx += g.stride_w) {
              const int32_t in_x = static_cast<int32_t>((shifted_x - fx) / g.stride_w);
              const typename Arithmetic::Input* x = image + (static_cast<size_t>(in_y) * g.input_w + in_x) * g.input_c;
              const typename Arithmetic::Filter* w = weights + (static_cast<size_t>(fy) * g.filter_w + fx) * g.input_c;
              for (int32_t ic = 0; ic < g.input_c; ++ic) sum += arithmetic.multiply(x[ic], w[ic]);
            }
          }
          out[oc] = arithmetic.finish(sum, oc);
        }
      }
    }
  }
}

}  // namespace
}  // namespace grt::kernels::conv

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
using grt::kernels::data_of;
using grt::kernels::int_at;
using grt::kernels::optional_tensor_at;
using grt::kernels::tensor_at;
namespace conv = grt::kernels::conv;

GRT_KERNEL_FUNCTION(transpose_conv_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  conv::ConvGeometry g = conv::geometry_of(tensor_at(args, conv::kInput), tensor_at(args, conv::kFilter),
                                           tensor_at(args, conv::kOutput));
  g.stride_h = static_cast<int32_t>(int_at(args, 6));
  g.stride_w = static_cast<int32_t>(int_at(args, 7));
  g.pad_top = static_cast<int32_t>(int_at(args, 8));
  g.pad_left = static_cast<int32_t>(int_at(args, 9));
  const DLTensor* bias = optional_tensor_at(args, conv::kBias);
  conv::Int16Arithmetic arithmetic{};
  arithmetic.activation_min = static_cast<int32_t>(int_at(args, 10));
  arithmetic.activation_max = static_cast<int32_t>(int_at(args, 11));
  arithmetic.bias = bias != nullptr ? data_of<int64_t>(bias) : nullptr;
  arithmetic.multipliers = data_of<int32_t>(tensor_at(args, 4));
  arithmetic.shifts = data_of<int32_t>(tensor_at(args, 5));
  conv::transpose_conv_nhwc(g, data_of<int16_t>(tensor_at(args, conv::kInput)),
                            data_of<int8_t>(tensor_at(args, conv::kFilter)),
                            data_of<int16_t>(tensor_at(args, conv::kOutput)), arithmetic);
  return 0;
}

GRT_CHECK_FUNCTION(transpose_conv_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("transpose_conv_s16", args, type_codes, num_args);
  check.count(12);
  conv::check_nhwc(check, args, conv::kInput, ElementType::kInt16);
  conv::check_nhwc(check, args, conv::kFilter, ElementType::kInt8);
  conv::check_nhwc(check, args, conv::kOutput, ElementType::kInt16);
  if (check.ok()) {
    const DLTensor* x = tensor_at(args, conv::kInput);
    const DLTensor* f = tensor_at(args, conv::kFilter);
    const DLTensor* y = tensor_at(args, conv::kOutput);
    check.expect(x->shape[0] == y->shape[0], "input and output batches differ");
    check.expect(f->shape[0] == y->shape[3], "filter count differs from the output channels");
    check.expect(f->shape[3] == x->shape[3], "filter depth differs from the input channels");
    conv::check_bias(check, args, conv::kBias, ElementType::kInt64, y->shape[3]);
    if (check.ok()) conv::check_requantization(check, args, 4, 5, y->shape[3], -31, 7);
  }
  conv::check_window(check, 6, false);
  conv::check_activation_range(check, args, 10, INT16_MIN, INT16_MAX);
  return check.result();
}
