// Converters for the dense kernel family (see kernels/src/dense/).
#include "graphrt/tools/import_context.h"

namespace grt::tools {

void register_dense_ops(ConverterTable& table) { (void)table; }

}  // namespace grt::tools
