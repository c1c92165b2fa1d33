// Integer UNIDIRECTIONAL_SEQUENCE_LSTM, bit-exact with TFLM's reference (lstm_eval.h,
// EvalLstm): lstm_s8 takes int8 activations with int32 biases, lstm_s16 int16 activations
// with int64 biases; both int8 weights and an int16 cell state. No peephole, projection or
// layer normalisation (TFLM has none either).
//
// Per (batch, step), every gate's pre-activation is in Q3.12 (scale 2^-12): the input and
// the recurrent fully-connected products are each requantized to int16 and saturated, then
// added with int16 saturation. i, f, o take the table sigmoid, g the table tanh (TFLite's
// only fused activation for it), both in Q0.15. Then c = sat(f * c) + sat(i * g) (int16 saturating), clipped to the
// quantized cell clip; h = o * tanh(c) requantized to h's scale and zero point, which is
// also the step's output. All multipliers are derived by the importer.
//
// Arguments: 0..15 as in lstm_shape.h (X, h, Y of the activation type; weights int8; biases
// int32 / int64; c int16), then
//   16 in sigmoid table (int16 [256], the Q0.16 table's bits)
//   17 Int time_major (0 or 1)
//   18 + 2g, 19 + 2g  Int multiplier, shift of gate g's input product (g = i, f, g, o)
//   26 + 2g, 27 + 2g  Int multiplier, shift of gate g's recurrent product
//   34, 35 / 36, 37 / 38, 39  Int multiplier, shift of forget * cell / input * cell gate /
//                     output * tanh(c)
//   40 Int input zero point, 41 Int h zero point
//   42 Int, 43 Int    tanh(c) input rescaling: (c * multiplier + rounding) >> shift
//   44 Int quantized cell clip (0: none)
// No workspace: each cell's four gates are computed and used at once, its new h written to
// the step's output row, and h takes the row only when every cell has read the old h.
#include <stddef.h>
#include <stdint.h>

#include "../activation/sigmoid_q15.h"
#include "../kernel_args.h"
#include "../quant_math.h"
#include "lstm_shape.h"

namespace grt::kernels::lstm {
namespace {

constexpr int kTable = 16;
constexpr int kTimeMajor = 17;
constexpr int kInputProduct = 18;
constexpr int kRecurrentProduct = 26;
constexpr int kForgetCell = 34;
constexpr int kInputCellGate = 36;
constexpr int kOutputTanh = 38;
constexpr int kInputZero = 40;
constexpr int kHiddenZero = 41;
constexpr int kCellTanh = 42;
constexpr int kCellClip = 44;
constexpr int kArgCount = 45;
// The gates' pre-activations are in Q3.12: x3 puts 2^9 steps on one table interval of 1/24
// of 3/4 of the input, for both table functions (TFLM's power-of-two case).
constexpr int32_t kGateRescale = 3;

struct Requantize {
  int32_t multiplier;
  int shift;
};

Requantize requantize_at(TVMValue* args, int i) {
  return {static_cast<int32_t>(int_at(args, i)), static_cast<int>(int_at(args, i + 1))};
}

inline int16_t saturate16(int32_t v) { return static_cast<int16_t>(v < INT16_MIN ? INT16_MIN : (v > INT16_MAX ? INT16_MAX : v)); }

// sum_k w[k] * (v[k] + offset): int32 for int8 activations (wrapping as TFLM's on its
// targets), int64 for int16 ones.
inline int32_t dot(const int8_t* w, const int8_t* v, int n, int32_t offset) {
  int32_t acc = 0;
  for (int k = 0; k < n; ++k) acc = wrapping_add(acc, wrapping_mul(w[k], v[k] + offset));
  return acc;
}
inline int64_t dot(const int8_t* w, const int16_t* v, int n, int32_t offset) {
  int64_t acc = 0;
  for (int k = 0; k < n; ++k) acc += int64_t{w[k]} * (v[k] + offset);
  return acc;
}
inline int32_t add_bias(int32_t acc, int32_t bias) { return wrapping_add(acc, bias); }
inline int64_t add_bias(int64_t acc, int64_t bias) { return acc + bias; }

// a * b of two Q0.15 values (or Q0.15 and the cell state) into the given scale.
inline int32_t scaled_product(int16_t a, int16_t b, Requantize r) {
  return multiply_by_quantized_multiplier(int32_t{a} * int32_t{b}, r.multiplier, r.shift);
}

template <typename Act, typename Bias>
struct Operands {
  const Act* x;
  const int8_t* weights[kGates];
  const int8_t* recurrent[kGates];
  const Bias* bias[kGates];
  Act* h_state;
  int16_t* c_state;
  Act* y;
  const uint16_t* table;
  Requantize input_product[kGates], recurrent_product[kGates];
  Requantize forget_cell, input_cell_gate, output_tanh;
  int32_t input_offset, hidden_zero;
  int32_t cell_tanh_multiplier;
  int cell_tanh_shift;
  int16_t cell_clip;

