// Converters for data movement and shape (CONCATENATION, PACK, UNPACK, SPLIT, SLICE, GATHER, CAST, FILL, SHAPE, ...).
#include "graphrt/tools/import_context.h"

namespace grt::tools {

void register_movement_ops(ConverterTable& /*table*/) {}

}  // namespace grt::tools
