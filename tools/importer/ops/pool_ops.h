// What the pool family's converters (ops/pool_*.cpp) share: arity checks, per-dimension
// strides, and the offset-table nodes of kernels/src/pool/offset_gather.cpp.
#ifndef GRAPHRT_TOOLS_OPS_POOL_OPS_H_
#define GRAPHRT_TOOLS_OPS_POOL_OPS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graphrt/tools/import_context.h"

namespace grt::tools::pool {

// `inputs` inputs, all present, and one output; otherwise fails the import.
bool expect_operands(ImportContext& ctx, int inputs);

// Row-major strides in elements; fails (returns false) when an element count of the shape
// would not fit the kernels' int32 offsets.
bool strides_of(const std::vector<int64_t>& shape, std::vector<int64_t>* strides);

// The output seen as `extents` (row-major, product = its element count); offsets[d][i] is the
// input element offset index i of dimension d adds, for every dimension but the last, which
// is copied as a contiguous run. Emits `kernel` (one of offset_gather.cpp's names) on input 0
// and output 0.
struct OffsetTables {
  std::vector<int32_t> extents;
  std::vector<std::vector<int64_t>> offsets;  // extents.size() - 1 tables
};
bool add_offset_gather(ImportContext& ctx, std::string_view kernel, const OffsetTables& tables);

// A constant int32 input's values; fails naming `what` unless it is a constant int32 tensor.
bool constant_int32(ImportContext& ctx, int input, const char* what, std::vector<int32_t>* values);

// The index tables of one tensor hold one entry per index of each dimension; models for
// microcontrollers stay far below this, and a malformed model cannot make the importer
// allocate gigabytes.
constexpr int64_t kMaxTableEntries = int64_t{1} << 20;
// Fails unless the shape's element count fits int32 and its dimensions sum to at most
// kMaxTableEntries.
bool fits_tables(ImportContext& ctx, const std::vector<int64_t>& shape);

// Fails with "output shape must be [...]" unless output 0 has `expected`, which must also
// pass fits_tables.
bool output_is(ImportContext& ctx, const std::vector<int64_t>& expected);

// Block sizes beyond this are refused before any shape arithmetic can overflow.
constexpr int32_t kMaxBlock = 4096;

void register_pool_resize_ops(ConverterTable& table);     // ops/pool_resize_ops.cpp
void register_pool_rearrange_ops(ConverterTable& table);  // ops/pool_rearrange_ops.cpp
void register_pool_batch_ops(ConverterTable& table);      // ops/pool_batch_ops.cpp

}  // namespace grt::tools::pool

#endif  // GRAPHRT_TOOLS_OPS_POOL_OPS_H_
