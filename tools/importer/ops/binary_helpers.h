// Shared by the binary family's converters (ops/binary_ops.cpp, ops/binary_compare_ops.cpp):
// operand types, broadcast shapes and fused-activation ranges (operand counts, kernel-name
// suffixes and multipliers below one: converter_checks.h).
#ifndef GRAPHRT_TOOLS_IMPORTER_OPS_BINARY_HELPERS_H_
#define GRAPHRT_TOOLS_IMPORTER_OPS_BINARY_HELPERS_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "converter_checks.h"
#include "graphrt/tools/import_context.h"
#include "graphrt/tools/quantize_params.h"

namespace grt::tools::binary {

// The operator's inputs (all of them) and its output share one dtype, which is one of `allowed`.
bool expect_shared_type(ImportContext& ctx, std::initializer_list<DType> allowed, DType* dtype);

// True when `out` is the NumPy broadcast of `operands` (aligned on the right; 1 repeats).
bool is_broadcast_of(const std::vector<std::vector<int64_t>>& operands, const std::vector<int64_t>& out);
// The same for the operator's inputs and its output, failing the conversion if not.
bool expect_broadcast(ImportContext& ctx);

// Scale > 0, one scale per tensor, zero point inside [low, high].
bool expect_per_tensor(ImportContext& ctx, int32_t tensor, int32_t low, int32_t high, const char* what);

// The fused activation of MUL/DIV: NONE, RELU, RELU_N1_TO_1 or RELU6, else a failure.
bool supported_activation(ImportContext& ctx, tflite::ActivationFunctionType activation);
// TFLite's CalculateActivationRange for int32 outputs.
void int32_activation_range(tflite::ActivationFunctionType activation, int32_t* low, int32_t* high);

// TFLM's QuantizeMultiplier for any positive multiplier the kernels can shift: [-31, 31].
bool multiplier_any(ImportContext& ctx, double real, const char* what, FixedPointMultiplier* out);

void register_binary_compare_ops(ConverterTable& table);  // ops/binary_compare_ops.cpp

}  // namespace grt::tools::binary

#endif  // GRAPHRT_TOOLS_IMPORTER_OPS_BINARY_HELPERS_H_
