// FilterBankSpectralSubtraction: a per-channel running noise estimate (a low-pass filter of
// the signal) subtracted from the signal, never below a floor (TFLM's
// FilterbankSpectralSubtraction).
//
// signal_filter_bank_spectral_subtraction takes:
//   0 in X (uint32 words, stored as int32) [C], 1 out Y (same) [C],
//   2 out noise_estimate (same) [C]: this run's estimate,
//   3 int smoothing, 4 int one_minus_smoothing, 5 int alternate_smoothing,
//   6 int alternate_one_minus_smoothing (odd channels use the alternates), 7 int min_signal_remaining,
//   8 int smoothing_bits [0, 31], 9 int spectral_subtraction_bits [0, 63], 10 int clamping (0 or 1),
//   11 out state (same) [C]: the estimate TFLM keeps across invocations, a State tensor
//     (zeros at init and after grt_reset_state), read and then replaced by this run's.
#include "../kernel_args.h"

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(signal_filter_bank_spectral_subtraction) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const DLTensor* in = tensor_at(args, 0);
  const uint32_t* x = data_of<const uint32_t>(in);
  uint32_t* y = data_of<uint32_t>(tensor_at(args, 1));
  uint32_t* estimate = data_of<uint32_t>(tensor_at(args, 2));
  uint32_t* state = data_of<uint32_t>(tensor_at(args, 11));
  const uint32_t smoothing[2] = {static_cast<uint32_t>(int_at(args, 3)), static_cast<uint32_t>(int_at(args, 5))};
  const uint32_t keep[2] = {static_cast<uint32_t>(int_at(args, 4)), static_cast<uint32_t>(int_at(args, 6))};
  const uint32_t min_signal_remaining = static_cast<uint32_t>(int_at(args, 7));
  const uint32_t smoothing_bits = static_cast<uint32_t>(int_at(args, 8));
  const uint32_t subtraction_bits = static_cast<uint32_t>(int_at(args, 9));
  const bool clamping = int_at(args, 10) != 0;
  const int64_t channels = element_count(in);
  for (int64_t i = 0; i < channels; ++i) {
    const int odd = static_cast<int>(i & 1);
    const uint32_t previous = state[i];
    const uint32_t signal_up = x[i] << smoothing_bits;
    uint32_t current = static_cast<uint32_t>(
        (static_cast<uint64_t>(signal_up) * smoothing[odd] + static_cast<uint64_t>(previous) * keep[odd]) >> subtraction_bits);
    uint32_t subtrahend = current;
    // signal - estimate must not go negative.
    if (subtrahend > signal_up) {
      subtrahend = signal_up;
      if (clamping) current = subtrahend;
    }
    state[i] = current;
    estimate[i] = current;
    const uint32_t floor = static_cast<uint32_t>((static_cast<uint64_t>(x[i]) * min_signal_remaining) >> subtraction_bits);
    const uint32_t subtracted = (signal_up - subtrahend) >> smoothing_bits;
    y[i] = subtracted > floor ? subtracted : floor;
  }
  return 0;
}

GRT_CHECK_FUNCTION(signal_filter_bank_spectral_subtraction) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_filter_bank_spectral_subtraction", args, type_codes, num_args);
  check.count(12).tensor(0, ElementType::kInt32, 1).tensor(1, ElementType::kInt32, 1).tensor(2, ElementType::kInt32, 1);
  for (int i = 3; i <= 7; ++i) check.integer(i, 0, UINT32_MAX);
  check.integer(8, 0, 31).integer(9, 0, 63).integer(10, 0, 1).tensor(11, ElementType::kInt32, 1);
  if (!check.ok()) return check.result();
  const int64_t channels = element_count(tensor_at(args, 0));
  check.expect(element_count(tensor_at(args, 1)) == channels && element_count(tensor_at(args, 2)) == channels &&
                   element_count(tensor_at(args, 11)) == channels,
               "input, output, noise estimate and state sizes differ");
  return check.result();
}
