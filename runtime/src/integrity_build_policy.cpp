// Alone in its file so a test can link a build that requires signatures without rebuilding
// the runtime (it provides this one symbol compiled with the option set).
#include "integrity_header.h"

namespace grt {

bool build_requires_signature() { return GRT_INTEGRITY_REQUIRE_SIGNATURE != 0; }

}  // namespace grt
