// Checks and names every operator family's converters (ops/*.cpp) share: operand counts,
// kernel-name suffixes and TFLM's multipliers below one.
#ifndef GRAPHRT_TOOLS_IMPORTER_OPS_CONVERTER_CHECKS_H_
#define GRAPHRT_TOOLS_IMPORTER_OPS_CONVERTER_CHECKS_H_

#include <string>

#include "graphrt/tools/import_context.h"
#include "graphrt/tools/quantize_params.h"

namespace grt::tools {

// An input count in [min_inputs, max_inputs], the first min_inputs present, one output.
bool expect_arity(ImportContext& ctx, int min_inputs, int max_inputs);

// The kernel-name suffix of a dtype: s8, u8, s16, s32, i64, f32, bool (the dtype's name for
// others; converters check dtypes before they name kernels).
std::string type_suffix(DType dtype);

// TFLM's QuantizeMultiplierSmallerThanOneExp: a multiplier in (0, 1), shift in [-31, 0], or a
// failure naming `what`.
bool multiplier_below_one(ImportContext& ctx, double real, const char* what, FixedPointMultiplier* out);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_IMPORTER_OPS_CONVERTER_CHECKS_H_
