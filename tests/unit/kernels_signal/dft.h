// The real DFT and its inverse, computed directly in double: the references the Rfft and
// Irfft tests hold the fixed-point and float transforms to.
#ifndef GRAPHRT_TESTS_UNIT_KERNELS_SIGNAL_DFT_H_
#define GRAPHRT_TESTS_UNIT_KERNELS_SIGNAL_DFT_H_

#include <cmath>
#include <cstddef>
#include <vector>

namespace grt::test {

inline constexpr double kPi = 3.141592653589793238462643383279502884;

// The real DFT of x zero-padded to `length`: bins 0..length/2 as (re, im) pairs.
template <typename T>
std::vector<double> dft(const std::vector<T>& x, int length) {
  std::vector<double> bins;
  for (int k = 0; k <= length / 2; ++k) {
    double re = 0;
    double im = 0;
    for (size_t t = 0; t < x.size(); ++t) {
      const double phase = -2 * kPi * k * static_cast<double>(t) / length;
      re += static_cast<double>(x[t]) * std::cos(phase);
      im += static_cast<double>(x[t]) * std::sin(phase);
    }
    bins.push_back(re);
    bins.push_back(im);
  }
  return bins;
}

// Sum over the whole (Hermitian) spectrum of X[k] e^{2 pi i k t / L}, the spectrum given as
// bins 0..L/2 in (re, im) pairs: L times the signal.
template <typename T>
std::vector<double> inverse_dft(const std::vector<T>& spectrum, int length) {
  std::vector<double> y(static_cast<size_t>(length));
  for (int t = 0; t < length; ++t) {
    double sum = static_cast<double>(spectrum[0]) + static_cast<double>(spectrum[static_cast<size_t>(length)]) * (t % 2 == 0 ? 1.0 : -1.0);
    for (int k = 1; k < length / 2; ++k) {
      const double phase = 2 * kPi * k * t / length;
      sum += 2 * (static_cast<double>(spectrum[2 * k]) * std::cos(phase) - static_cast<double>(spectrum[2 * k + 1]) * std::sin(phase));
    }
    y[static_cast<size_t>(t)] = sum;
  }
  return y;
}

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_UNIT_KERNELS_SIGNAL_DFT_H_
