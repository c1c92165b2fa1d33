// Dot products over one run of filter taps whose activations and weights are both
// contiguous (a filter row, or one tap's channels), for a block of four output channels
// (their filters `filter_stride` elements apart) that share every activation load, or for
// one channel. The convolution loops (conv2d.cpp) add them up run by run.
//
// The main loops run over a multiple of the vector width with no dependence between
// iterations but the sums, so GCC -O2 turns them into SIMD multiply-adds (pmaddwd, mulps
// on x86; its very cheap cost model vectorizes only loops it needs no epilogue for, hence
// the explicit multiple); the leftovers are a scalar tail. They live in conv2d_dot.cpp, out
// of line: inlined into the convolution loops GCC no longer vectorizes them, and a call per
// run costs little.
#ifndef GRAPHRT_KERNELS_CONV_CONV2D_DOT_H_
#define GRAPHRT_KERNELS_CONV_CONV2D_DOT_H_

#include <stddef.h>
#include <stdint.h>

namespace grt::kernels::conv {

// int8 activations plus the input offset, int8 weights; sums wrap as uint32.
void conv2d_dot4_s8(const int8_t* x, const int8_t* w, size_t filter_stride, int16_t offset, size_t n, uint32_t* acc);
void conv2d_dot1_s8(const int8_t* x, const int8_t* w, int16_t offset, size_t n, uint32_t* acc);

// int16 activations (zero point 0), int8 weights; int64 sums.
void conv2d_dot4_s16(const int16_t* x, const int8_t* w, size_t filter_stride, size_t n, int64_t* acc);
void conv2d_dot1_s16(const int16_t* x, const int8_t* w, size_t n, int64_t* acc);

// float; the sum's order differs from a sequential one (partial sums per vector lane).
void conv2d_dot4_f32(const float* x, const float* w, size_t filter_stride, size_t n, float* acc);
void conv2d_dot1_f32(const float* x, const float* w, size_t n, float* acc);

}  // namespace grt::kernels::conv

#endif  // GRAPHRT_KERNELS_CONV_CONV2D_DOT_H_
