// The int16 sigmoid table and the input rescaling of TFLM's int16 LOGISTIC and TANH.
#include "sigmoid_table.h"

#include <cmath>

#include "activation_tables.h"

namespace grt::tools::activation {
namespace {

double scaled_sigmoid(double x) { return 65536.0 / (1.0 + std::exp(-x)); }

}  // namespace

SigmoidTable sigmoid_q16_table() {
  constexpr double kStep = 1.0 / 24.0;
  SigmoidTable table{};
  for (size_t i = 0; i + 1 < table.size(); ++i) {
    const double x = static_cast<double>(i) * kStep;
    const double left = scaled_sigmoid(x);
    const double right = scaled_sigmoid(x + kStep);
    // Sigmoid is concave on x >= 0: the chord lies below the curve, most near the middle.
    const double midpoint_error = scaled_sigmoid(x + kStep / 2) - (left + right) / 2;
    table[i] = static_cast<uint16_t>(std::min(65535.0, std::floor(left + midpoint_error / 2 + 0.5)));
  }
  table[table.size() - 1] = 65535;
  return table;
}

std::string sigmoid_q16_table_bytes() {
  const SigmoidTable table = sigmoid_q16_table();
  std::string bytes;
  for (const uint16_t v : table) {
    bytes.push_back(static_cast<char>(v & 0xFF));
    bytes.push_back(static_cast<char>(v >> 8));
  }
  return bytes;
}

bool int16_sigmoid_rescale(bool tanh, float input_scale, int32_t input_zero_point, float output_scale,
                           int32_t output_zero_point, int32_t* multiplier, int* shift, std::string* error) {
  constexpr int kInputIntegerBits = 3;
  constexpr int kOutputFractionalBits = 15;
  if (input_zero_point != 0 || output_zero_point != 0) {
    *error = "int16 input and output need zero point 0 (have " + std::to_string(input_zero_point) + " and " +
             std::to_string(output_zero_point) + ")";
    return false;
  }
  int output_log2 = 0;
  if (!checked_log2(output_scale, &output_log2) || output_log2 != -kOutputFractionalBits) {
    *error = "int16 output scale must be 2^-15, is " + std::to_string(output_scale);
    return false;
  }
  int input_log2 = 0;
  bool power_of_two = checked_log2(input_scale, &input_log2);
  const int left_shift = (15 - kInputIntegerBits) + input_log2;
  // TANH also takes a power-of-two scale one step coarser (its table steps are finer).
  power_of_two = power_of_two && (left_shift == 0 || (tanh && left_shift == 1));
  if (power_of_two) {
    // The kernels' power-of-two case: x * (3 << left_shift), no shift.
    *multiplier = 3 << left_shift;
    *shift = 0;
    return true;
  }
  // Otherwise onto 1 / (3 * 4096) per step, the multiplier kept within 15 bits.
  double m = static_cast<double>(input_scale) * 4096.0 * 3.0;
  int s = 0;
  while (m <= 32767.0 / 2.0 && s <= 30) {
    ++s;
    m *= 2.0;
  }
  if (m > 32767.0) {
    *error = "int16 input scale " + std::to_string(input_scale) + " is too large for the sigmoid table's rescaling";
    return false;
  }
  *multiplier = static_cast<int32_t>(m);
  *shift = s;
  return true;
}

}  // namespace grt::tools::activation
