// Rfft: the real FFT of frames as TFLM's signal library builds it with kiss_fft (kiss_fftr:
// a complex FFT of half the length, then a split into the real spectrum). In 16- and 32-bit
// fixed point each radix stage divides by its radix and the split halves, so the output is
// the spectrum divided by fft_length, within rounding; float32 does not divide.
//
// signal_rfft_s16 / signal_rfft_s32 / signal_rfft_f32 take (T int16 / int32 / float32):
//   0 in X T [..., L] (frames of L <= fft_length samples, zero-padded to fft_length),
//   1 in twiddles T [fft_length * 3 / 2]: the N = fft_length / 2 complex twiddles of the
//     inner FFT, then the N / 2 "super twiddles" that split it into the real spectrum
//     (computed by the importer with kiss_fft's rounding),
//   2 in stages int32 [2k]: (radix, remaining length) per stage, radices 2 and 4,
//   3 out Y T [..., 2 * (N + 1)] (real, imaginary pairs), 4 int fft_length
// No scratch: the inner FFT writes Y's first N bins, and the split runs in place.
#include "../kernel_args.h"

#include "kiss_fft.h"

namespace grt::kernels::signal {
namespace {

// kiss_fftr's HALF_OF(a + b) and HALF_OF(a - b): int16 sums are taken in int (no wrap) before the shift, int32
// sums wrap in 32 bits, float32 halves by multiplying.
inline int16_t half_sum(int16_t a, int16_t b) { return wrap((static_cast<int32_t>(a) + b) >> 1); }
inline int32_t half_sum(int32_t a, int32_t b) { return plus(a, b) >> 1; }
inline float half_sum(float a, float b) { return (a + b) * 0.5f; }
inline int16_t half_difference(int16_t a, int16_t b) { return wrap((static_cast<int32_t>(a) - b) >> 1); }
inline int32_t half_difference(int32_t a, int32_t b) { return minus(a, b) >> 1; }
inline float half_difference(float a, float b) { return (a - b) * 0.5f; }

template <typename C>
void rfft_frame(const FrameOf<C>& frame, const C* twiddles, const int32_t* stages, int64_t n, C* y) {
  FftOf<C>{twiddles}.work(y, frame, 0, 1, stages);
  const C* super = twiddles + n;
  const C dc = divide(y[0], 2);
  y[0] = {plus(dc.r, dc.i), 0};
  y[n] = {minus(dc.r, dc.i), 0};
  for (int64_t k = 1; k <= n / 2; ++k) {
    const C fpk = divide(y[k], 2);
    const C fpnk = divide(C{y[n - k].r, negate(y[n - k].i)}, 2);
    const C f1k = add(fpk, fpnk);
    const C f2k = sub(fpk, fpnk);
    const C tw = mul(f2k, super[k - 1]);
    y[k] = {half_sum(f1k.r, tw.r), half_sum(f1k.i, tw.i)};
    y[n - k] = {half_difference(f1k.r, tw.r), half_difference(tw.i, f1k.i)};
  }
}

template <typename C>
int rfft(TVMValue* args) {
  using Scalar = decltype(C::r);
  const DLTensor* in = tensor_at(args, 0);
  const Scalar* x = data_of<const Scalar>(in);
  const C* twiddles = data_of<const C>(tensor_at(args, 1));
  const int32_t* stages = data_of<const int32_t>(tensor_at(args, 2));
  C* y = data_of<C>(tensor_at(args, 3));
  const int64_t n = int_at(args, 4) / 2;
  const int64_t frame_length = in->shape[in->ndim - 1];
  const int64_t frames = frame_length == 0 ? 0 : element_count(in) / frame_length;
  for (int64_t f = 0; f < frames; ++f) {
    rfft_frame(FrameOf<C>{x + f * frame_length, frame_length}, twiddles, stages, n, y + f * (n + 1));
  }
  return 0;
}

int check_rfft(TVMValue* args, int* type_codes, int num_args, ElementType type) {
  ArgCheck check("signal_rfft", args, type_codes, num_args);
  if (!check_fft_operands(check, args, type)) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 3);
  const int64_t fft_length = int_at(args, 4);
  const int64_t n = fft_length / 2;
  const int64_t frame_length = in->shape[in->ndim - 1];
  const int64_t frames = frame_length == 0 ? 0 : element_count(in) / frame_length;
  check.expect(frame_length <= fft_length, "frames are longer than fft_length")
      .expect(out->shape[out->ndim - 1] == 2 * (n + 1) && element_count(out) == frames * 2 * (n + 1),
              "output is not fft_length / 2 + 1 complex bins per frame");
  if (check.ok()) check_fft_tables(check, args);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::signal

GRT_FFT_KERNEL(signal_rfft_s16, rfft, check_rfft, Cpx, kInt16)
GRT_FFT_KERNEL(signal_rfft_s32, rfft, check_rfft, Cpx32, kInt32)
GRT_FFT_KERNEL(signal_rfft_f32, rfft, check_rfft, CpxF, kFloat32)
