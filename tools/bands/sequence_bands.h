// Recurrent layers cut into bands of time steps (bands.h, BandChain::sequence). An LSTM of
// one batch whose output sequence only a fully-connected layer over all of it reads runs a
// band of steps per node: its h and c states carry from one node to the next as they carry
// from one step to the next inside one call, so every step computes the same values. After
// each band a sum node adds the band's outputs to the layer's sums (tail_ops.h): the output
// sequence is held one band at a time, never whole.
#ifndef GRAPHRT_TOOLS_BANDS_SEQUENCE_BANDS_H_
#define GRAPHRT_TOOLS_BANDS_SEQUENCE_BANDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphrt/tools/bands.h"

namespace grt::tools::bands {

// Whether node n and n + 1 are such an LSTM and its tail: node n writes its output sequence
// alone, node n + 1 alone reads it (itself or one alias of its bytes), the sequence is no
// model output, and it has at least two steps.
bool is_sequence_chain(const ModelDef& model, uint32_t n);

// The time steps of the LSTM `node` (of a sequence chain).
int64_t sequence_steps(const ModelDef& model, const NodeDef& node);

// The most bands worth cutting the sequence chain at node `n` into. Bands cost no MAC, but
// each adds two nodes, and each node a pointer of the executor's bookkeeping (8 bytes on a
// 64-bit host, 4 on Cortex-M): past about sqrt(sequence bytes / 16) bands the nodes cost
// more than the smaller band saves.
int64_t sequence_band_limit(const ModelDef& model, uint32_t n);

// The tensors a sequence chain no longer needs once it is cut: the output sequence and its
// alias.
std::vector<uint32_t> sequence_unused(const ModelDef& model, const BandChain& chain);

// rewrite_chain (rewrite_chain.h) for a sequence chain: `step.halo` does not apply (no
// window: no halo) and every band costs no extra MAC.
bool rewrite_sequence(const ModelDef& in, const BandStep& step, BandCost* cost, std::vector<bool>* banded_nodes, ModelDef* rewritten,
                      std::string* error);

}  // namespace grt::tools::bands

#endif  // GRAPHRT_TOOLS_BANDS_SEQUENCE_BANDS_H_
