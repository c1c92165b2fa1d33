// Shared by the reduction converters (ops/reduce_*.cpp and MEAN in ops/dense_ops.cpp): TFLite's
// axis resolution, the (extent, stride) walks the reduction kernels take (see
// kernels/src/reduce/reduction_walk.h), and the MEAN / SUM converter both operators use.
#ifndef GRAPHRT_TOOLS_IMPORTER_OPS_REDUCE_COMMON_H_
#define GRAPHRT_TOOLS_IMPORTER_OPS_REDUCE_COMMON_H_

#include <cstdint>
#include <string>
#include <vector>

#include "converter_checks.h"
#include "graphrt/tools/import_context.h"

namespace grt::tools::reduce_ops {

// The product of a shape's dimensions, or -1 when a dimension is negative or the product
// passes INT32_MAX (the kernels index with int32): converters refuse both.
int64_t element_count(const std::vector<int64_t>& shape);
// a * b for a, b >= 0, capped at INT32_MAX + 1 so that products of dimensions cannot overflow.
int64_t capped_product(int64_t a, int64_t b);

// TFLite's ResolveAxis for a constant int32 axis tensor: negative axes count from the end,
// duplicates are ignored. Sets (*reduced)[d] for each axis of a rank-`rank` input.
bool resolve_axes(ImportContext& ctx, int32_t axis_tensor, size_t rank, std::vector<bool>* reduced);

// The kept and reduced (extent, stride) walks of a reduction over `reduced` dimensions of a
// row-major tensor of `shape`; size-1 dimensions are dropped and neighbours of the same kind
// merged. count is how many input elements each output element folds.
struct ReductionWalk {
  std::vector<int32_t> kept;
  std::vector<int32_t> reduced;
  int64_t outputs = 1;
  int64_t count = 1;
};
ReductionWalk reduction_walk(const std::vector<int64_t>& shape, const std::vector<bool>& reduced);

// Resolves input 0 and the constant axes of input 1 into a walk, refusing inputs too large
// for the kernels and an output whose element count is not the reduction's.
bool reduction_walk_for(ImportContext& ctx, ReductionWalk* walk);

// The four arguments every reduction kernel starts with: input 0, output 0, kept, reduced.
std::vector<ArgDef> reduction_args(ImportContext& ctx, const ReductionWalk& walk);

// MEAN (mean = true) and SUM: int8, int16 and float32, any axes, keep_dims or not.
bool convert_mean_or_sum(ImportContext& ctx, bool mean);

// The family's other converter files, called by register_reduce_ops.
void register_normalize_ops(ConverterTable& table);  // ops/reduce_normalize_ops.cpp
void register_matmul_ops(ConverterTable& table);     // ops/reduce_matmul_ops.cpp

}  // namespace grt::tools::reduce_ops

#endif  // GRAPHRT_TOOLS_IMPORTER_OPS_REDUCE_COMMON_H_
