// The synthetic chains the band tests cut: conv 3x3 stride 2 SAME -> depthwise 3x3 -> conv
// 1x1 -> residual ADD -> max pool -> conv 3x3 (bands_rewrite_test.cpp describes it), and
// chains ending in a reduction.
#ifndef GRAPHRT_TESTS_UNIT_BANDS_BAND_CHAIN_MODEL_H_
#define GRAPHRT_TESTS_UNIT_BANDS_BAND_CHAIN_MODEL_H_

#include <cstdint>
#include <vector>

#include "graphrt/tools/model_def.h"

namespace grt::test {

tools::ModelDef band_chain_model();

// A chain ending in a reduction the bands can feed in parts (bands_tail_test.cpp):
// x [1, 15, 13, 3] -> conv 3x3 stride 2 SAME -> c [1, 8, 7, 16] -> depthwise 3x3 -> d, then a
// global average pool of d ([1, 1, 1, 16]) or a fully connected layer over d's 896 values
// ([1, 10]), the model's output.
enum class Tail { kAveragePool, kFullyConnected };

// A chain with strided layers inside it, where kept steps of whole output rows hold many
// rows of the earlier layers: x [1, 16, 8, 4] -> conv 3x3 -> a [1, 16, 8, 8] -> depthwise 3x3
// stride 2 -> b [1, 8, 4, 8] -> conv 1x1 -> c -> depthwise 3x3 stride 2 -> d [1, 4, 2, 8] ->
// conv 1x1 -> out (nodes 0 to 4; the chain is nodes 0 to 3).
tools::ModelDef strided_chain_model();
tools::ModelDef band_tail_model(Tail tail);

// A MobileNet's first layers, as VWW's (bands_split_test.cpp): x [1, 32, 32, 3] -> conv 3x3
// stride 2 -> c0 [1, 16, 16, 8], then five depthwise 3x3 / pointwise pairs (strides 1, 2,
// 1, 2, 1; pointwise channels 16, 32, 32, 64, 64: p5 [1, 4, 4, 64]) and a depthwise 3x3
// stride 2 -> out [1, 2, 2, 64]: nodes 0 to 11.
tools::ModelDef mobilenet_chain_model();

// An LSTM whose output sequence a fully connected layer reads (bands_sequence_test.cpp):
// x [1, 12, 3] (time major: [12, 1, 3]) -> lstm_f32 (16 cells) -> y -> flattened [1, 192] ->
// fully_connected_f32 -> out [1, 5]. With `y_is_output`, y is a model output too.
constexpr int64_t kSequenceSteps = 12, kSequenceCells = 16;
tools::ModelDef lstm_sequence_model(bool time_major, bool y_is_output = false);

// n floats in [-1, 1) of a fixed pseudo-random sequence.
std::vector<float> random_floats(size_t n, uint32_t seed);

// n bytes of a fixed pseudo-random sequence (weights, inputs).
std::vector<int8_t> random_bytes(size_t n, uint32_t seed);

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_UNIT_BANDS_BAND_CHAIN_MODEL_H_
