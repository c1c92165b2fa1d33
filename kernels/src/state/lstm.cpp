// UNIDIRECTIONAL_SEQUENCE_LSTM in float32, as TFLM's float path (lstm_eval): no peephole,
// projection or layer normalisation. Per time step, for gates i, f, o (sigmoid) and the
// cell gate g (tanh): gate = (W_x . x_t + bias) + W_h . h; then c = f * c + i * g, clipped
// to [-cell_clip, cell_clip] when cell_clip > 0, and h = o * tanh(c), which is also the
// step's output. h and c are State tensors: they carry over to the next run.
//
// lstm_f32 arguments:
//   0 in X [batch, time, input] ([time, batch, input] when time_major)
//   1..4 in input weights of gates i, f, g, o [cells, input]
//   5..8 in recurrent weights of gates i, f, g, o [cells, cells]
//   9..12 in biases of gates i, f, g, o [cells]
//   13 out h state [batch, cells], 14 out c state [batch, cells] (State tensors)
//   15 out Y [batch, time, cells] ([time, batch, cells] when time_major)
//   16 Int time_major (0 or 1), 17 Float cell_clip (0: none)
// Workspace: 4 * cells floats (one step's gate values), from TVMBackendAllocWorkspace.
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel_args.h"

namespace {

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
using grt::kernels::data_of;
using grt::kernels::tensor_at;

constexpr int kGates = 4;  // i, f, g, o

struct LstmShape {
  int batch, time, input, cells;
  bool time_major;
};

LstmShape shape_of(TVMValue* args) {
  const DLTensor* x = tensor_at(args, 0);
  LstmShape s;
  s.time_major = grt::kernels::int_at(args, 16) != 0;
  s.batch = static_cast<int>(x->shape[s.time_major ? 1 : 0]);
  s.time = static_cast<int>(x->shape[s.time_major ? 0 : 1]);
  s.input = static_cast<int>(x->shape[2]);
  s.cells = static_cast<int>(tensor_at(args, 1)->shape[0]);
  return s;
}

// (W . v + bias) + R . h for one gate's row, in the reference's order of additions.
inline float gate_sum(const float* w, const float* v, int input, float bias, const float* r, const float* h, int cells) {
  float from_input = 0.0f;
  for (int k = 0; k < input; ++k) from_input += v[k] * w[k];
  from_input += bias;
  float from_state = 0.0f;
  for (int k = 0; k < cells; ++k) from_state += h[k] * r[k];
  return from_input + from_state;
}

inline float sigmoid(float v) { return 1.0f / (1.0f + expf(-v)); }

}  // namespace

GRT_CHECK_FUNCTION(lstm_f32) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  ArgCheck check("lstm_f32", args, type_codes, num_args);
  check.count(18).tensor(0, ElementType::kFloat32, 3);
  for (int i = 1; i <= 8; ++i) check.tensor(i, ElementType::kFloat32, 2);
  for (int i = 9; i <= 12; ++i) check.tensor(i, ElementType::kFloat32, 1);
  check.tensor(13, ElementType::kFloat32, 2).tensor(14, ElementType::kFloat32, 2).tensor(15, ElementType::kFloat32, 3);
  check.integer(16, 0, 1).real(17);
  if (!check.ok()) return check.result();
  const LstmShape s = shape_of(args);
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
  for (int i = 13; i <= 14 && check.ok(); ++i) {
    const DLTensor* state = tensor_at(args, i);
    check.expect(state->shape[0] == s.batch && state->shape[1] == s.cells, "h and c states must be [batch, cells]");
  }
  if (!check.ok()) return check.result();
  const DLTensor* y = tensor_at(args, 15);
  const bool y_fits = y->shape[0] == (s.time_major ? s.time : s.batch) && y->shape[1] == (s.time_major ? s.batch : s.time) &&
                      y->shape[2] == s.cells;
  check.expect(y_fits, "output must be [batch, time, cells] (time major: [time, batch, cells])");
  return check.result();
}

GRT_KERNEL_FUNCTION(lstm_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const LstmShape s = shape_of(args);
  const float* x = data_of<const float>(tensor_at(args, 0));
  const float* weights[kGates];
  const float* recurrent[kGates];
  const float* bias[kGates];
  for (int gate = 0; gate < kGates; ++gate) {
    weights[gate] = data_of<const float>(tensor_at(args, 1 + gate));
    recurrent[gate] = data_of<const float>(tensor_at(args, 5 + gate));
    bias[gate] = data_of<const float>(tensor_at(args, 9 + gate));
  }
  float* h_state = data_of<float>(tensor_at(args, 13));
  float* c_state = data_of<float>(tensor_at(args, 14));
  float* y = data_of<float>(tensor_at(args, 15));
  const float clip = static_cast<float>(grt::kernels::real_at(args, 17));

  float* gates = static_cast<float*>(
      TVMBackendAllocWorkspace(kDLCPU, 0, static_cast<uint64_t>(kGates) * static_cast<uint64_t>(s.cells) * sizeof(float), kDLFloat, 32));
  if (gates == nullptr) return -1;  // the backend has set the error
  float* const input_gate = gates;
  float* const forget_gate = gates + s.cells;
  float* const cell_gate = gates + 2 * s.cells;
  float* const output_gate = gates + 3 * s.cells;
  for (int b = 0; b < s.batch; ++b) {
    float* h = h_state + b * s.cells;
    float* c = c_state + b * s.cells;
    for (int t = 0; t < s.time; ++t) {
      const int row = s.time_major ? t * s.batch + b : b * s.time + t;
      const float* v = x + static_cast<ptrdiff_t>(row) * s.input;
      // Every gate reads the previous h: all four first, then the state update.
      for (int gate = 0; gate < kGates; ++gate) {
        for (int u = 0; u < s.cells; ++u) {
          const float sum = gate_sum(weights[gate] + static_cast<ptrdiff_t>(u) * s.input, v, s.input, bias[gate][u],
                                     recurrent[gate] + static_cast<ptrdiff_t>(u) * s.cells, h, s.cells);
          gates[gate * s.cells + u] = gate == 2 ? tanhf(sum) : sigmoid(sum);
        }
      }
      float* out = y + static_cast<ptrdiff_t>(row) * s.cells;
      for (int u = 0; u < s.cells; ++u) {
        float cell = c[u] * forget_gate[u];
        cell += input_gate[u] * cell_gate[u];
        if (clip > 0.0f) cell = cell < -clip ? -clip : (cell > clip ? clip : cell);
        c[u] = cell;
        h[u] = output_gate[u] * tanhf(cell);
        out[u] = h[u];
      }
    }
  }
  TVMBackendFreeWorkspace(kDLCPU, 0, gates);
  return 0;
}
