// What the movement family's converters (ops/movement_*.cpp) share: operand checks, axis
// resolution, constant integer operands, and slices emitted as strided_slice walks.
#ifndef GRAPHRT_TOOLS_IMPORTER_OPS_MOVEMENT_COMMON_H_
#define GRAPHRT_TOOLS_IMPORTER_OPS_MOVEMENT_COMMON_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "graphrt/tools/import_context.h"

namespace grt::tools::movement {

// Exactly `inputs` inputs (all present) and `outputs` outputs; a negative count is "at least 1".
bool expect_operands(ImportContext& ctx, int inputs, int outputs);

// One of the dtypes TFLM's kernel accepts for this operator, or a failure naming them.
bool expect_dtype(ImportContext& ctx, DType dtype, std::initializer_list<DType> accepted, const char* what = "type");

// A TFLite axis (negative counts from the end) resolved against `rank`, or a failure.
bool resolve_axis(ImportContext& ctx, int64_t axis, size_t rank, int* resolved);

// A constant integer operand's values (callers restrict the dtype where TFLM does), or a
// failure naming what it is for.
bool constant_integers(ImportContext& ctx, int32_t tensor, const char* what, std::vector<int64_t>* values);

// Emits strided_slice copying the box starting at `begin` with extents `counts` (stride 1
// on every axis; a negative stride walks that axis backwards from begin) of graphrt tensor
// `in` into `out`.
void emit_box_copy(ImportContext& ctx, uint32_t in, uint32_t out, const std::vector<int64_t>& begin,
                   const std::vector<int64_t>& counts, const std::vector<int64_t>& strides = {});

// The product of a shape's dimensions, wrapping (for comparing shapes read from a file,
// whose products may overflow; tensors that large are refused when created).
uint64_t element_count(const std::vector<int64_t>& shape);

// Converters of the other movement files, registered by register_movement_ops.
void register_movement_gather_ops(ConverterTable& table);  // ops/movement_gather_ops.cpp
void register_movement_value_ops(ConverterTable& table);   // ops/movement_value_ops.cpp

}  // namespace grt::tools::movement

#endif  // GRAPHRT_TOOLS_IMPORTER_OPS_MOVEMENT_COMMON_H_
