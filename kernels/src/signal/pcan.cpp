// PCAN: per-channel automatic gain control against the noise estimate, then a soft
// "shrink" (TFLM's ApplyPcanAutoGainControlFixed).
//
// signal_pcan takes:
//   0 in X (uint32 words, stored as int32) [C], 1 in noise_estimate (same) [C],
//   2 in gain_lut int16 [>= 125], 3 out Y (uint32 words) [C], 4 int snr_shift [0, 63]
// gain = piecewise polynomial of the noise estimate from gain_lut (3 coefficients per
// power of two); snr = (X * gain) >> snr_shift, with 12 fractional bits;
// Y = snr^2 / 4 below 2, snr - 1 from there, with 6 fractional bits.
#include "../kernel_args.h"
#include "signal_math.h"

namespace grt::kernels::signal {
namespace {

constexpr int kSnrBits = 12;
constexpr int kOutputBits = 6;
// The largest index the gain polynomial reads: 4 * 32 - 6 + 2.
constexpr int64_t kGainLutEntries = 125;

int16_t wide_dynamic_gain(uint32_t x, const int16_t* lut) {
  if (x <= 2) return lut[x];
  const int32_t interval = static_cast<int32_t>(most_significant_bit32(x));
  lut += 4 * interval - 6;
  const int16_t frac = static_cast<int16_t>(
      ((interval < 11) ? (x << (11 - interval)) : (x >> (interval - 11))) & 0x3FF);
  int32_t result = (static_cast<int32_t>(lut[2]) * frac) >> 5;
  result += static_cast<int32_t>(static_cast<uint32_t>(lut[1]) << 5);
  result *= frac;
  result = (result + (1 << 14)) >> 15;
  result += lut[0];
  return static_cast<int16_t>(result);
}

uint32_t shrink(uint32_t snr) {
  if (snr < (2u << kSnrBits)) return (snr * snr) >> (2 + 2 * kSnrBits - kOutputBits);
  return (snr >> (kSnrBits - kOutputBits)) - (1u << kOutputBits);
}

}  // namespace
}  // namespace grt::kernels::signal

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(signal_pcan) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels::signal;
  const DLTensor* in = tensor_at(args, 0);
  const uint32_t* x = data_of<const uint32_t>(in);
  const uint32_t* noise = data_of<const uint32_t>(tensor_at(args, 1));
  const int16_t* lut = data_of<const int16_t>(tensor_at(args, 2));
  uint32_t* y = data_of<uint32_t>(tensor_at(args, 3));
  const int snr_shift = static_cast<int>(int_at(args, 4));
  const int64_t channels = element_count(in);
  for (int64_t i = 0; i < channels; ++i) {
    // The gain is an int16 read as 32 unsigned bits, as TFLM's.
    const uint32_t gain = static_cast<uint32_t>(static_cast<int32_t>(wide_dynamic_gain(noise[i], lut)));
    const uint32_t snr = static_cast<uint32_t>((static_cast<uint64_t>(x[i]) * gain) >> snr_shift);
    y[i] = shrink(snr);
  }
  return 0;
}

GRT_CHECK_FUNCTION(signal_pcan) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_pcan", args, type_codes, num_args);
  check.count(5)
      .tensor(0, ElementType::kInt32, 1)
      .tensor(1, ElementType::kInt32, 1)
      .tensor(2, ElementType::kInt16, 1)
      .tensor(3, ElementType::kInt32, 1)
      .integer(4, 0, 63);
  if (!check.ok()) return check.result();
  const int64_t channels = element_count(tensor_at(args, 0));
  check.expect(element_count(tensor_at(args, 1)) == channels && element_count(tensor_at(args, 3)) == channels,
               "input, noise estimate and output sizes differ")
      .expect(element_count(tensor_at(args, 2)) >= grt::kernels::signal::kGainLutEntries, "gain table has fewer than 125 entries");
  return check.result();
}
