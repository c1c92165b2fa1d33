// FilterBankLog: each channel's ln, scaled and saturated to int16 (TFLM's FilterbankLog).
//
// signal_filter_bank_log takes:
//   0 in X (uint32 words, stored as int32) [C], 1 out Y int16 [C],
//   2 int input_correction_bits [0, 31], 3 int output_scale [0, 2^32)
// Y = min(log32(X << input_correction_bits, output_scale), 32767), or 0 where the shifted X <= 1.
#include "../kernel_args.h"
#include "signal_math.h"

namespace grt::kernels::signal {
namespace {

// The fraction of log2 over 128 segments, in 1/65536 (TFLM's kLogLut).
constexpr uint16_t kLogCorrection[130] = {
    0, 224, 442, 654, 861, 1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646, 2797,
    2944, 3087, 3224, 3358, 3487, 3611, 3732, 3848, 3960, 4068, 4172, 4272, 4368, 4460, 4549, 4633,
    4714, 4791, 4864, 4934, 5001, 5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477, 5507,
    5533, 5557, 5578, 5595, 5610, 5622, 5631, 5637, 5640, 5641, 5638, 5633, 5626, 5615, 5602, 5586,
    5568, 5547, 5524, 5498, 5470, 5439, 5406, 5370, 5332, 5291, 5249, 5203, 5156, 5106, 5054, 5000,
    4944, 4885, 4825, 4762, 4697, 4630, 4561, 4490, 4416, 4341, 4264, 4184, 4103, 4020, 3935, 3848,
    3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981, 2875, 2768, 2659, 2549, 2437, 2323, 2207,
    2090, 1971, 1851, 1729, 1605, 1480, 1353, 1224, 1094, 963, 830, 695, 559, 421, 282, 142,
    0, 0,
};

uint32_t log2_fraction(uint32_t x, uint32_t log2x) {
  int32_t frac = static_cast<int32_t>(x - (uint32_t{1} << log2x));
  if (log2x < 16) {
    frac = static_cast<int32_t>(static_cast<uint32_t>(frac) << (16 - log2x));
  } else {
    frac >>= log2x - 16;
  }
  const uint32_t segment = static_cast<uint32_t>(frac) >> 9;
  const int32_t c0 = kLogCorrection[segment];
  const int32_t c1 = kLogCorrection[segment + 1];
  const int32_t segment_base = static_cast<int32_t>(512 * segment);
  const int32_t between = ((c1 - c0) * (frac - segment_base)) >> 16;
  return static_cast<uint32_t>(frac + c0 + between);
}

}  // namespace

uint32_t log32(uint32_t x, uint32_t out_scale) {
  const uint32_t integer = most_significant_bit32(x) - 1;
  const uint32_t log2 = (integer << 16) + log2_fraction(x, integer);
  const uint32_t loge = static_cast<uint32_t>((uint64_t{45426} * log2 + 32768) >> 16);
  return (out_scale * loge + 32768) >> 16;  // 32-bit product, as TFLM's
}

}  // namespace grt::kernels::signal

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(signal_filter_bank_log) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* in = tensor_at(args, 0);
  const uint32_t* x = data_of<const uint32_t>(in);
  int16_t* y = data_of<int16_t>(tensor_at(args, 1));
  const uint32_t correction_bits = static_cast<uint32_t>(int_at(args, 2));
  const uint32_t output_scale = static_cast<uint32_t>(int_at(args, 3));
  const int64_t channels = element_count(in);
  for (int64_t i = 0; i < channels; ++i) {
    const uint32_t scaled = x[i] << correction_bits;
    if (scaled <= 1) {
      y[i] = 0;
      continue;
    }
    const uint32_t value = grt::kernels::signal::log32(scaled, output_scale);
    y[i] = static_cast<int16_t>(value < 32767u ? value : 32767u);
  }
  return 0;
}

GRT_CHECK_FUNCTION(signal_filter_bank_log) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_filter_bank_log", args, type_codes, num_args);
  check.count(4).tensor(0, ElementType::kInt32, 1).tensor(1, ElementType::kInt16, 1).integer(2, 0, 31).integer(3, 0, UINT32_MAX);
  if (!check.ok()) return check.result();
  check.expect(element_count(tensor_at(args, 0)) == element_count(tensor_at(args, 1)), "input and output sizes differ");
  return check.result();
}
