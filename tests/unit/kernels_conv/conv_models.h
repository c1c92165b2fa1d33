// Single-node convolution models in the kernels' argument layouts (see the comments at the
// top of kernels/src/conv/*.cpp), and deterministic test data.
#ifndef GRAPHRT_TESTS_KERNELS_CONV_CONV_MODELS_H_
#define GRAPHRT_TESTS_KERNELS_CONV_CONV_MODELS_H_

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "reference_conv.h"
#include "single_node.h"

namespace grt::test {

template <typename T>
constexpr tools::DType dtype_of() {
  if constexpr (std::is_same_v<T, int8_t>) return tools::DType::Int8;
  if constexpr (std::is_same_v<T, int16_t>) return tools::DType::Int16;
  if constexpr (std::is_same_v<T, int32_t>) return tools::DType::Int32;
  if constexpr (std::is_same_v<T, int64_t>) return tools::DType::Int64;
  return tools::DType::Float32;
}

// One convolution node: shapes, window, constants and output stage.
template <typename In, typename W, typename B>
struct ConvSpec {
  std::vector<int64_t> input_shape, filter_shape, output_shape;
  ref::Window window;
  std::vector<W> filter;
  std::vector<B> bias;  // empty: no bias (None)
  // Quantized kernels.
  std::vector<int32_t> multipliers, shifts;
  int32_t input_offset = 0, output_offset = 0;
  int64_t activation_min = std::is_integral_v<In> ? int64_t(std::numeric_limits<In>::lowest()) : 0;
  int64_t activation_max = std::is_integral_v<In> ? int64_t(std::numeric_limits<In>::max()) : 0;
  // Float kernels.
  double float_min = std::numeric_limits<float>::lowest();
  double float_max = std::numeric_limits<float>::max();
};

// Shapes and window of one convolution, as the tests list them.
struct Geometry {
  std::vector<int64_t> input, filter, output;
  ref::Window window;
};

// A spec with g's shapes and window; the test adds the constants and output stage.
template <typename Spec>
Spec with_geometry(const Geometry& g) {
  Spec s;
  s.input_shape = g.input;
  s.filter_shape = g.filter;
  s.output_shape = g.output;
  s.window = g.window;
  return s;
}

enum class Layout {
  kQuantizedWithOffsets,  // conv2d_s8, depthwise_conv2d_s8
  kQuantized,             // conv2d_s16
  kFloat,                 // conv2d_f32, depthwise_conv2d_f32
  kTransposed,            // transpose_conv_s16
};

template <typename In, typename W, typename B>
tools::ModelDef conv_model(const std::string& kernel, Layout layout, const ConvSpec<In, W, B>& s) {
  using tools::ArgDef;
  SingleNode n;
  const uint32_t x = n.input(dtype_of<In>(), s.input_shape);
  const uint32_t f = n.constant(dtype_of<W>(), s.filter_shape, s.filter);
  const ArgDef bias = s.bias.empty() ? ArgDef::none()
                                     : ArgDef::input(n.constant(dtype_of<B>(), {int64_t(s.bias.size())}, s.bias));
  const uint32_t y = n.output(dtype_of<In>(), s.output_shape);
  std::vector<ArgDef> args = {ArgDef::input(x), ArgDef::input(f), bias, ArgDef::output(y)};
  if (layout != Layout::kFloat) {
    args.push_back(ArgDef::int_array(n.int_array(s.multipliers)));
    args.push_back(ArgDef::int_array(n.int_array(s.shifts)));
  }
  const ref::Window& w = s.window;
  if (layout == Layout::kTransposed) {
    for (int v : {w.stride_h, w.stride_w, w.pad_top, w.pad_left}) args.push_back(ArgDef::integer(v));
  } else {
    for (int v : {w.stride_h, w.stride_w, w.dilation_h, w.dilation_w, w.pad_top, w.pad_left})
      args.push_back(ArgDef::integer(v));
  }
  if (layout == Layout::kQuantizedWithOffsets) {
    args.push_back(ArgDef::integer(s.input_offset));
    args.push_back(ArgDef::integer(s.output_offset));
  }
  if (layout == Layout::kFloat) {
    args.push_back(ArgDef::real(s.float_min));
    args.push_back(ArgDef::real(s.float_max));
  } else {
    args.push_back(ArgDef::integer(s.activation_min));
    args.push_back(ArgDef::integer(s.activation_max));
  }
  n.call(kernel, std::move(args));
  return n.model;
}

// Expected quantized outputs from reference sums: bias, requantization, offset, clamp.
template <typename In, typename W, typename B>
std::vector<In> finish_quantized(const ConvSpec<In, W, B>& s, const std::vector<int64_t>& sums, bool wide) {
  const int channels = int(s.output_shape[3]);
  std::vector<In> out(sums.size());
  for (size_t i = 0; i < sums.size(); ++i) {
    const int c = int(i % size_t(channels));
    int64_t acc = sums[i] + (s.bias.empty() ? 0 : int64_t(s.bias[size_t(c)]));
    int32_t v = wide ? ref::requantize64(acc, s.multipliers[size_t(c)], s.shifts[size_t(c)])
                     : ref::requantize32(int32_t(acc), s.multipliers[size_t(c)], s.shifts[size_t(c)]);
    v = int32_t(uint32_t(v) + uint32_t(s.output_offset));  // wraps, as TFLM's int32 add does on this target
    v = std::max<int32_t>(v, int32_t(s.activation_min));
    v = std::min<int32_t>(v, int32_t(s.activation_max));
    out[i] = In(v);
  }
  return out;
}

template <typename W, typename B>
std::vector<float> finish_float(const ConvSpec<float, W, B>& s, const std::vector<float>& sums) {
  const int channels = int(s.output_shape[3]);
  std::vector<float> out(sums.size());
  for (size_t i = 0; i < sums.size(); ++i) {
    const float bias = s.bias.empty() ? 0.0f : s.bias[i % size_t(channels)];
    out[i] = std::min(std::max(sums[i] + bias, float(s.float_min)), float(s.float_max));
  }
  return out;
}

// n values spread over [low, high], the same for a given seed.
template <typename T>
std::vector<T> pattern(size_t n, uint32_t seed, double low, double high) {
  std::mt19937 engine(seed);
  std::vector<T> v(n);
  for (auto& e : v) {
    const double u = double(engine() % 100000u) / 99999.0;
    const double value = low + u * (high - low);
    if constexpr (std::is_floating_point_v<T>) {
      e = T(value);
    } else {
      e = T(std::llround(value));
    }
  }
  return v;
}

inline size_t elements(const std::vector<int64_t>& shape) {
  size_t n = 1;
  for (int64_t d : shape) n *= size_t(d);
  return n;
}

// The identity requantization (x * 2^30 / 2^31 * 2^1), for hand-checked sums.
constexpr int32_t kHalf = 1 << 30;

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_KERNELS_CONV_CONV_MODELS_H_
