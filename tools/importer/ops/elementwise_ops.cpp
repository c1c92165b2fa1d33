// Converters for the elementwise kernel family (see kernels/src/elementwise/).
#include "graphrt/tools/import_context.h"

namespace grt::tools {

void register_elementwise_ops(ConverterTable& table) { (void)table; }

}  // namespace grt::tools
