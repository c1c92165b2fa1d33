// FilterBank and FilterBankSquareRoot: the energy spectrum summed into triangular (mel)
// channels in 64 bits, and each channel's square root (TFLM's FilterbankAccumulateChannels
// and FilterbankSqrt).
//
// signal_filter_bank takes:
//   0 in X (uint32 words, stored as int32) [n], 1 in weights int16 [w], 2 in unweights int16 [w],
//   3 in channel_frequency_starts int16 [C+1], 4 in channel_weight_starts int16 [C+1],
//   5 in channel_widths int16 [C+1], 6 out Y (uint64 words, stored as int64) [C]
// Bin j of band i adds X * weight to channel i-1 and X * unweight to channel i; band 0 only
// feeds the discarded channel -1.
//
// signal_filter_bank_square_root takes:
//   0 in X (uint64 words, stored as int64) [C], 1 in scale_bits int32 (one element),
//   2 out Y (uint32 words, stored as int32) [C]
// Y = sqrt64(X) >> scale_bits.
#include "../kernel_args.h"
#include "signal_math.h"

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(signal_filter_bank) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* weight_tensor = tensor_at(args, 1);
  const uint32_t* x = data_of<const uint32_t>(in);
  const int16_t* weights = data_of<const int16_t>(weight_tensor);
  const int16_t* unweights = data_of<const int16_t>(tensor_at(args, 2));
  const int16_t* frequency_starts = data_of<const int16_t>(tensor_at(args, 3));
  const int16_t* weight_starts = data_of<const int16_t>(tensor_at(args, 4));
  const int16_t* widths = data_of<const int16_t>(tensor_at(args, 5));
  const DLTensor* out = tensor_at(args, 6);
  uint64_t* y = data_of<uint64_t>(out);
  const int64_t bins = element_count(in);
  const int64_t weight_count = element_count(weight_tensor);
  const int64_t channels = element_count(out);
  uint64_t weighted = 0;
  uint64_t unweighted = 0;
  for (int64_t band = 0; band <= channels; ++band) {
    const int64_t bin0 = frequency_starts[band];
    const int64_t weight0 = weight_starts[band];
    const int64_t width = widths[band];
    // The tables are data: a band past the spectrum or the weights is refused, not read.
    if (bin0 < 0 || weight0 < 0 || width < 0 || bin0 + width > bins || weight0 + width > weight_count) {
      TVMAPISetLastError("a filter bank band reaches past the spectrum or the weights");
      return -1;
    }
    for (int64_t j = 0; j < width; ++j) {
      weighted += static_cast<uint64_t>(static_cast<int64_t>(weights[weight0 + j])) * x[bin0 + j];
      unweighted += static_cast<uint64_t>(static_cast<int64_t>(unweights[weight0 + j])) * x[bin0 + j];
    }
    if (band > 0) y[band - 1] = weighted;
    weighted = unweighted;
    unweighted = 0;
  }
  return 0;
}

GRT_CHECK_FUNCTION(signal_filter_bank) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_filter_bank", args, type_codes, num_args);
  check.count(7).tensor(0, ElementType::kInt32, 1);
  for (int i = 1; i <= 5; ++i) check.tensor(i, ElementType::kInt16, 1);
  check.tensor(6, ElementType::kInt64, 1);
  if (!check.ok()) return check.result();
  const int64_t bands = element_count(tensor_at(args, 6)) + 1;
  check.expect(element_count(tensor_at(args, 1)) == element_count(tensor_at(args, 2)), "weights and unweights sizes differ")
      .expect(element_count(tensor_at(args, 3)) == bands && element_count(tensor_at(args, 4)) == bands &&
                  element_count(tensor_at(args, 5)) == bands,
              "band tables do not have one entry more than the output channels");
  return check.result();
}

GRT_KERNEL_FUNCTION(signal_filter_bank_square_root) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* in = tensor_at(args, 0);
  const uint64_t* x = data_of<const uint64_t>(in);
  const int32_t scale_bits = *data_of<const int32_t>(tensor_at(args, 1));
  uint32_t* y = data_of<uint32_t>(tensor_at(args, 2));
  const int64_t channels = element_count(in);
  for (int64_t i = 0; i < channels; ++i) {
    const uint32_t root = grt::kernels::signal::sqrt64(x[i]);
    // scale_bits comes from FftAutoScale (0..15); a shift past the word gives 0, not UB.
    y[i] = scale_bits >= 0 && scale_bits < 32 ? root >> scale_bits : 0u;
  }
  return 0;
}

GRT_CHECK_FUNCTION(signal_filter_bank_square_root) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_filter_bank_square_root", args, type_codes, num_args);
  check.count(3).tensor(0, ElementType::kInt64, 1).tensor(1, ElementType::kInt32).tensor(2, ElementType::kInt32, 1);
  if (!check.ok()) return check.result();
  check.expect(element_count(tensor_at(args, 1)) == 1, "scale_bits is not one element")
      .expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 2)), "input and output sizes differ");
  return check.result();
}
