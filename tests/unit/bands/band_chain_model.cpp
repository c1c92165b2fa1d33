#include "band_chain_model.h"

#include <random>
#include <string>
#include <vector>

namespace grt::test {
namespace {

using tools::ArgDef;
using tools::DType;
using tools::ModelDef;


// A conv2d_s8 (or depthwise) node of a k x k filter writing `out` from `in`.
void add_convolution(ModelDef* m, bool depthwise, uint32_t in, uint32_t out, int64_t k, int64_t stride, int64_t pad, uint32_t seed) {
  const auto& x = m->tensors[in];
  const auto& y = m->tensors[out];
  const int64_t cin = x.shape[3];
  const int64_t cout = y.shape[3];
  const std::vector<int64_t> filter_shape = depthwise ? std::vector<int64_t>{1, k, k, cout} : std::vector<int64_t>{cout, k, k, cin};
  const size_t filter_size = static_cast<size_t>(filter_shape[0] * k * k * filter_shape[3]);
  const std::string name = m->tensors[out].name;
  const uint32_t filter = m->add_constant_values(name + " filter", DType::Int8, filter_shape, random_bytes(filter_size, seed));
  std::vector<int32_t> bias(static_cast<size_t>(cout));
  for (size_t c = 0; c < bias.size(); ++c) bias[c] = static_cast<int32_t>(c * 37) - 500;
  const uint32_t b = m->add_constant_values(name + " bias", DType::Int32, {cout}, bias);
  const uint32_t multipliers = m->add_int_array(name + " multipliers", std::vector<int32_t>(static_cast<size_t>(cout), 1 << 30));
  const uint32_t shifts = m->add_int_array(name + " shifts", std::vector<int32_t>(static_cast<size_t>(cout), depthwise ? -5 : -8));
  m->add_node(depthwise ? "depthwise_conv2d_s8" : "conv2d_s8",
              {ArgDef::input(in), ArgDef::input(filter), ArgDef::input(b), ArgDef::output(out), ArgDef::int_array(multipliers),
               ArgDef::int_array(shifts), ArgDef::integer(stride), ArgDef::integer(stride), ArgDef::integer(1), ArgDef::integer(1),
               ArgDef::integer(pad), ArgDef::integer(pad), ArgDef::integer(3), ArgDef::integer(-2), ArgDef::integer(-128),
               ArgDef::integer(127)},
              name);
}

void add_add(ModelDef* m, uint32_t a, uint32_t b, uint32_t out) {
  m->add_node("add_s8",
              {ArgDef::input(a), ArgDef::input(b), ArgDef::output(out), ArgDef::integer(20), ArgDef::integer(1),
               ArgDef::integer(1 << 30), ArgDef::integer(0), ArgDef::integer(-3), ArgDef::integer(1 << 30), ArgDef::integer(-1),
               ArgDef::integer(2), ArgDef::integer(1 << 30), ArgDef::integer(-20), ArgDef::integer(-128), ArgDef::integer(127)},
              "add");
}

}  // namespace

std::vector<int8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int8_t> v(n);
  for (auto& b : v) b = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
  return v;
}

// x [1, 15, 13, 3] -> conv 3x3 stride 2, SAME (pad 1 top and left: 15 rows to 8) -> c [1, 8, 7, 16]
// -> depthwise 3x3 pad 1 -> d -> conv 1x1 -> p; y = p + c (residual) -> max pool 2x2 stride 1 (pad 0)
// -> z [1, 7, 6, 16] -> conv 3x3 pad 1 -> out (a node after the chain that reads its output).
ModelDef band_chain_model() {
  ModelDef m;
  m.name = "band_chain";
  m.producer = "graphrt tests";
  const uint32_t x = m.add_activation("x", DType::Int8, {1, 15, 13, 3});
  const uint32_t c = m.add_activation("c", DType::Int8, {1, 8, 7, 16});
  const uint32_t d = m.add_activation("d", DType::Int8, {1, 8, 7, 16});
  const uint32_t p = m.add_activation("p", DType::Int8, {1, 8, 7, 16});
  const uint32_t y = m.add_activation("y", DType::Int8, {1, 8, 7, 16});
  const uint32_t z = m.add_activation("z", DType::Int8, {1, 7, 6, 16});
  const uint32_t out = m.add_activation("out", DType::Int8, {1, 7, 6, 4});
  m.inputs = {x};
  add_convolution(&m, false, x, c, 3, 2, 1, 1);
  add_convolution(&m, true, c, d, 3, 1, 1, 2);
  add_convolution(&m, false, d, p, 1, 1, 0, 3);
  add_add(&m, p, c, y);
  m.add_node("max_pool2d_s8", {ArgDef::input(y), ArgDef::output(z), ArgDef::integer(1), ArgDef::integer(1), ArgDef::integer(2),
                               ArgDef::integer(2), ArgDef::integer(0), ArgDef::integer(0), ArgDef::integer(-128), ArgDef::integer(127)},
             "pool");
  add_convolution(&m, false, z, out, 3, 1, 1, 4);
  m.outputs = {out};
  return m;
}

