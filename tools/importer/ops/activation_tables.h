// Host-side arithmetic for the activation converters: the int8 lookup tables (each entry the
// output TFLM's reference kernel computes for that input value, with TFLM's own fixed-point
// or float steps) and TFLM's int16 sigmoid table. Tables are indexed by input value + 128.
#ifndef GRAPHRT_TOOLS_IMPORTER_OPS_ACTIVATION_TABLES_H_
#define GRAPHRT_TOOLS_IMPORTER_OPS_ACTIVATION_TABLES_H_

#include <array>
#include <cstdint>
#include <string>

namespace grt::tools::activation {

struct Quantization {
  float scale = 0.0f;
  int32_t zero_point = 0;
};

using Int8Table = std::array<int8_t, 256>;

// Each builder fills *table, or returns a one-line reason where TFLM's Prepare refuses the
// parameters or they are beyond what its arithmetic can represent.
bool logistic_table(Quantization in, Quantization out, Int8Table* table, std::string* error);
bool tanh_table(Quantization in, Int8Table* table, std::string* error);
// RELU (activation 1) and RELU_N1_TO_1 (2): rescale to the output, clamp to the range.
bool relu_table(int activation, Quantization in, Quantization out, Int8Table* table, std::string* error);
// TFLM's RELU6 clamps in the input's quantization and ignores the output's.
Int8Table relu6_table(Quantization in);
bool hard_swish_table(Quantization in, Quantization out, Int8Table* table, std::string* error);
Int8Table elu_table(Quantization in, Quantization out);
bool abs_table(Quantization in, Quantization out, Int8Table* table, std::string* error);
bool rsqrt_table(Quantization in, Quantization out, Int8Table* table, std::string* error);

// TFLM's FloatToQuantizedType: round(value / scale) + zero_point, clamped to [low, high].
int32_t quantize_clamped(float value, Quantization q, int32_t low, int32_t high);

// TFLite's CheckedLog2: true when x is a power of two (within 1e-3 in log2), with the
// rounded log2 in *log2.
bool checked_log2(float x, int* log2);


}  // namespace grt::tools::activation

#endif  // GRAPHRT_TOOLS_IMPORTER_OPS_ACTIVATION_TABLES_H_
