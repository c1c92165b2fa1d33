// Rfft: the real FFT of int16 frames in kiss_fft's 16-bit fixed point, as TFLM's signal
// library builds it (kiss_fftr over a complex FFT of half the length, each radix stage
// dividing by its radix so nothing overflows).
//
// signal_rfft_s16 takes:
//   0 in X int16 [..., L] (frames of L <= fft_length samples, zero-padded to fft_length),
//   1 in twiddles int16 [fft_length * 3 / 2]: the N = fft_length / 2 complex twiddles of the
//     inner FFT, then the N / 2 "super twiddles" that split it into the real spectrum
//     (computed by the importer with kiss_fft's rounding),
//   2 in stages int32 [2k]: (radix, remaining length) per stage, radices 2 and 4,
//   3 out Y int16 [..., 2 * (N + 1)] (real, imaginary pairs), 4 int fft_length
// No scratch: the inner FFT writes Y's first N bins, and the split runs in place.
#include "../kernel_args.h"

#include "kiss_fft.h"

namespace grt::kernels::signal {
namespace {

void rfft_frame(const Frame& frame, const Cpx* twiddles, const int32_t* stages, int64_t n, Cpx* y) {
  Fft{twiddles}.work(y, frame, 0, 1, stages);
  const Cpx* super = twiddles + n;
  const Cpx dc = divide(y[0], 2);
  y[0] = {wrap(dc.r + dc.i), 0};
  y[n] = {wrap(dc.r - dc.i), 0};
  for (int64_t k = 1; k <= n / 2; ++k) {
    const Cpx fpk = divide(y[k], 2);
    const Cpx fpnk = divide(Cpx{y[n - k].r, wrap(-y[n - k].i)}, 2);
    const Cpx f1k = add(fpk, fpnk);
    const Cpx f2k = sub(fpk, fpnk);
    const Cpx tw = mul(f2k, super[k - 1]);
    y[k] = {wrap((f1k.r + tw.r) >> 1), wrap((f1k.i + tw.i) >> 1)};
    y[n - k] = {wrap((f1k.r - tw.r) >> 1), wrap((tw.i - f1k.i) >> 1)};
  }
}

}  // namespace
}  // namespace grt::kernels::signal

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::ElementType;
using grt::kernels::int_at;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(signal_rfft_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels::signal;
  const DLTensor* in = tensor_at(args, 0);
  const int16_t* x = data_of<const int16_t>(in);
  const Cpx* twiddles = data_of<const Cpx>(tensor_at(args, 1));
  const int32_t* stages = data_of<const int32_t>(tensor_at(args, 2));
  const DLTensor* out = tensor_at(args, 3);
  Cpx* y = data_of<Cpx>(out);
  const int64_t n = int_at(args, 4) / 2;
  const int64_t frame_length = in->shape[in->ndim - 1];
  const int64_t frames = frame_length == 0 ? 0 : element_count(in) / frame_length;
  for (int64_t f = 0; f < frames; ++f) {
    rfft_frame(Frame{x + f * frame_length, frame_length}, twiddles, stages, n, y + f * (n + 1));
  }
  return 0;
}

GRT_CHECK_FUNCTION(signal_rfft_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_rfft_s16", args, type_codes, num_args);
  if (!grt::kernels::signal::check_fft_operands(check, args)) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 3);
  const int64_t fft_length = int_at(args, 4);
  const int64_t n = fft_length / 2;
  const int64_t frame_length = in->shape[in->ndim - 1];
  const int64_t frames = frame_length == 0 ? 0 : element_count(in) / frame_length;
  check.expect(frame_length <= fft_length, "frames are longer than fft_length")
      .expect(out->shape[out->ndim - 1] == 2 * (n + 1) && element_count(out) == frames * 2 * (n + 1),
              "output is not fft_length / 2 + 1 complex bins per frame");
  if (check.ok()) grt::kernels::signal::check_fft_tables(check, args);
  return check.result();
}
