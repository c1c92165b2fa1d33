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

namespace grt::kernels::signal {
namespace {

struct Cpx {
  int16_t r;
  int16_t i;
};

// kiss_fft's fixed-point operations: products in 32 bits, rounded back by 15 bits; sums
// wrap in int16.
inline int16_t round15(int32_t x) { return static_cast<int16_t>((x + (1 << 14)) >> 15); }
inline int16_t wrap(int32_t x) { return static_cast<int16_t>(x); }
inline Cpx mul(Cpx a, Cpx b) {
  return {round15(static_cast<int32_t>(a.r) * b.r - static_cast<int32_t>(a.i) * b.i),
          round15(static_cast<int32_t>(a.r) * b.i + static_cast<int32_t>(a.i) * b.r)};
}
inline Cpx divide(Cpx c, int32_t k) {
  const int32_t factor = 32767 / k;
  return {round15(c.r * factor), round15(c.i * factor)};
}
inline Cpx add(Cpx a, Cpx b) { return {wrap(a.r + b.r), wrap(a.i + b.i)}; }
inline Cpx sub(Cpx a, Cpx b) { return {wrap(a.r - b.r), wrap(a.i - b.i)}; }

// The zero-padded frame read as complex samples (even, odd).
struct Frame {
  const int16_t* x;
  int64_t length;
  Cpx at(int64_t k) const {
    const int64_t j = 2 * k;
    return {j < length ? x[j] : int16_t{0}, j + 1 < length ? x[j + 1] : int16_t{0}};
  }
};

struct Fft {
  const Cpx* twiddles;

  void radix2(Cpx* out, int64_t stride, int64_t m) const {
    const Cpx* tw = twiddles;
    for (int64_t k = 0; k < m; ++k, tw += stride) {
      const Cpx a = divide(out[k], 2);
      const Cpx t = mul(divide(out[k + m], 2), *tw);
      out[k + m] = sub(a, t);
      out[k] = add(a, t);
    }
  }

  void radix4(Cpx* out, int64_t stride, int64_t m) const {
    for (int64_t k = 0; k < m; ++k) {
      Cpx* f = out + k;
      const Cpx f0 = divide(f[0], 4);
      const Cpx s0 = mul(divide(f[m], 4), twiddles[k * stride]);
      const Cpx s1 = mul(divide(f[2 * m], 4), twiddles[2 * k * stride]);
      const Cpx s2 = mul(divide(f[3 * m], 4), twiddles[3 * k * stride]);
      const Cpx s5 = sub(f0, s1);
      const Cpx f0s = add(f0, s1);
      const Cpx s3 = add(s0, s2);
      const Cpx s4 = sub(s0, s2);
      f[2 * m] = sub(f0s, s3);
      f[0] = add(f0s, s3);
      f[m] = {wrap(s5.r + s4.i), wrap(s5.i - s4.r)};
      f[3 * m] = {wrap(s5.r - s4.i), wrap(s5.i + s4.r)};
    }
  }

  // kiss_fft's kf_work: p sub-FFTs of decimated input, then one radix-p pass.
  void work(Cpx* out, const Frame& in, int64_t first, int64_t stride, const int32_t* stages) const {
    const int64_t p = stages[0];
    const int64_t m = stages[1];
    if (m == 1) {
      for (int64_t k = 0; k < p; ++k) out[k] = in.at(first + k * stride);
    } else {
      for (int64_t k = 0; k < p; ++k) work(out + k * m, in, first + k * stride, stride * p, stages + 2);
    }
    if (p == 2) {
      radix2(out, stride, m);
    } else {
      radix4(out, stride, m);
    }
  }
};

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
  check.count(5)
      .tensor(0, ElementType::kInt16)
      .tensor(1, ElementType::kInt16, 1)
      .tensor(2, ElementType::kInt32, 1)
      .tensor(3, ElementType::kInt16)
      .integer(4, 4, 1 << 20);
  if (!check.ok()) return check.result();
  const DLTensor* in = tensor_at(args, 0);
  const DLTensor* out = tensor_at(args, 3);
  const int64_t fft_length = int_at(args, 4);
  const int64_t n = fft_length / 2;
  check.expect(fft_length % 2 == 0, "fft_length is odd")
      .expect(in->ndim >= 1 && out->ndim == in->ndim, "input and output ranks differ or are 0");
  if (!check.ok()) return check.result();
  const int64_t frame_length = in->shape[in->ndim - 1];
  const int64_t frames = frame_length == 0 ? 0 : element_count(in) / frame_length;
  check.expect(frame_length <= fft_length, "frames are longer than fft_length")
      .expect(out->shape[out->ndim - 1] == 2 * (n + 1) && element_count(out) == frames * 2 * (n + 1),
              "output is not fft_length / 2 + 1 complex bins per frame")
      .expect(element_count(tensor_at(args, 1)) == 3 * n, "twiddles are not fft_length * 3 / 2 values");
  if (!check.ok()) return check.result();
  // The stage table must multiply out to n with radices 2 and 4 (the importer's factoring).
  const DLTensor* stage_tensor = tensor_at(args, 2);
  const int32_t* stages = data_of<const int32_t>(stage_tensor);
  const int64_t entries = element_count(stage_tensor);
  int64_t remaining = n;
  bool valid = entries >= 2 && entries % 2 == 0 && stages != nullptr;
  for (int64_t s = 0; valid && s < entries; s += 2) {
    valid = (stages[s] == 2 || stages[s] == 4) && remaining % stages[s] == 0 && stages[s + 1] == remaining / stages[s];
    remaining = valid ? remaining / stages[s] : 0;
  }
  check.expect(valid && remaining == 1, "stages do not factor fft_length / 2 into radices 2 and 4");
  return check.result();
}
