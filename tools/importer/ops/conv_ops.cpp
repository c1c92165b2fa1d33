// Converters for the conv kernel family (see kernels/src/conv/).
#include "graphrt/tools/import_context.h"

namespace grt::tools {

void register_conv_ops(ConverterTable& table) { (void)table; }

}  // namespace grt::tools