  explicit Operands(TVMValue* args) {
    x = data_of<const Act>(tensor_at(args, 0));
    for (int gate = 0; gate < kGates; ++gate) {
      weights[gate] = data_of<const int8_t>(tensor_at(args, 1 + gate));
      recurrent[gate] = data_of<const int8_t>(tensor_at(args, 5 + gate));
      bias[gate] = data_of<const Bias>(tensor_at(args, 9 + gate));
      input_product[gate] = requantize_at(args, kInputProduct + 2 * gate);
      recurrent_product[gate] = requantize_at(args, kRecurrentProduct + 2 * gate);
    }
    h_state = data_of<Act>(tensor_at(args, kHState));
    c_state = data_of<int16_t>(tensor_at(args, kCState));
    y = data_of<Act>(tensor_at(args, kOutput));
    table = data_of<const uint16_t>(tensor_at(args, kTable));
    forget_cell = requantize_at(args, kForgetCell);
    input_cell_gate = requantize_at(args, kInputCellGate);
    output_tanh = requantize_at(args, kOutputTanh);
    input_offset = -static_cast<int32_t>(int_at(args, kInputZero));
    hidden_zero = static_cast<int32_t>(int_at(args, kHiddenZero));
    cell_tanh_multiplier = static_cast<int32_t>(int_at(args, kCellTanh));
    cell_tanh_shift = static_cast<int>(int_at(args, kCellTanh + 1));
    cell_clip = static_cast<int16_t>(int_at(args, kCellClip));
  }
};

// One step of one batch row: v is the step's input, h and c the row's states, out its output.
template <typename Act, typename Bias>
void step(const Operands<Act, Bias>& p, const LstmShape& s, const Act* v, Act* h, int16_t* c, Act* out) {
  const int32_t round = p.cell_tanh_shift > 0 ? int32_t{1} << (p.cell_tanh_shift - 1) : 0;
  for (int u = 0; u < s.cells; ++u) {
    int16_t gates[kGates];  // i, f, g, o of cell u
    for (int gate = 0; gate < kGates; ++gate) {
      const bool tanh_gate = gate == 2;
      const auto from_input = add_bias(dot(p.weights[gate] + static_cast<ptrdiff_t>(u) * s.input, v, s.input, p.input_offset),
                                       p.bias[gate][u]);
      const auto from_state = dot(p.recurrent[gate] + static_cast<ptrdiff_t>(u) * s.cells, h, s.cells, -p.hidden_zero);
      const int16_t input_part =
          saturate16(multiply_by_quantized_multiplier(from_input, p.input_product[gate].multiplier, p.input_product[gate].shift));
      const int16_t state_part = saturate16(
          multiply_by_quantized_multiplier(from_state, p.recurrent_product[gate].multiplier, p.recurrent_product[gate].shift));
      const int32_t pre_activation = saturate16(int32_t{input_part} + int32_t{state_part}) * kGateRescale;
      gates[gate] = tanh_gate ? activation::tanh_value(p.table, pre_activation) : activation::logistic_value(p.table, pre_activation);
    }
    const int16_t kept = saturate16(scaled_product(gates[1], c[u], p.forget_cell));
    const int16_t added = saturate16(scaled_product(gates[0], gates[2], p.input_cell_gate));
    int16_t cell = saturate16(int32_t{kept} + int32_t{added});
    if (p.cell_clip > 0) cell = cell > p.cell_clip ? p.cell_clip : (cell < -p.cell_clip ? static_cast<int16_t>(-p.cell_clip) : cell);
    c[u] = cell;
    const int16_t squashed = activation::tanh_value(p.table, (int32_t{cell} * p.cell_tanh_multiplier + round) >> p.cell_tanh_shift);
    const int32_t hidden = scaled_product(squashed, gates[3], p.output_tanh) + p.hidden_zero;
    const int32_t low = quantized_min<Act>();
    const int32_t high = quantized_max<Act>();
    out[u] = static_cast<Act>(hidden < low ? low : (hidden > high ? high : hidden));
  }
  for (int u = 0; u < s.cells; ++u) h[u] = out[u];  // every cell has read the old h
}

template <typename Act, typename Bias>
int run(TVMValue* args) {
  const LstmShape s = shape_of(args, int_at(args, kTimeMajor) != 0);
  const Operands<Act, Bias> p(args);
  // Batch rows are independent, so TFLM's time-major batching gives the same values.
  for (int b = 0; b < s.batch; ++b) {
    Act* h = p.h_state + static_cast<ptrdiff_t>(b) * s.cells;
    int16_t* c = p.c_state + static_cast<ptrdiff_t>(b) * s.cells;
    for (int t = 0; t < s.time; ++t) {
      const int row = s.row(b, t);
      step(p, s, p.x + static_cast<ptrdiff_t>(row) * s.input, h, c, p.y + static_cast<ptrdiff_t>(row) * s.cells);
    }
  }
  return 0;
}

int check(const char* name, TVMValue* args, int* codes, int count, ElementType activation, ElementType bias) {
  ArgCheck c(name, args, codes, count);
  c.count(kArgCount).tensor(kTable, ElementType::kInt16, 1).integer(kTimeMajor, 0, 1);
  for (int gate = 0; gate < kGates; ++gate) {
    c.integer(kInputProduct + 2 * gate, 0, INT32_MAX).integer(kInputProduct + 2 * gate + 1, -31, bias == ElementType::kInt64 ? 7 : 30);
    c.integer(kRecurrentProduct + 2 * gate, 0, INT32_MAX).integer(kRecurrentProduct + 2 * gate + 1, -31, bias == ElementType::kInt64 ? 7 : 30);
  }
  const int products[] = {kForgetCell, kInputCellGate, kOutputTanh};
  for (const int product : products) c.integer(product, 0, INT32_MAX).integer(product + 1, -31, 30);
  const int64_t low = activation == ElementType::kInt8 ? INT8_MIN : INT16_MIN;
  const int64_t high = activation == ElementType::kInt8 ? INT8_MAX : INT16_MAX;
  c.integer(kInputZero, low, high).integer(kHiddenZero, low, high);
  c.integer(kCellTanh, 0, INT16_MAX).integer(kCellTanh + 1, 0, 16).integer(kCellClip, 0, INT16_MAX);
  if (!c.ok()) return c.result();
  c.expect(element_count(tensor_at(args, kTable)) == 256, "the sigmoid table must have 256 entries");
  check_lstm_operands(c, args, {activation, ElementType::kInt8, bias, ElementType::kInt16}, int_at(args, kTimeMajor) != 0);
  return c.result();
}

}  // namespace
}  // namespace grt::kernels::lstm

GRT_CHECK_FUNCTION(lstm_s8) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using grt::kernels::ElementType;
  return grt::kernels::lstm::check("lstm_s8", args, type_codes, num_args, ElementType::kInt8, ElementType::kInt32);
}

GRT_KERNEL_FUNCTION(lstm_s8) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::lstm::run<int8_t, int32_t>(args);
}

GRT_CHECK_FUNCTION(lstm_s16) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using grt::kernels::ElementType;
  return grt::kernels::lstm::check("lstm_s16", args, type_codes, num_args, ElementType::kInt16, ElementType::kInt64);
}

GRT_KERNEL_FUNCTION(lstm_s16) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  return grt::kernels::lstm::run<int16_t, int64_t>(args);
}
