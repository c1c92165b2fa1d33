// TFLM's int16 LOGISTIC, TANH and integer LSTM interpolate linearly in a 256-entry table of
// sigmoid(i / 24) in unsigned Q0.16. The table is built here from its definition (see
// sigmoid_table.cpp) and travels in the blob as a constant, so the device holds no copy of
// its own and does no floating point for it.
#ifndef GRAPHRT_TOOLS_IMPORTER_OPS_SIGMOID_TABLE_H_
#define GRAPHRT_TOOLS_IMPORTER_OPS_SIGMOID_TABLE_H_

#include <array>
#include <cstdint>
#include <string>

namespace grt::tools::activation {

using SigmoidTable = std::array<uint16_t, 256>;

// Entry i: 65536 * sigmoid(i / 24) raised by half the linear-interpolation error at the
// middle of interval i, so interpolated values err equally on both sides of the curve,
// rounded to nearest; the last entry is 65535, the value the kernels saturate to past it.
SigmoidTable sigmoid_q16_table();

// The table's entries as little-endian bytes, for a constant tensor of 256 int16.
std::string sigmoid_q16_table_bytes();

// TFLM's int16 LOGISTIC / TANH Prepare (zero points 0, output scale 2^-15): the input
// rescaling x * multiplier >> shift (rounded) onto the table's 3 * 4096 steps per unit, with
// the power-of-two case folded in as the kernels apply it. False with a reason otherwise.
bool int16_sigmoid_rescale(bool tanh, float input_scale, int32_t input_zero_point, float output_scale,
                           int32_t output_zero_point, int32_t* multiplier, int* shift, std::string* error);

}  // namespace grt::tools::activation

#endif  // GRAPHRT_TOOLS_IMPORTER_OPS_SIGMOID_TABLE_H_
