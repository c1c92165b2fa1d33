#include "reduce_common.h"

namespace grt::tools::reduce_ops {

void register_matmul_ops(ConverterTable& /*table*/) {}

}  // namespace grt::tools::reduce_ops
