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
// Arguments: 0..6 as in lstm_shape.h (X, h, Y of the activation type; W, R int8; B int32 /
// int64; c int16), then
//   7 in sigmoid table (int16 [256], the Q0.16 table's bits)
//   8 IntArray parameters (int32 [28]), the scalars in one array (a node's argument count
//     costs the executor 12 B each in its lean mode):
//     0 time_major (0 or 1)
//     1 + 2g, 2 + 2g    multiplier, shift of gate g's input product (g = i, f, g, o)
//     9 + 2g, 10 + 2g   multiplier, shift of gate g's recurrent product
//     17, 18 / 19, 20 / 21, 22  multiplier, shift of forget * cell / input * cell gate /
//                       output * tanh(c)
//     23 input zero point, 24 h zero point
//     25, 26            tanh(c) input rescaling: (c * multiplier + rounding) >> shift
//     27 quantized cell clip (0: none)
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

constexpr int kTable = 7;
constexpr int kParameters = 8;
constexpr int kArgCount = 9;
// Fields of the parameters array.
constexpr int kTimeMajor = 0;
constexpr int kInputProduct = 1;
constexpr int kRecurrentProduct = 9;
constexpr int kForgetCell = 17;
constexpr int kInputCellGate = 19;
constexpr int kOutputTanh = 21;
constexpr int kInputZero = 23;
constexpr int kHiddenZero = 24;
constexpr int kCellTanh = 25;
constexpr int kCellClip = 27;
constexpr int kParameterCount = 28;
// The gates' pre-activations are in Q3.12: x3 puts 2^9 steps on one table interval of 1/24
// of 3/4 of the input, for both table functions (TFLM's power-of-two case).
constexpr int32_t kGateRescale = 3;

struct Requantize {
  int32_t multiplier;
  int shift;
};

// The parameters array; its check has run.
const int32_t* parameters_of(TVMValue* args) { return data_of<const int32_t>(tensor_at(args, kParameters)); }

Requantize requantize_at(const int32_t* p, int i) { return {p[i], static_cast<int>(p[i + 1])}; }

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
    const int32_t* p = parameters_of(args);
    x = data_of<const Act>(tensor_at(args, 0));
    for (int gate = 0; gate < kGates; ++gate) {
      weights[gate] = gate_block<int8_t>(args, kWeights, gate);
      recurrent[gate] = gate_block<int8_t>(args, kRecurrent, gate);
      bias[gate] = gate_block<Bias>(args, kBias, gate);
      input_product[gate] = requantize_at(p, kInputProduct + 2 * gate);
      recurrent_product[gate] = requantize_at(p, kRecurrentProduct + 2 * gate);
    }
    h_state = data_of<Act>(tensor_at(args, kHState));
    c_state = data_of<int16_t>(tensor_at(args, kCState));
    y = data_of<Act>(tensor_at(args, kOutput));
    table = data_of<const uint16_t>(tensor_at(args, kTable));
    forget_cell = requantize_at(p, kForgetCell);
    input_cell_gate = requantize_at(p, kInputCellGate);
    output_tanh = requantize_at(p, kOutputTanh);
    input_offset = -p[kInputZero];
    hidden_zero = p[kHiddenZero];
    cell_tanh_multiplier = p[kCellTanh];
    cell_tanh_shift = static_cast<int>(p[kCellTanh + 1]);
    cell_clip = static_cast<int16_t>(p[kCellClip]);
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
  const LstmShape s = shape_of(args, parameters_of(args)[kTimeMajor] != 0);
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

inline bool within(int32_t v, int64_t low, int64_t high) { return v >= low && v <= high; }

// Every field of the parameters array in the range the arithmetic above takes. The int16
// kernel's gate products accumulate in int64: their shifts stop at 7.
void check_parameters(ArgCheck& c, const int32_t* p, ElementType activation) {
  const bool wide = activation == ElementType::kInt16;
  c.expect(within(p[kTimeMajor], 0, 1), "parameters: time_major must be 0 or 1");
  const int gate_products[] = {kInputProduct, kRecurrentProduct};
  for (const int product : gate_products) {
    for (int gate = 0; gate < kGates; ++gate) {
      const int at = product + 2 * gate;
      c.expect(p[at] >= 0, "parameters: a gate product's multiplier is negative");
      c.expect(within(p[at + 1], -31, wide ? 7 : 30),
               wide ? "parameters: gate product shifts must lie in [-31, 7]" : "parameters: gate product shifts must lie in [-31, 30]");
    }
  }
  const int cell_products[] = {kForgetCell, kInputCellGate, kOutputTanh};
  for (const int product : cell_products) {
    c.expect(p[product] >= 0, "parameters: a cell product's multiplier is negative");
    c.expect(within(p[product + 1], -31, 30), "parameters: cell product shifts must lie in [-31, 30]");
  }
  const int64_t low = wide ? INT16_MIN : INT8_MIN;
  const int64_t high = wide ? INT16_MAX : INT8_MAX;
  c.expect(within(p[kInputZero], low, high) && within(p[kHiddenZero], low, high),
           "parameters: zero points must lie in the activation type's range");
  c.expect(within(p[kCellTanh], 0, INT16_MAX), "parameters: the tanh(c) multiplier must lie in [0, 32767]");
  c.expect(within(p[kCellTanh + 1], 0, 16), "parameters: the tanh(c) shift must lie in [0, 16]");
  c.expect(within(p[kCellClip], 0, INT16_MAX), "parameters: the cell clip must lie in [0, 32767]");
}

int check(const char* name, TVMValue* args, int* codes, int count, ElementType activation, ElementType bias) {
  ArgCheck c(name, args, codes, count);
  c.count(kArgCount).tensor(kTable, ElementType::kInt16, 1).tensor(kParameters, ElementType::kInt32, 1);
  if (!c.ok()) return c.result();
  const DLTensor* parameters = tensor_at(args, kParameters);
  static_assert(kParameterCount == 28, "the message below counts the fields");
  c.expect(element_count(parameters) == kParameterCount && parameters->data != nullptr, "parameters must hold 28 int32 values");
  c.expect(element_count(tensor_at(args, kTable)) == 256, "the sigmoid table must have 256 entries");
  if (!c.ok()) return c.result();
  const int32_t* p = parameters_of(args);
  check_parameters(c, p, activation);
  if (!c.ok()) return c.result();
  check_lstm_operands(c, args, {activation, ElementType::kInt8, bias, ElementType::kInt16}, p[kTimeMajor] != 0);
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
