// The band rewrite without apply_bands' check that the chain is one band_chains accepts:
// for the search, whose chains come from band_chains on the same model.
#ifndef GRAPHRT_TOOLS_BANDS_REWRITE_CHAIN_H_
#define GRAPHRT_TOOLS_BANDS_REWRITE_CHAIN_H_

#include <string>
#include <vector>

#include "graphrt/tools/bands.h"

namespace grt::tools::bands {

// `in` with `step` applied, written to `rewritten` (which `in` must not be). The chain's old
// intermediates stay in `rewritten`'s tensors, used by nothing (which the planner skips):
// apply_bands removes them; the search's trials spare the time.
bool rewrite_chain(const ModelDef& in, const BandStep& step, BandCost* cost, std::vector<bool>* banded_nodes, ModelDef* rewritten,
                   std::string* error);

}  // namespace grt::tools::bands

#endif  // GRAPHRT_TOOLS_BANDS_REWRITE_CHAIN_H_
