// The synthetic chain the band tests cut: conv 3x3 stride 2 SAME -> depthwise 3x3 -> conv
// 1x1 -> residual ADD -> max pool -> conv 3x3 (bands_rewrite_test.cpp describes it).
#ifndef GRAPHRT_TESTS_UNIT_BANDS_BAND_CHAIN_MODEL_H_
#define GRAPHRT_TESTS_UNIT_BANDS_BAND_CHAIN_MODEL_H_

#include <cstdint>
#include <vector>

#include "graphrt/tools/model_def.h"

namespace grt::test {

tools::ModelDef band_chain_model();

// n bytes of a fixed pseudo-random sequence (weights, inputs).
std::vector<int8_t> random_bytes(size_t n, uint32_t seed);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_UNIT_BANDS_BAND_CHAIN_MODEL_H_