ModelDef band_tail_model(Tail tail) {
  ModelDef m;
  m.name = "band_tail";
  m.producer = "graphrt tests";
  const uint32_t x = m.add_activation("x", DType::Int8, {1, 15, 13, 3});
  const uint32_t c = m.add_activation("c", DType::Int8, {1, 8, 7, 16});
  const uint32_t d = m.add_activation("d", DType::Int8, {1, 8, 7, 16});
  m.inputs = {x};
  add_convolution(&m, false, x, c, 3, 2, 1, 1);
  add_convolution(&m, true, c, d, 3, 1, 1, 2);
  if (tail == Tail::kAveragePool) {
    const uint32_t y = m.add_activation("y", DType::Int8, {1, 1, 1, 16});
    m.add_node("average_pool2d_s8", {ArgDef::input(d), ArgDef::output(y), ArgDef::integer(1), ArgDef::integer(1), ArgDef::integer(8),
                                     ArgDef::integer(7), ArgDef::integer(0), ArgDef::integer(0), ArgDef::integer(-128), ArgDef::integer(127)},
               "pool");
    m.outputs = {y};
    return m;
  }
  constexpr int64_t kUnits = 10, kDepth = 8 * 7 * 16;
  const uint32_t w = m.add_constant_values("fc weights", DType::Int8, {kUnits, kDepth}, random_bytes(kUnits * kDepth, 5));
  std::vector<int32_t> bias(kUnits);
  for (size_t u = 0; u < bias.size(); ++u) bias[u] = static_cast<int32_t>(u * 911) - 4000;
  const uint32_t b = m.add_constant_values("fc bias", DType::Int32, {kUnits}, bias);
  const uint32_t requantization = m.add_int_array("fc requantization", {1 << 30, -9});
  const uint32_t y = m.add_activation("y", DType::Int8, {1, kUnits});
  m.add_node("fully_connected_s8",
             {ArgDef::input(d), ArgDef::input(w), ArgDef::input(b), ArgDef::output(y), ArgDef::int_array(requantization),
              ArgDef::integer(5), ArgDef::integer(-1), ArgDef::integer(2), ArgDef::integer(-128), ArgDef::integer(127)},
             "fc");
  m.outputs = {y};
  return m;
}

ModelDef strided_chain_model() {
  ModelDef m;
  m.name = "strided_chain";
  m.producer = "graphrt tests";
  const uint32_t x = m.add_activation("x", DType::Int8, {1, 16, 8, 4});
  const uint32_t a = m.add_activation("a", DType::Int8, {1, 16, 8, 8});
  const uint32_t b = m.add_activation("b", DType::Int8, {1, 8, 4, 8});
  const uint32_t c = m.add_activation("c", DType::Int8, {1, 8, 4, 8});
  const uint32_t d = m.add_activation("d", DType::Int8, {1, 4, 2, 8});
  const uint32_t out = m.add_activation("out", DType::Int8, {1, 4, 2, 8});
  m.inputs = {x};
  add_convolution(&m, false, x, a, 3, 1, 1, 21);
  add_convolution(&m, true, a, b, 3, 2, 1, 22);
  add_convolution(&m, false, b, c, 1, 1, 0, 23);
  add_convolution(&m, true, c, d, 3, 2, 1, 24);
  add_convolution(&m, false, d, out, 1, 1, 0, 25);
  m.outputs = {out};
  return m;
}

