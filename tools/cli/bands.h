// Band plans for the commands: `graphrt import --memory-budget` and the band column of
// `graphrt plan --report`.
#ifndef GRAPHRT_CLI_BANDS_H_
#define GRAPHRT_CLI_BANDS_H_

#include <cstdint>
#include <string>

#include "graphrt/tools/bands.h"

namespace grt::cli {

// The most extra MACs `--memory-budget` will spend, and the figure `plan --report` shows
// (the target).
inline constexpr double kMostExtraMacsPercent = 100.0;
inline constexpr double kReportedExtraMacsPercent = 15.0;

// The plan with the fewest extra MACs whose pools, besides the caller's inputs pool with
// --inputs-outside, fit `budget` bytes (no bands when the plain plan fits). Otherwise false,
// and `error` names the smallest figure reachable.
bool band_plan_for_budget(const tools::ModelDef& model, const tools::PlanOptions& options, uint64_t budget, tools::BandPlan* chosen,
                          std::string* error);

// "3 chains cut into bands, 412 nodes, 12.5 % extra MACs, 0 bytes of kept rows moved" (or
// "no bands").
std::string band_plan_summary(const tools::BandPlan& plan);

}  // namespace grt::cli

#endif  // GRAPHRT_CLI_BANDS_H_
