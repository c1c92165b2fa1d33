// kiss_fft's complex FFT in 16-bit fixed point, as TFLM's signal library builds it: each
// radix stage (2 or 4) divides by its radix so nothing overflows. Shared by Rfft and Irfft.
#ifndef GRAPHRT_KERNELS_SIGNAL_KISS_FFT16_H_
#define GRAPHRT_KERNELS_SIGNAL_KISS_FFT16_H_

#include <stdint.h>

#include "../kernel_args.h"

namespace grt::kernels::signal {

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
  bool inverse = false;  // kiss_fft's inverse turns the radix-4 rotation the other way

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
      const Cpx forward = {wrap(s5.r + s4.i), wrap(s5.i - s4.r)};
      const Cpx backward = {wrap(s5.r - s4.i), wrap(s5.i + s4.r)};
      f[m] = inverse ? backward : forward;
      f[3 * m] = inverse ? forward : backward;
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

// The stage table multiplies out to n with radices 2 and 4 (the importer's factoring).
inline bool stages_factor(const int32_t* stages, int64_t entries, int64_t n) {
  int64_t remaining = n;
  bool valid = entries >= 2 && entries % 2 == 0 && stages != nullptr;
  for (int64_t s = 0; valid && s < entries; s += 2) {
    valid = (stages[s] == 2 || stages[s] == 4) && remaining % stages[s] == 0 && stages[s + 1] == remaining / stages[s];
    remaining = valid ? remaining / stages[s] : 0;
  }
  return valid && remaining == 1;
}

// The operands Rfft and Irfft share: 0 in int16, 1 twiddles int16 [n], 2 stages int32,
// 3 out int16 of the input's rank, 4 int fft_length (even). False after reporting.
inline bool check_fft_operands(ArgCheck& check, TVMValue* args) {
  check.count(5)
      .tensor(0, ElementType::kInt16)
      .tensor(1, ElementType::kInt16, 1)
      .tensor(2, ElementType::kInt32, 1)
      .tensor(3, ElementType::kInt16)
      .integer(4, 4, 1 << 20);
  if (!check.ok()) return false;
  const DLTensor* in = tensor_at(args, 0);
  check.expect(int_at(args, 4) % 2 == 0, "fft_length is odd")
      .expect(in->ndim >= 1 && tensor_at(args, 3)->ndim == in->ndim, "input and output ranks differ or are 0");
  return check.ok();
}

// Twiddles and stages fit fft_length (argument 4).
inline void check_fft_tables(ArgCheck& check, TVMValue* args) {
  const int64_t n = int_at(args, 4) / 2;
  check.expect(element_count(tensor_at(args, 1)) == 3 * n, "twiddles are not fft_length * 3 / 2 values");
  if (!check.ok()) return;
  const DLTensor* stage_tensor = tensor_at(args, 2);
  check.expect(stages_factor(data_of<const int32_t>(stage_tensor), element_count(stage_tensor), n),
               "stages do not factor fft_length / 2 into radices 2 and 4");
}

}  // namespace grt::kernels::signal

#endif  // GRAPHRT_KERNELS_SIGNAL_KISS_FFT16_H_
