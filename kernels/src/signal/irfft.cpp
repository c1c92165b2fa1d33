// Irfft: the inverse real FFT of int16 spectra in kiss_fft's 16-bit fixed point, as TFLM's
// signal library builds it (kiss_fftri: the half spectrum folded into N = fft_length / 2
// complex values, then an inverse complex FFT of that length, each stage dividing by its
// radix). The output is the time signal divided by fft_length, within fixed-point rounding.
//
// signal_irfft_s16 takes:
//   0 in X int16 [..., 2 * (N + 1)] (real, imaginary pairs), 1 in twiddles int16 [3 * N]:
//     the N inverse twiddles of the inner FFT, then the N / 2 inverse "super twiddles" of the
//     fold (computed by the importer with kiss_fft's rounding),
//   2 in stages int32 [2k]: (radix, remaining length) per stage, radices 2 and 4,
//   3 out Y int16 [..., fft_length], 4 int fft_length
// Workspace: N complex int16 (the folded spectrum), from TVMBackendAllocWorkspace.
#include "../kernel_args.h"
#include "kiss_fft16.h"

namespace grt::kernels::signal {
namespace {

// kiss_fftri's fold of bins 0..N into the N complex inputs of the inverse FFT.
void fold(const Cpx* x, const Cpx* super, int64_t n, Cpx* folded) {
  folded[0] = divide(Cpx{wrap(x[0].r + x[n].r), wrap(x[0].r - x[n].r)}, 2);
  for (int64_t k = 1; k <= n / 2; ++k) {
    const Cpx fk = divide(x[k], 2);
    const Cpx fnkc = divide(Cpx{x[n - k].r, wrap(-x[n - k].i)}, 2);
    const Cpx even = add(fk, fnkc);
    const Cpx odd = mul(sub(fk, fnkc), super[k - 1]);
    folded[k] = add(even, odd);
    // For k = N / 2 both land on one bin: this second write wins, as in kiss_fft.
    folded[n - k] = sub(even, odd);
    folded[n - k].i = wrap(-folded[n - k].i);
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

GRT_KERNEL_FUNCTION(signal_irfft_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels::signal;
  const DLTensor* in = tensor_at(args, 0);
  const Cpx* x = data_of<const Cpx>(in);
  const Cpx* twiddles = data_of<const Cpx>(tensor_at(args, 1));
  const int32_t* stages = data_of<const int32_t>(tensor_at(args, 2));
  Cpx* y = data_of<Cpx>(tensor_at(args, 3));
  const int64_t n = int_at(args, 4) / 2;
  const int64_t frames = element_count(in) / (2 * (n + 1));
  auto* folded = static_cast<Cpx*>(TVMBackendAllocWorkspace(kDLCPU, 0, static_cast<uint64_t>(n) * sizeof(Cpx), kDLInt, 16));
  if (folded == nullptr) return -1;  // the backend has set the error
  for (int64_t f = 0; f < frames; ++f, x += n + 1, y += n) {
    fold(x, twiddles + n, n, folded);
    Fft{twiddles, true}.work(y, Frame{reinterpret_cast<const int16_t*>(folded), 2 * n}, 0, 1, stages);
  }
  TVMBackendFreeWorkspace(kDLCPU, 0, folded);
  return 0;
}

GRT_CHECK_FUNCTION(signal_irfft_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("signal_irfft_s16", args, type_codes, num_args);
  if (!grt::kernels::signal::check_fft_operands(check, args)) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 3);
  const int64_t fft_length = int_at(args, 4);
  const int64_t n = fft_length / 2;
  const int64_t frames = element_count(in) / (2 * (n + 1));
  check.expect(in->shape[in->ndim - 1] == 2 * (n + 1), "input is not fft_length / 2 + 1 complex bins per frame")
      .expect(out->shape[out->ndim - 1] == fft_length && element_count(out) == frames * fft_length,
              "output is not fft_length samples per frame");
  if (check.ok()) grt::kernels::signal::check_fft_tables(check, args);
  return check.result();
}
