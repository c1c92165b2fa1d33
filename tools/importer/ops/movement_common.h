// What the movement family's converters (ops/movement_*.cpp) share: operand checks, axis
// resolution, constant integer operands, and boxes copied by strided_slice walks.
#ifndef GRAPHRT_TOOLS_IMPORTER_OPS_MOVEMENT_COMMON_H_
#define GRAPHRT_TOOLS_IMPORTER_OPS_MOVEMENT_COMMON_H_

#include <cstdint>
#include <initializer_list>
#include <map>
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

// Emits strided_slice nodes copying boxes of one operator's input into its outputs. The
// IntArray constants they take are shared between the operator's nodes where their values
// agree (the strides of plain copies, the extents of equal pieces), to keep blobs small.
class BoxCopies {
 public:
  explicit BoxCopies(ImportContext& ctx) : ctx_(ctx) {}
  // Copies the box starting at `begin` with extents `counts` of graphrt tensor `in` into
  // `out`; `strides` empty: 1 on every axis (a negative stride walks that axis backwards).
  void emit(uint32_t in, uint32_t out, const std::vector<int64_t>& begin, const std::vector<int64_t>& counts,
            const std::vector<int64_t>& strides = {});

 private:
  // The IntArray holding `values`, made on first use; 0 after a failure.
  uint32_t int_array(const char* what, const std::vector<int64_t>& values);

  ImportContext& ctx_;
  std::map<std::vector<int64_t>, uint32_t> made_;
};

// The product of a shape's dimensions, wrapping (for comparing shapes read from a file,
// whose products may overflow; tensors that large are refused when created).
uint64_t element_count(const std::vector<int64_t>& shape);

// Converters of the other movement files, registered by register_movement_ops.
void register_movement_gather_ops(ConverterTable& table);  // ops/movement_gather_ops.cpp
void register_movement_value_ops(ConverterTable& table);   // ops/movement_value_ops.cpp

}  // namespace grt::tools::movement

#endif  // GRAPHRT_TOOLS_IMPORTER_OPS_MOVEMENT_COMMON_H_