ModelDef mobilenet_chain_model() {
  ModelDef m;
  m.name = "mobilenet_chain";
  m.producer = "graphrt tests";
  const uint32_t x = m.add_activation("x", DType::Int8, {1, 32, 32, 3});
  m.inputs = {x};
  // Depthwise (stride) then pointwise (channels out), after a first 3x3 stride-2 convolution.
  struct Pair {
    int64_t stride, channels;
  };
  uint32_t in = m.add_activation("c0", DType::Int8, {1, 16, 16, 8});
  add_convolution(&m, false, x, in, 3, 2, 1, 30);
  uint32_t seed = 31;
  for (const Pair pair : {Pair{1, 16}, Pair{2, 32}, Pair{1, 32}, Pair{2, 64}, Pair{1, 64}}) {
    const auto& t = m.tensors[in];
    const int64_t h = t.shape[1] / pair.stride, c = t.shape[3];
    const std::string layer = std::to_string(seed - 30);
    const uint32_t d = m.add_activation("d" + layer, DType::Int8, {1, h, h, c});
    add_convolution(&m, true, in, d, 3, pair.stride, 1, seed++);
    const uint32_t p = m.add_activation("p" + layer, DType::Int8, {1, h, h, pair.channels});
    add_convolution(&m, false, d, p, 1, 1, 0, seed++);
    in = p;
  }
  const uint32_t out = m.add_activation("out", DType::Int8, {1, 2, 2, 64});
  add_convolution(&m, true, in, out, 3, 2, 1, seed);
  m.outputs = {out};
  return m;
}

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

ModelDef lstm_sequence_model(bool time_major, bool y_is_output) {
  constexpr int64_t kSteps = kSequenceSteps, kCells = kSequenceCells, kFeatures = 3, kUnits = 5;
  ModelDef m;
  const std::vector<int64_t> x_shape = time_major ? std::vector<int64_t>{kSteps, 1, kFeatures} : std::vector<int64_t>{1, kSteps, kFeatures};
  const std::vector<int64_t> y_shape = time_major ? std::vector<int64_t>{kSteps, 1, kCells} : std::vector<int64_t>{1, kSteps, kCells};
  const uint32_t x = m.add_activation("x", DType::Float32, x_shape);
  const uint32_t w = m.add_constant_values("w", DType::Float32, {4, kCells, kFeatures}, random_floats(4 * kCells * kFeatures, 1));
  const uint32_t r = m.add_constant_values("r", DType::Float32, {4, kCells, kCells}, random_floats(4 * kCells * kCells, 2));
  const uint32_t b = m.add_constant_values("b", DType::Float32, {4, kCells}, random_floats(4 * kCells, 3));
  const uint32_t h = m.add_state("h", DType::Float32, {1, kCells}, {});
  const uint32_t c = m.add_state("c", DType::Float32, {1, kCells}, {});
  const uint32_t y = m.add_activation("y", DType::Float32, y_shape);
  m.add_node("lstm_f32",
             {ArgDef::input(x), ArgDef::input(w), ArgDef::input(r), ArgDef::input(b), ArgDef::output(h), ArgDef::output(c),
              ArgDef::output(y), ArgDef::integer(time_major ? 1 : 0), ArgDef::real(0.0)},
             "lstm");
  const uint32_t flat = m.add_alias("y flat", y, {1, kSteps * kCells});
  const uint32_t fw = m.add_constant_values("fc w", DType::Float32, {kUnits, kSteps * kCells}, random_floats(kUnits * kSteps * kCells, 4));
  const uint32_t fb = m.add_constant_values("fc b", DType::Float32, {kUnits}, random_floats(kUnits, 5));
  const uint32_t out = m.add_activation("out", DType::Float32, {1, kUnits});
  m.add_node("fully_connected_f32",
             {ArgDef::input(flat), ArgDef::input(fw), ArgDef::input(fb), ArgDef::output(out), ArgDef::real(-1e30), ArgDef::real(1e30)}, "fc");
  m.inputs = {x};
  m.outputs = {out};
  if (y_is_output) m.outputs.push_back(y);
  return m;
}

}  // namespace grt::test
