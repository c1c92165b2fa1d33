// The synthetic chain the band tests cut: conv 3x3 stride 2 SAME -> depthwise 3x3 -> conv
// 1x1 -> residual ADD -> max pool -> conv 3x3 (bands_rewrite_test.cpp describes it).
#ifndef GRAPHRT_TESTS_UNIT_BANDS_BAND_CHAIN_MODEL_H_
#define GRAPHRT_TESTS_UNIT_BANDS_BAND_CHAIN_MODEL_H_

#include "graphrt/tools/model_def.h"

namespace grt::test {

tools::ModelDef band_chain_model();

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_UNIT_BANDS_BAND_CHAIN_MODEL_H_
