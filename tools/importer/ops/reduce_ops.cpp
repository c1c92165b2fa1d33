// Converters for reductions and matrix products (SUM, REDUCE_MAX/MIN, ARG_MAX/MIN, LOG_SOFTMAX, L2_NORMALIZATION, BATCH_MATMUL, ...).
#include "graphrt/tools/import_context.h"

namespace grt::tools {

void register_reduce_ops(ConverterTable& /*table*/) {}

}  // namespace grt::tools
