// Irfft: the inverse real FFT as TFLM's signal library builds it with kiss_fft (kiss_fftri:
// the half spectrum folded into N = fft_length / 2 complex values, then an inverse complex
// FFT of that length). In 16- and 32-bit fixed point each stage divides by its radix, so the
// output is the time signal divided by fft_length, within rounding; float32 does not divide.
//
// signal_irfft_s16 / signal_irfft_s32 / signal_irfft_f32 take (T int16 / int32 / float32):
//   0 in X T [..., 2 * (N + 1)] (real, imaginary pairs), 1 in twiddles T [3 * N]:
//     the N inverse twiddles of the inner FFT, then the N / 2 inverse "super twiddles" of the
//     fold (computed by the importer with kiss_fft's rounding),
//   2 in stages int32 [2k]: (radix, remaining length) per stage, radices 2 and 4,
//   3 out Y T [..., fft_length], 4 int fft_length
// Workspace: N complex T (the folded spectrum), from TVMBackendAllocWorkspace.
#include "../kernel_args.h"
#include "kiss_fft.h"

namespace grt::kernels::signal {
namespace {

// kiss_fftri's fold of bins 0..N into the N complex inputs of the inverse FFT.
template <typename C>
void fold(const C* x, const C* super, int64_t n, C* folded) {
  folded[0] = divide(C{plus(x[0].r, x[n].r), minus(x[0].r, x[n].r)}, 2);
  for (int64_t k = 1; k <= n / 2; ++k) {
    const C fk = divide(x[k], 2);
    const C fnkc = divide(C{x[n - k].r, negate(x[n - k].i)}, 2);
    const C even = add(fk, fnkc);
    const C odd = mul(sub(fk, fnkc), super[k - 1]);
    folded[k] = add(even, odd);
    // For k = N / 2 both land on one bin: this second write wins, as in kiss_fft.
    folded[n - k] = sub(even, odd);
    folded[n - k].i = negate(folded[n - k].i);
  }
}

template <typename C>
int irfft(TVMValue* args) {
  const DLTensor* in = tensor_at(args, 0);
  const C* x = data_of<const C>(in);
  const C* twiddles = data_of<const C>(tensor_at(args, 1));
  const int32_t* stages = data_of<const int32_t>(tensor_at(args, 2));
  C* y = data_of<C>(tensor_at(args, 3));
  const int64_t n = int_at(args, 4) / 2;
  const int64_t frames = element_count(in) / (2 * (n + 1));
  auto* folded = static_cast<C*>(TVMBackendAllocWorkspace(kDLCPU, 0, static_cast<uint64_t>(n) * sizeof(C), kDLInt, 16));
  if (folded == nullptr) return -1;  // the backend has set the error
  for (int64_t f = 0; f < frames; ++f, x += n + 1, y += n) {
    fold(x, twiddles + n, n, folded);
    FftOf<C>{twiddles, true}.work(y, FrameOf<C>{&folded[0].r, 2 * n}, 0, 1, stages);
  }
  TVMBackendFreeWorkspace(kDLCPU, 0, folded);
  return 0;
}

int check_irfft(TVMValue* args, int* type_codes, int num_args, ElementType type) {
  ArgCheck check("signal_irfft", args, type_codes, num_args);
  if (!check_fft_operands(check, args, type)) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 3);
  const int64_t fft_length = int_at(args, 4);
  const int64_t n = fft_length / 2;
  const int64_t frames = element_count(in) / (2 * (n + 1));
  check.expect(in->shape[in->ndim - 1] == 2 * (n + 1), "input is not fft_length / 2 + 1 complex bins per frame")
      .expect(out->shape[out->ndim - 1] == fft_length && element_count(out) == frames * fft_length,
              "output is not fft_length samples per frame");
  if (check.ok()) check_fft_tables(check, args);
  return check.result();
}

}  // namespace
}  // namespace grt::kernels::signal

GRT_FFT_KERNEL(signal_irfft_s16, irfft, check_irfft, Cpx, kInt16)
GRT_FFT_KERNEL(signal_irfft_s32, irfft, check_irfft, Cpx32, kInt32)
GRT_FFT_KERNEL(signal_irfft_f32, irfft, check_irfft, CpxF, kFloat32)
