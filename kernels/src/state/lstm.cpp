// UNIDIRECTIONAL_SEQUENCE_LSTM in float32, as TFLM's float path (lstm_eval): no peephole,
// projection or layer normalisation. Per time step, for gates i, f, o (sigmoid) and the
// cell gate g (tanh): gate = (W_x . x_t + bias) + W_h . h; then c = f * c + i * g, clipped
// to [-cell_clip, cell_clip] when cell_clip > 0, and h = o * tanh(c), which is also the
// step's output. h and c are State tensors: they carry over to the next run.
//
// lstm_f32 arguments: 0..6 as in lstm_shape.h (all float32), then
//   7 Int time_major (0 or 1), 8 Float cell_clip (0: none)
// No workspace: each cell's four gates are computed and used at once, its new h written to
// the step's output row, and h takes the row only when every cell has read the old h.
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel_args.h"
#include "lstm_shape.h"

namespace {

using grt::kernels::ArgCheck;
using grt::kernels::ElementType;
using grt::kernels::data_of;
using grt::kernels::tensor_at;
using grt::kernels::lstm::gate_block;
using grt::kernels::lstm::kGates;
using grt::kernels::lstm::LstmShape;
namespace lstm = grt::kernels::lstm;

constexpr int kTimeMajor = 7;
constexpr int kCellClip = 8;
constexpr int kArgCount = 9;

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
  check.count(kArgCount).integer(kTimeMajor, 0, 1).real(kCellClip);
  if (!check.ok()) return check.result();
  const ElementType f32 = ElementType::kFloat32;
  lstm::check_lstm_operands(check, args, {f32, f32, f32, f32}, grt::kernels::int_at(args, kTimeMajor) != 0);
  return check.result();
}

GRT_KERNEL_FUNCTION(lstm_f32) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const LstmShape s = lstm::shape_of(args, grt::kernels::int_at(args, kTimeMajor) != 0);
  const float* x = data_of<const float>(tensor_at(args, 0));
  const float* weights[kGates];
  const float* recurrent[kGates];
  const float* bias[kGates];
  for (int gate = 0; gate < kGates; ++gate) {
    weights[gate] = gate_block<float>(args, lstm::kWeights, gate);
    recurrent[gate] = gate_block<float>(args, lstm::kRecurrent, gate);
    bias[gate] = gate_block<float>(args, lstm::kBias, gate);
  }
  float* h_state = data_of<float>(tensor_at(args, lstm::kHState));
  float* c_state = data_of<float>(tensor_at(args, lstm::kCState));
  float* y = data_of<float>(tensor_at(args, lstm::kOutput));
  const float clip = static_cast<float>(grt::kernels::real_at(args, kCellClip));

  for (int b = 0; b < s.batch; ++b) {
    float* h = h_state + b * s.cells;
    float* c = c_state + b * s.cells;
    for (int t = 0; t < s.time; ++t) {
      const int row = s.row(b, t);
      const float* v = x + static_cast<ptrdiff_t>(row) * s.input;
      // Every gate reads the previous h: the new one goes to the output row first.
      float* out = y + static_cast<ptrdiff_t>(row) * s.cells;
      for (int u = 0; u < s.cells; ++u) {
        float gates[kGates];  // i, f, g, o of cell u
        for (int gate = 0; gate < kGates; ++gate) {
          const float sum = gate_sum(weights[gate] + static_cast<ptrdiff_t>(u) * s.input, v, s.input, bias[gate][u],
                                     recurrent[gate] + static_cast<ptrdiff_t>(u) * s.cells, h, s.cells);
          gates[gate] = gate == 2 ? tanhf(sum) : sigmoid(sum);
        }
        float cell = c[u] * gates[1];
        cell += gates[0] * gates[2];
        if (clip > 0.0f) cell = cell < -clip ? -clip : (cell > clip ? clip : cell);
        c[u] = cell;
        out[u] = gates[3] * tanhf(cell);
      }
      for (int u = 0; u < s.cells; ++u) h[u] = out[u];  // every cell has read the old h
    }
  }
  return 0;
}
