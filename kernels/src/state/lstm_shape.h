// The operand layout every UNIDIRECTIONAL_SEQUENCE_LSTM kernel shares (lstm_f32, lstm_s8,
// lstm_s16), its shape checks and the row of a (batch, time) step:
//   0 in X [batch, time, input] ([time, batch, input] when time major)
//   1..4 in input weights of gates i, f, g, o [cells, input]
//   5..8 in recurrent weights of gates i, f, g, o [cells, cells]
//   9..12 in biases of gates i, f, g, o [cells]
//   13 out h state [batch, cells], 14 out c state [batch, cells] (State tensors)
//   15 out Y [batch, time, cells] ([time, batch, cells] when time major)
#ifndef GRAPHRT_KERNELS_STATE_LSTM_SHAPE_H_
#define GRAPHRT_KERNELS_STATE_LSTM_SHAPE_H_

#include <stdint.h>

#include "../kernel_args.h"

namespace grt::kernels::lstm {

constexpr int kGates = 4;  // i, f, g, o
constexpr int kHState = 13;
constexpr int kCState = 14;
constexpr int kOutput = 15;

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
  s.cells = static_cast<int>(tensor_at(args, 1)->shape[0]);
  return s;
}

struct LstmTypes {
  ElementType activation, weight, bias, cell;
};

// Dtypes and ranks of arguments 0..15, then every shape against X and the weights.
inline void check_lstm_operands(ArgCheck& check, TVMValue* args, LstmTypes types, bool time_major) {
  check.tensor(0, types.activation, 3);
  for (int i = 1; i <= 8; ++i) check.tensor(i, types.weight, 2);
  for (int i = 9; i <= 12; ++i) check.tensor(i, types.bias, 1);
  check.tensor(kHState, types.activation, 2).tensor(kCState, types.cell, 2).tensor(kOutput, types.activation, 3);
  if (!check.ok()) return;
  const LstmShape s = shape_of(args, time_major);
  check.expect(s.cells >= 1 && s.cells < (1 << 20), "cells must be in [1, 2^20)");
  check.expect(s.batch >= 1 && s.time >= 1 && s.input >= 1 && s.input < (1 << 24) && int64_t{s.batch} * s.time < (1 << 24),
               "input must be [batch, time, input]");
  for (int gate = 0; gate < kGates && check.ok(); ++gate) {
    const DLTensor* w = tensor_at(args, 1 + gate);
    const DLTensor* r = tensor_at(args, 5 + gate);
    const DLTensor* b = tensor_at(args, 9 + gate);
    check.expect(w->shape[0] == s.cells && w->shape[1] == s.input, "input weights must be [cells, input]");
    check.expect(r->shape[0] == s.cells && r->shape[1] == s.cells, "recurrent weights must be [cells, cells]");
    check.expect(b->shape[0] == s.cells, "biases must be [cells]");
  }
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
