// Depthwise convolution with depth multiplier 1, channels innermost: for one output pixel,
// a block of consecutive channels is accumulated tap by tap from contiguous input and filter
// bytes, so the compiler turns each tap into a few SIMD instructions. Per channel the taps
// are visited in TFLM's order (rows, then columns), so float sums are bit-identical and the
// int8 wrapping sums are the same integers.
#ifndef GRAPHRT_KERNELS_CONV_DEPTHWISE_CHANNELS_H_
#define GRAPHRT_KERNELS_CONV_DEPTHWISE_CHANNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "conv_arithmetic.h"
#include "conv_geometry.h"
#include "depthwise_requantize.h"

namespace grt::kernels::conv {

// One product, in the arithmetic's accumulator type. For int8, (x + input_offset) lies in
// [-255, 255] and w in [-128, 127], so the product fits int16 exactly (|p| <= 32640): the
// 16-bit multiply lets the vectorizer use 8-lane multiplies.
struct Int8DepthwiseProduct {
  int16_t input_offset;
  uint32_t operator()(int8_t x, int8_t w) const {
    const int16_t shifted = static_cast<int16_t>(x + input_offset);
    const int16_t product = static_cast<int16_t>(shifted * static_cast<int16_t>(w));
    return static_cast<uint32_t>(static_cast<int32_t>(product));
  }
};

struct FloatDepthwiseProduct {
  float operator()(float x, float w) const { return x * w; }
};

// How a block of kBlock channels from `first` turns sums into outputs: the int8 one holds
// each channel's bias and requantization constants, worked out once per block.
template <int kBlock>
struct Int8BlockFinish {
  uint32_t bias[kBlock];
  Requantizer requantize[kBlock];
  int32_t output_offset, activation_min, activation_max;

  Int8BlockFinish(const Int8Arithmetic& a, int32_t first)
      : output_offset(a.output_offset), activation_min(a.activation_min), activation_max(a.activation_max) {
    for (int j = 0; j < kBlock; ++j) {
      bias[j] = a.bias != nullptr ? static_cast<uint32_t>(a.bias[first + j]) : 0u;
      requantize[j] = Requantizer::make(a.multipliers[first + j], a.shifts[first + j]);
    }
  }
  // As Int8Arithmetic::finish (multipliers are checked non-negative, never INT32_MIN).
  int8_t operator()(uint32_t sum, int j) const {
    int32_t value = wrapping_add(requantize[j].apply(static_cast<int32_t>(sum + bias[j])), output_offset);
    if (value < activation_min) value = activation_min;
    if (value > activation_max) value = activation_max;
    return static_cast<int8_t>(value);
  }
};

template <int kBlock>
struct FloatBlockFinish {
  const FloatArithmetic& arithmetic;
  int32_t first;
  FloatBlockFinish(const FloatArithmetic& a, int32_t f) : arithmetic(a), first(f) {}
  float operator()(float sum, int j) const { return arithmetic.finish(sum, first + j); }
};

template <int kBlock>
Int8BlockFinish<kBlock> block_finish(const Int8Arithmetic& a, int32_t first) {
  return Int8BlockFinish<kBlock>(a, first);
}
template <int kBlock>
FloatBlockFinish<kBlock> block_finish(const FloatArithmetic& a, int32_t first) {
  return FloatBlockFinish<kBlock>(a, first);
}

// Channels [first, first + kBlock) of every output pixel. Per pixel, the taps inside the
// image are visited row by row; each tap adds kBlock contiguous products.
template <int kBlock, class Arithmetic, class Product>
void depthwise_block(const ConvGeometry& g, const typename Arithmetic::Input* input,
                     const typename Arithmetic::Filter* filter, typename Arithmetic::Output* output,
                     const Arithmetic& arithmetic, const Product& product, int32_t first) {
  using Accumulator = typename Arithmetic::Accumulator;
  const auto finish = block_finish<kBlock>(arithmetic, first);
  const size_t image_size = static_cast<size_t>(g.input_h) * g.input_w * g.input_c;
  const size_t row_stride = static_cast<size_t>(g.input_w) * g.input_c;
  const size_t filter_row_stride = static_cast<size_t>(g.filter_w) * g.output_c;
  const typename Arithmetic::Filter* block_filter = filter + first;
  typename Arithmetic::Output* out = output + first;
  for (int32_t b = 0; b < g.batches; ++b) {
    const typename Arithmetic::Input* image = input + b * image_size + first;
    for (int32_t oy = 0; oy < g.output_h; ++oy) {
      const int64_t origin_y = static_cast<int64_t>(oy) * g.stride_h - g.pad_top;
      const TapRange rows = taps_inside(origin_y, g.dilation_h, g.filter_h, g.input_h);
      for (int32_t ox = 0; ox < g.output_w; ++ox, out += g.output_c) {
        const int64_t origin_x = static_cast<int64_t>(ox) * g.stride_w - g.pad_left;
        const TapRange cols = taps_inside(origin_x, g.dilation_w, g.filter_w, g.input_w);
        Accumulator sums[kBlock];
        for (int j = 0; j < kBlock; ++j) sums[j] = 0;
        for (int32_t fy = rows.begin; fy < rows.end; ++fy) {
          const int32_t in_y = static_cast<int32_t>(origin_y + static_cast<int64_t>(fy) * g.dilation_h);
          const typename Arithmetic::Input* x_row = image + static_cast<size_t>(in_y) * row_stride;
          const typename Arithmetic::Filter* w_row = block_filter + static_cast<size_t>(fy) * filter_row_stride;
          for (int32_t fx = cols.begin; fx < cols.end; ++fx) {
            const int32_t in_x = static_cast<int32_t>(origin_x + static_cast<int64_t>(fx) * g.dilation_w);
            const typename Arithmetic::Input* x = x_row + static_cast<size_t>(in_x) * g.input_c;
            const typename Arithmetic::Filter* w = w_row + static_cast<size_t>(fx) * g.output_c;
            for (int j = 0; j < kBlock; ++j) sums[j] += product(x[j], w[j]);
          }
        }
        for (int j = 0; j < kBlock; ++j) out[j] = finish(sums[j], j);
      }
    }
  }
}

// Depth multiplier 1 (output channels == input channels), NHWC: blocks of 16 channels, then
// 8, then one at a time.
template <class Arithmetic, class Product>
void depthwise_multiplier1(const ConvGeometry& g, const typename Arithmetic::Input* input,
                           const typename Arithmetic::Filter* filter, typename Arithmetic::Output* output,
                           const Arithmetic& arithmetic, const Product& product) {
  const int32_t channels = g.output_c;
  int32_t c = 0;
  for (; c + 16 <= channels; c += 16) depthwise_block<16>(g, input, filter, output, arithmetic, product, c);
  if (c + 8 <= channels) {
    depthwise_block<8>(g, input, filter, output, arithmetic, product, c);
    c += 8;
  }
  for (; c < channels; ++c) depthwise_block<1>(g, input, filter, output, arithmetic, product, c);
}

}  // namespace grt::kernels::conv

#endif  // GRAPHRT_KERNELS_CONV_DEPTHWISE_CHANNELS_H_
