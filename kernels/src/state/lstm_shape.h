// The operand layout every UNIDIRECTIONAL_SEQUENCE_LSTM kernel shares (lstm_f32, lstm_s8,
// lstm_s16), its shape checks and the row of a (batch, time) step:
//   0 in X [batch, time, input] ([time, batch, input] when time major)
//   1 in W: input weights of the four gates stacked, [4, cells, input] in gate order i, f, g, o
//   2 in R: recurrent weights stacked, [4, cells, cells]
//   3 in B: biases stacked, [4, cells]
//   4 out h state [batch, cells], 5 out c state [batch, cells] (State tensors)
//   6 out Y [batch, time, cells] ([time, batch, cells] when time major)
// The gates are stacked so that a node takes 3 tensors where it took 12: the executor's lean
// mode reserves a DLTensor per tensor argument of its largest node.
#ifndef GRAPHRT_KERNELS_STATE_LSTM_SHAPE_H_
#define GRAPHRT_KERNELS_STATE_LSTM_SHAPE_H_

#include <stddef.h>
#include <stdint.h>

#include "../kernel_args.h"

namespace grt::kernels::lstm {

constexpr int kGates = 4;  // i, f, g, o
constexpr int kWeights = 1;
constexpr int kRecurrent = 2;
constexpr int kBias = 3;
constexpr int kHState = 4;
constexpr int kCState = 5;
constexpr int kOutput = 6;

struct LstmShape {
  int batch, time, input, cells;
  bool time_major;
  // The row of X and Y that (batch b, step t) reads and writes.
  int row(int b, int t) const { return time_major ? t * batch + b : b * time + t; }
};

inline LstmShape shape_of(TVMValue* args, bool time_major) {
  const DLTensor* x = tensor_at(args, 0);
  LstmShape s;
  s.time_major = time_major;
  s.batch = static_cast<int>(x->shape[time_major ? 1 : 0]);
  s.time = static_cast<int>(x->shape[time_major ? 0 : 1]);
  s.input = static_cast<int>(x->shape[2]);
  s.cells = static_cast<int>(tensor_at(args, kWeights)->shape[1]);
  return s;
}

// Gate g's block of a stacked tensor (W, R or B): the tensor's data + g quarters of it.
template <typename T>
inline const T* gate_block(TVMValue* args, int i, int gate) {
  const DLTensor* t = tensor_at(args, i);
  return data_of<const T>(t) + static_cast<ptrdiff_t>(element_count(t) / kGates) * gate;
}

struct LstmTypes {
  ElementType activation, weight, bias, cell;
};

// Dtypes and ranks of arguments 0..6, then every shape against X and W.
inline void check_lstm_operands(ArgCheck& check, TVMValue* args, LstmTypes types, bool time_major) {
  check.tensor(0, types.activation, 3).tensor(kWeights, types.weight, 3).tensor(kRecurrent, types.weight, 3);
  check.tensor(kBias, types.bias, 2);
  check.tensor(kHState, types.activation, 2).tensor(kCState, types.cell, 2).tensor(kOutput, types.activation, 3);
  if (!check.ok()) return;
  const DLTensor* w = tensor_at(args, kWeights);
  const DLTensor* r = tensor_at(args, kRecurrent);
  const DLTensor* b = tensor_at(args, kBias);
  check.expect(w->shape[0] == kGates && r->shape[0] == kGates && b->shape[0] == kGates,
               "weights and biases must stack the 4 gates i, f, g, o ([4, ...])");
  if (!check.ok()) return;
  const LstmShape s = shape_of(args, time_major);
  check.expect(s.cells >= 1 && s.cells < (1 << 20), "cells must be in [1, 2^20)");
  check.expect(s.batch >= 1 && s.time >= 1 && s.input >= 1 && s.input < (1 << 24) && int64_t{s.batch} * s.time < (1 << 24),
               "input must be [batch, time, input]");
  if (!check.ok()) return;
  check.expect(w->shape[1] == s.cells && w->shape[2] == s.input, "input weights must be [4, cells, input]");
  check.expect(r->shape[1] == s.cells && r->shape[2] == s.cells, "recurrent weights must be [4, cells, cells]");
  check.expect(b->shape[1] == s.cells, "biases must be [4, cells]");
  for (int i = kHState; i <= kCState && check.ok(); ++i) {
    const DLTensor* state = tensor_at(args, i);
    check.expect(state->shape[0] == s.batch && state->shape[1] == s.cells, "h and c states must be [batch, cells]");
  }
  if (!check.ok()) return;
  const DLTensor* y = tensor_at(args, kOutput);
  const bool y_fits = y->shape[0] == (s.time_major ? s.time : s.batch) && y->shape[1] == (s.time_major ? s.batch : s.time) &&
                      y->shape[2] == s.cells;
  check.expect(y_fits, "output must be [batch, time, cells] (time major: [time, batch, cells])");
}

}  // namespace grt::kernels::lstm

#endif  // GRAPHRT_KERNELS_STATE_LSTM_SHAPE_H_
