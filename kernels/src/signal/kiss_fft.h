// kiss_fft's complex FFT as TFLM's signal library builds it, in 16- and 32-bit fixed point
// (each radix stage, 2 or 4, divides by its radix so nothing overflows) and in float32.
// Shared by Rfft and Irfft.
#ifndef GRAPHRT_KERNELS_SIGNAL_KISS_FFT_H_
#define GRAPHRT_KERNELS_SIGNAL_KISS_FFT_H_

#include <stdint.h>

#include "../kernel_args.h"

namespace grt::kernels::signal {

struct Cpx {
  int16_t r;
  int16_t i;
};
struct Cpx32 {
  int32_t r;
  int32_t i;
};
struct CpxF {
  float r;
  float i;
};

// kiss_fft's fixed-point operations: products widened, rounded back by 15 (31) bits; sums
// wrap. Its float build multiplies plainly and does not divide.
inline int16_t round15(int32_t x) { return static_cast<int16_t>((x + (1 << 14)) >> 15); }
inline int32_t round31(int64_t x) { return static_cast<int32_t>((x + (int64_t{1} << 30)) >> 31); }
inline int16_t wrap(int32_t x) { return static_cast<int16_t>(x); }
inline int16_t plus(int16_t a, int16_t b) { return wrap(a + b); }
inline int32_t plus(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); }
inline float plus(float a, float b) { return a + b; }
inline int16_t minus(int16_t a, int16_t b) { return wrap(a - b); }
inline int32_t minus(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b)); }
inline float minus(float a, float b) { return a - b; }
template <typename S>
S negate(S a) {
  return minus(S{0}, a);
}

inline Cpx mul(Cpx a, Cpx b) {
  return {round15(static_cast<int32_t>(a.r) * b.r - static_cast<int32_t>(a.i) * b.i),
          round15(static_cast<int32_t>(a.r) * b.i + static_cast<int32_t>(a.i) * b.r)};
}
inline Cpx32 mul(Cpx32 a, Cpx32 b) {
  return {round31(static_cast<int64_t>(a.r) * b.r - static_cast<int64_t>(a.i) * b.i),
          round31(static_cast<int64_t>(a.r) * b.i + static_cast<int64_t>(a.i) * b.r)};
}
inline CpxF mul(CpxF a, CpxF b) { return {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r}; }
inline Cpx divide(Cpx c, int32_t k) {
  const int32_t factor = 32767 / k;
  return {round15(c.r * factor), round15(c.i * factor)};
}
inline Cpx32 divide(Cpx32 c, int32_t k) {
  const int64_t factor = INT32_MAX / k;
  return {round31(c.r * factor), round31(c.i * factor)};
}
inline CpxF divide(CpxF c, int32_t) { return c; }
template <typename C>
C add(C a, C b) {
  return {plus(a.r, b.r), plus(a.i, b.i)};
}
template <typename C>
C sub(C a, C b) {
  return {minus(a.r, b.r), minus(a.i, b.i)};
}

// The zero-padded frame read as complex samples (even, odd).
template <typename C>
struct FrameOf {
  using Scalar = decltype(C::r);
  const Scalar* x;
  int64_t length;
  C at(int64_t k) const {
    const int64_t j = 2 * k;
    return {j < length ? x[j] : Scalar{0}, j + 1 < length ? x[j + 1] : Scalar{0}};
  }
};
using Frame = FrameOf<Cpx>;

template <typename C>
struct FftOf {
  const C* twiddles;
  bool inverse = false;  // kiss_fft's inverse turns the radix-4 rotation the other way

  void radix2(C* out, int64_t stride, int64_t m) const {
    const C* tw = twiddles;
    for (int64_t k = 0; k < m; ++k, tw += stride) {
      const C a = divide(out[k], 2);
      const C t = mul(divide(out[k + m], 2), *tw);
      out[k + m] = sub(a, t);
      out[k] = add(a, t);
    }
  }

  void radix4(C* out, int64_t stride, int64_t m) const {
    for (int64_t k = 0; k < m; ++k) {
      C* f = out + k;
      const C f0 = divide(f[0], 4);
      const C s0 = mul(divide(f[m], 4), twiddles[k * stride]);
      const C s1 = mul(divide(f[2 * m], 4), twiddles[2 * k * stride]);
      const C s2 = mul(divide(f[3 * m], 4), twiddles[3 * k * stride]);
      const C s5 = sub(f0, s1);
      const C f0s = add(f0, s1);
      const C s3 = add(s0, s2);
      const C s4 = sub(s0, s2);
      f[2 * m] = sub(f0s, s3);
      f[0] = add(f0s, s3);
      const C forward = {plus(s5.r, s4.i), minus(s5.i, s4.r)};
      const C backward = {minus(s5.r, s4.i), plus(s5.i, s4.r)};
      f[m] = inverse ? backward : forward;
      f[3 * m] = inverse ? forward : backward;
    }
  }

  // kiss_fft's kf_work: p sub-FFTs of decimated input, then one radix-p pass.
  void work(C* out, const FrameOf<C>& in, int64_t first, int64_t stride, const int32_t* stages) const {
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
using Fft = FftOf<Cpx>;

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

// The operands Rfft and Irfft share: 0 in T, 1 twiddles T [n], 2 stages int32, 3 out T of
// the input's rank, 4 int fft_length (even). False after reporting.
inline bool check_fft_operands(ArgCheck& check, TVMValue* args, ElementType type = ElementType::kInt16) {
  check.count(5)
      .tensor(0, type)
      .tensor(1, type, 1)
      .tensor(2, ElementType::kInt32, 1)
      .tensor(3, type)
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

// One typed entry point of an FFT kernel, its function and its check: `run<complex_type>`
// computes, `check` checks for `element_type`. Rfft and Irfft each have three.
#define GRT_FFT_KERNEL(name, run, check, complex_type, element_type)                                       \
  GRT_KERNEL_FUNCTION(name) {                                                                              \
    (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;          \
    return grt::kernels::signal::run<grt::kernels::signal::complex_type>(args);                            \
  }                                                                                                        \
  GRT_CHECK_FUNCTION(name) {                                                                               \
    (void)ret_value, (void)ret_type_code, (void)resource_handle;                                           \
    return grt::kernels::signal::check(args, type_codes, num_args, grt::kernels::ElementType::element_type); \
  }

#endif  // GRAPHRT_KERNELS_SIGNAL_KISS_FFT_H_
